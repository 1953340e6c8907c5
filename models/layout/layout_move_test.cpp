// Moving a field: into free room, by a swap, by growing the struct; and every refusal. Layouts are
// built here, byte by byte, so each expected offset follows from the layout written in the test.
#include "models/layout/layout_move.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "models/config/config_error.hpp"
#include "models/kernel/kernel_loader.hpp"
#include "models/layout/btf_file.hpp"
#include "models/layout/layout_text.hpp"

namespace walksim::layout {
namespace {

// A 128-byte struct: line 0 holds a (0+8), b (8+16), c (32+8), hole 40..64; line 1 is full:
// d (64+16), e (80+8), f (88+8), g (96+32).
kernel::ObjectLayout offsets_layout() {
  kernel::ObjectLayout l;
  l.type = "dentry";
  l.size = 128;
  l.stride = 128;
  l.source = "test";
  l.offsets = {{"a", 0}, {"b", 8}, {"c", 32}, {"d", 64}, {"e", 80}, {"f", 88}, {"g", 96}};
  l.sizes = {{"a", 8}, {"b", 16}, {"c", 8}, {"d", 16}, {"e", 8}, {"f", 8}, {"g", 32}};
  l.index();
  return l;
}

kernel::ObjectLayout lines_layout() {
  kernel::ObjectLayout l;
  l.type = "dentry";
  l.lines = {{"a", "b"}, {"c", "d", "e"}};
  for (std::uint32_t i = 0; i < 2; ++i) {
    for (const auto& f : l.lines[i]) l.line_of[f] = i;
  }
  l.sizes = {{"a", 16}, {"b", 32}, {"c", 16}, {"d", 16}, {"e", 24}};  // line 0: 48 bytes, line 1: 56
  l.index();
  return l;
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const LayoutError& e) {
    return e.what();
  }
  return "";
}

TEST(LayoutMove, IntoFreeRoomTakesTheFirstAlignedFreePlace) {
  Move m;
  const auto moved = move_field(offsets_layout(), "e", 0, false, std::nullopt, m);
  EXPECT_EQ(moved.offsets.at("e"), 24u);  // 24..32 is free (b ends at 24), aligned to 8
  EXPECT_EQ(moved.line_of.at("e"), 0u);
  EXPECT_EQ(moved.size, 128u);
  EXPECT_EQ(m.from_offset, 80u);
  EXPECT_EQ(m.to_offset, 24u);
  const auto moved16 = move_field(offsets_layout(), "d", 0, false, std::nullopt, m);
  EXPECT_EQ(moved16.offsets.at("d"), 40u);  // 16 bytes: the first free place is the hole at 40
}

TEST(LayoutMove, AFullLineIsRefusedNamingWhatFillsIt) {
  Move m;
  const std::string w = error_of([&] { (void)move_field(offsets_layout(), "c", 1, false, std::nullopt, m); });
  EXPECT_NE(w.find("no free 8-byte place"), std::string::npos) << w;
  EXPECT_NE(w.find("g 96+32"), std::string::npos) << w;
  EXPECT_NE(w.find("--grow"), std::string::npos) << w;
}

TEST(LayoutMove, GrowingInsertsAtTheLastBoundaryThatFitsAndMovesTheRestDown) {
  Move m;
  const auto moved = move_field(offsets_layout(), "c", 1, true, std::nullopt, m);
  // boundaries on line 1 where 8 bytes still end on it: 64, 80, 88, 96 -> the last, 96
  EXPECT_EQ(moved.offsets.at("c"), 96u);
  EXPECT_EQ(moved.offsets.at("g"), 104u);
  EXPECT_EQ(moved.offsets.at("f"), 88u);
  EXPECT_EQ(moved.size, 136u);
  EXPECT_EQ(moved.stride, 136u) << "the stride was the size rounded to 8, and still is";
  EXPECT_EQ(m.grew_by, 8u);
  const auto given = move_field(offsets_layout(), "c", 1, true, 192u, m);
  EXPECT_EQ(given.stride, 192u);
  EXPECT_NE(error_of([&] { (void)move_field(offsets_layout(), "c", 1, true, 100u, m); }).find("stride"),
            std::string::npos);
}

TEST(LayoutMove, ASwapExchangesAFieldWithNeighboursOfTheSameTotalSize) {
  Move m;
  const auto moved = swap_fields(offsets_layout(), "b", {"e", "f"}, m);
  EXPECT_EQ(moved.offsets.at("b"), 80u);
  EXPECT_EQ(moved.offsets.at("e"), 8u);
  EXPECT_EQ(moved.offsets.at("f"), 16u);
  EXPECT_EQ(moved.size, 128u);
  EXPECT_NE(error_of([&] { (void)swap_fields(offsets_layout(), "b", {"e"}, m); }).find("the same size"),
            std::string::npos);
  EXPECT_NE(error_of([&] {
              (void)swap_fields(offsets_layout(), "d", {"a", "c"}, m);
            }).find("follow on"),
            std::string::npos);
  EXPECT_NE(error_of([&] {
              (void)swap_fields(offsets_layout(), "b", {"a", "d"}, m);
            }).find("share a line"),
            std::string::npos);
}

TEST(LayoutMove, ALayoutOfLinesMovesByListAndChecksTheLinesBytes) {
  Move m;
  const auto moved = move_field(lines_layout(), "c", 0, false, std::nullopt, m);  // 48 + 16 = 64
  EXPECT_EQ(moved.line_of.at("c"), 0u);
  EXPECT_EQ(moved.lines[0], (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_EQ(moved.lines[1], (std::vector<std::string>{"d", "e"}));
  EXPECT_NE(error_of([&] { (void)move_field(lines_layout(), "a", 1, false, std::nullopt, m); }).find("has 8 of the 16"),
            std::string::npos);
  const auto onto_new = move_field(lines_layout(), "b", 2, false, std::nullopt, m);  // a new last line
  EXPECT_EQ(onto_new.lines.size(), 3u);
  EXPECT_EQ(onto_new.line_of.at("b"), 2u);
  const auto swapped = swap_fields(lines_layout(), "b", {"c", "d"}, m);
  EXPECT_EQ(swapped.line_of.at("b"), 1u);
  EXPECT_EQ(swapped.line_of.at("c"), 0u);
  EXPECT_EQ(swapped.line_of.at("d"), 0u);
  EXPECT_NE(error_of([&] { (void)swap_fields(lines_layout(), "b", {"d"}, m); }).find("the same size"),
            std::string::npos);
}

TEST(LayoutMove, RefusalsNameTheProblem) {
  Move m;
  EXPECT_NE(
      error_of([&] { (void)move_field(offsets_layout(), "bb", 1, false, std::nullopt, m); }).find("did you mean 'b'"),
      std::string::npos);
  EXPECT_NE(
      error_of([&] { (void)move_field(offsets_layout(), "a", 0, false, std::nullopt, m); }).find("already on line 0"),
      std::string::npos);
  EXPECT_NE(error_of([&] { (void)move_field(offsets_layout(), "a", 2, false, std::nullopt, m); }).find("beyond"),
            std::string::npos);
  kernel::ObjectLayout unsized = offsets_layout();
  unsized.sizes.erase("g");
  EXPECT_NE(error_of([&] { (void)move_field(unsized, "a", 1, false, std::nullopt, m); }).find("no size for 'g'"),
            std::string::npos);
  EXPECT_NE(error_of([&] { (void)move_field(lines_layout(), "a", 1, true, std::nullopt, m); }).find("byte offsets"),
            std::string::npos);
}

TEST(LayoutShow, ALineCountsTheBytesOfAFieldThatRunsOntoIt) {
  kernel::ObjectLayout l = offsets_layout();
  l.offsets["c"] = 56;  // 56..64, then move b so that one field crosses a line
  l.offsets["b"] = 40;
  l.sizes["b"] = 16;
  l.offsets["a"] = 60;  // overlapping on purpose is not what this checks; keep a clear of it
  l.offsets["a"] = 0;
  l.index();
  const std::string text = show_layout(l);
  EXPECT_NE(text.find("line 1 (0x40)"), std::string::npos) << text;
  EXPECT_NE(text.find("64 of 64 bytes"), std::string::npos) << text;
}

// The loader's checks of `sizes:` (a kernel file written here, extending a shipped variant).
std::string load_error(const std::string& layout_yaml) {
  const auto dir = std::filesystem::temp_directory_path() / ("walksim-sizes-test-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto file = dir / "sized.yaml";
  std::ofstream(file) << "name: sized\nextends: linux-6.1-debian\nlayouts:\n  fs_struct:\n" << layout_yaml;
  std::string what;
  try {
    (void)kernel::load_kernel(file.string(), {std::string(WALKSIM_SOURCE_DIR) + "/configs/kernels"});
  } catch (const config::ConfigError& e) {
    what = e.what();
  }
  std::filesystem::remove_all(dir);
  return what;
}

TEST(LayoutSizes, TheLoaderRefusesOverlapsOverfullLinesAndSizesOfNothing) {
  const std::string head =
      "    size: 56\n    stride: 64\n    source: test\n"
      "    offsets: {users: 0, lock: 4, seq: 8, umask: 12, in_exec: 16, root: 24, pwd: 40}\n";
  EXPECT_EQ(load_error(head + "    sizes: {users: 4, lock: 4, seq: 4, root: 16, pwd: 16}\n"), "");
  EXPECT_NE(load_error(head + "    sizes: {users: 8, lock: 4}\n").find("overlap"), std::string::npos);
  EXPECT_NE(load_error(head + "    sizes: {pwd: 24}\n").find("runs past"), std::string::npos);
  EXPECT_NE(load_error(head + "    sizes: {nothing: 4}\n").find("no place"), std::string::npos);
  EXPECT_NE(load_error("    lines:\n      - [users, lock, seq, umask, in_exec, root, pwd]\n"
                       "    sizes: {root: 40, pwd: 40}\n")
                .find("more than its 64"),
            std::string::npos);
}

}  // namespace
}  // namespace walksim::layout
