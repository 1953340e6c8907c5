// The BTF reader against pahole's listing of the same object (gcc -g, pahole -J at build time),
// and against every way a file can fail to be BTF.
#include "models/layout/btf_file.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>

#include "models/config/test_support.hpp"
#include "models/layout/pahole_listing.hpp"

namespace walksim::layout {
namespace {

std::string fixture(const std::string& f) { return std::string(WALKSIM_BTF_FIXTURES) + "/" + f; }

std::string bytes_of(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void expect_error(const std::string& path, const std::string& words) {
  try {
    (void)BtfFile::open(path);
    ADD_FAILURE() << path << " was read as BTF";
  } catch (const LayoutError& e) {
    EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << "names the file: " << e.what();
  }
}

class FixtureStructs : public ::testing::TestWithParam<std::string> {};

TEST_P(FixtureStructs, EveryMemberIsWherePaholeSaysItIs) {
  const std::string name = GetParam();
  const auto listing = testing::read_pahole(fixture(name + ".pahole"));
  ASSERT_GT(listing.size(), 3u) << "pahole listed " << name;
  for (const std::string file : {"lookalike.o", "lookalike.btf"}) {  // ELF and raw BTF alike
    const BtfFile btf = BtfFile::open(fixture(file));
    const auto id = btf.find_struct(name);
    ASSERT_TRUE(id) << name << " in " << file;
    for (const auto& [path, want] : listing) {
      const auto got = btf.member(*id, path);
      ASSERT_TRUE(got) << name << "." << path << " in " << file;
      EXPECT_EQ(got->offset, want.offset) << name << "." << path;
      if (want.bitfield) {
        EXPECT_GT(got->bit_size, 0u) << name << "." << path;
      } else {
        EXPECT_EQ(got->size, want.size) << name << "." << path;
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Lookalike, FixtureStructs, ::testing::Values("dentry", "inode", "mount", "fs_struct"));

TEST(BtfFile, NestedPathsAddTheOffsetsOfEachStruct) {
  const BtfFile btf = BtfFile::open(fixture("lookalike.o"));
  const auto dentry = testing::read_pahole(fixture("dentry.pahole"));
  const auto lockref = testing::read_pahole(fixture("lockref.pahole"));
  const auto mount = testing::read_pahole(fixture("mount.pahole"));
  const auto id = *btf.find_struct("dentry");
  // count and lock sit in an anonymous struct inside lockref's anonymous union
  EXPECT_EQ(btf.member(id, "d_lockref.count")->offset, dentry.at("d_lockref").offset + lockref.at("count").offset);
  EXPECT_EQ(btf.member(id, "d_lockref.lock")->offset, dentry.at("d_lockref").offset + lockref.at("lock").offset);
  EXPECT_EQ(btf.member(id, "d_lockref.count")->size, 4u);
  EXPECT_TRUE(btf.member(id, "d_name")->in_anonymous);
  EXPECT_FALSE(btf.member(id, "d_parent")->in_anonymous);
  const auto mid = *btf.find_struct("mount");
  EXPECT_EQ(btf.member(mid, "mnt.mnt_flags")->offset, mount.at("mnt").offset + 16);
  EXPECT_FALSE(btf.member(id, "d_lockref.nothing"));
  EXPECT_FALSE(btf.member(id, "d_nothing"));
  EXPECT_FALSE(btf.member(id, "d_alias")) << "d_alias is inside the named union d_u, not reachable without it";
}

TEST(BtfFile, ABitfieldIsTheBytesItsBitsTouch) {
  const BtfFile btf = BtfFile::open(fixture("lookalike.o"));
  const auto fs = testing::read_pahole(fixture("fs_struct.pahole"));
  const auto place = btf.member(*btf.find_struct("fs_struct"), "in_exec");
  ASSERT_TRUE(place);
  EXPECT_EQ(place->bit_size, 1u);
  EXPECT_EQ(place->size, 1u);
  EXPECT_EQ(place->offset, fs.at("in_exec").offset);
}

TEST(BtfFile, MemberNamesReachThroughAnonymousMembersOnly) {
  const BtfFile btf = BtfFile::open(fixture("lookalike.o"));
  const auto names = btf.member_names(*btf.find_struct("dentry"));
  auto has = [&](const char* n) { return std::find(names.begin(), names.end(), n) != names.end(); };
  EXPECT_TRUE(has("d_name"));
  EXPECT_TRUE(has("__d_name"));
  EXPECT_TRUE(has("d_u"));
  EXPECT_FALSE(has("d_alias"));
}

TEST(BtfFile, AFileThatIsNotBtfSaysWhatItIs) {
  expect_error(std::string(WALKSIM_SOURCE_DIR) + "/models/layout/testdata/lookalike.c", "not BTF");
  expect_error(fixture("plain.o"), "without a .BTF section");
  expect_error(fixture("does-not-exist"), "no such file");
  expect_error(fixture(""), "not a regular file");
  const config::testing::ScratchDir dir("btf-test");
  expect_error(dir.write("empty", ""), "not BTF");
  const std::string raw = bytes_of(fixture("lookalike.btf"));
  for (std::size_t cut : {std::size_t{2}, std::size_t{23}, std::size_t{100}, raw.size() / 2, raw.size() - 1}) {
    expect_error(dir.write("cut" + std::to_string(cut) + ".btf", raw.substr(0, cut)), "truncated or corrupt");
  }
  const std::string elf = bytes_of(fixture("lookalike.o"));
  expect_error(dir.write("cut.o", elf.substr(0, elf.size() / 3)), "");
}

// Each byte of the type and string sections changed in turn: libbpf 1.1 checks only the sections'
// bounds, so a member may now name a type id or a string that does not exist. The reader must
// answer (or refuse) without touching memory it should not (run under the sanitizers in CI).
TEST(BtfFile, CorruptTypeRecordsAreRefusedOrAnsweredNeverACrash) {
  const std::string raw = bytes_of(fixture("lookalike.btf"));
  ASSERT_GT(raw.size(), 64u);
  int parsed = 0;
  for (std::size_t at = 24; at < raw.size(); at += 3) {
    std::string bad = raw;
    bad[at] = static_cast<char>(bad[at] ^ 0x5a);
    try {
      const BtfFile btf = BtfFile::from_bytes(bad.data(), bad.size(), "mutated");
      ++parsed;
      for (const char* s : {"dentry", "inode", "mount", "fs_struct"}) {
        if (const auto id = btf.find_struct(s)) {
          (void)btf.struct_size(*id);
          (void)btf.member_names(*id);
          for (const char* p : {"d_lockref.count", "d_name", "mnt.mnt_root", "i_data.nrpages", "seq.lock", "in_exec"}) {
            (void)btf.member(*id, p);
          }
        }
      }
    } catch (const LayoutError&) {
    }
  }
  EXPECT_GT(parsed, 0) << "some mutations keep the file parseable, so the walk over broken records ran";
}

// Found by fuzz_btf: anonymous members that name their own struct, or fan out to one struct many
// times, once made member lookups take exponential time and memory (4 GiB before it was stopped).
TEST(BtfFile, AnonymousMembersThatLoopOrFanOutAreWalkedWithinABudget) {
  const std::string bad =
      bytes_of(std::string(WALKSIM_SOURCE_DIR) + "/models/layout/testdata/fuzz-anonymous-fan-out.btf");
  ASSERT_FALSE(bad.empty());
  const BtfFile btf = BtfFile::from_bytes(bad.data(), bad.size(), "fan-out");
  std::size_t names = 0;
  for (std::uint32_t id = 1; id < btf.type_count(); ++id) {
    names += btf.member_names(id).size();
    (void)btf.member(id, "d_lockref.count");
  }
  EXPECT_LT(names, 10'000'000u);
}

TEST(BtfFile, TheRunningKernelsBtfWhenThereIsOne) {
  if (!std::filesystem::exists("/sys/kernel/btf/vmlinux")) {
    GTEST_SKIP() << "skipped: this machine has no /sys/kernel/btf/vmlinux (a kernel without CONFIG_DEBUG_INFO_BTF, "
                    "or /sys not mounted); the fixture tests above cover the reader";
  }
  const BtfFile btf = BtfFile::open("/sys/kernel/btf/vmlinux");
  const auto id = btf.find_struct("dentry");
  ASSERT_TRUE(id);
  EXPECT_TRUE(btf.member(*id, "d_lockref") || btf.member(*id, "d_count")) << "a dentry has its reference count";
  ASSERT_TRUE(btf.banner());
  EXPECT_EQ(btf.banner()->rfind("Linux version ", 0), 0u);
}

}  // namespace
}  // namespace walksim::layout
