// Tests for the strict YAML reader: key paths and marks in errors, unread keys rejected with a
// suggestion, typed getters, sourced numbers, layered `extends:` merging, and file loading.
#include "models/config/strict_yaml.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "models/config/test_support.hpp"

namespace walksim::config {
namespace {

enum class Color { kRed, kGreen };

using testing::config_error;
using testing::contains;

TEST(StrictYaml, ChildrenCarryTheirKeyPath) {
  const Node root = load_string("caches:\n  - name: L1\n    latency: 3ns\n", "t.yaml");
  const Node latency = root.child("caches").at(0).child("latency");
  EXPECT_EQ(latency.path(), "caches[0].latency");
  EXPECT_EQ(latency.as_time(), 3000);
  EXPECT_EQ(latency.mark().line, 3);
  EXPECT_EQ(latency.mark().column, 14);
  EXPECT_EQ(latency.mark().file, "t.yaml");
}

TEST(StrictYaml, AMissingRequiredKeyIsNamedWithItsPath) {
  const Node root = load_string("layout:\n  nodes: 2\n", "t.yaml");
  const ConfigError e = config_error([&] { root.child("layout").child("cores"); });
  EXPECT_EQ(e.key_path(), "layout.cores");
  EXPECT_EQ(e.mark().line, 1);
  EXPECT_TRUE(contains(e.message(), "missing required key 'cores'"));
}

TEST(StrictYaml, AnUnreadKeyIsAnErrorWithASuggestionAndTheValidKeys) {
  const Node root = load_string("layout:\n  nodes: 2\n  cors: 4\n", "t.yaml");
  const Node layout = root.child("layout");
  layout.child("nodes").as_uint();
  EXPECT_FALSE(layout.optional("cores").has_value());
  const ConfigError e = config_error([&] { root.finish(); });
  EXPECT_EQ(e.mark().line, 3);
  EXPECT_EQ(e.mark().column, 3);
  EXPECT_EQ(e.key_path(), "layout.cors");
  EXPECT_TRUE(contains(e.message(), "did you mean 'cores'?")) << e.what();
  EXPECT_TRUE(contains(e.message(), "valid keys here: 'nodes', 'cores'")) << e.what();
}

TEST(StrictYaml, FinishPassesWhenEveryKeyWasRead) {
  const Node root = load_string("a: 1\nb: {c: 2}\n", "t.yaml");
  root.child("a").as_uint();
  root.child("b").child("c").as_uint();
  EXPECT_NO_THROW(root.finish());
}

TEST(StrictYaml, ADuplicateKeyIsAnErrorNamingBothLinesBeforeAnythingIsRead) {
  const ConfigError e = config_error([&] { load_string("a: 1\nb: 0\na: 2\n", "t.yaml"); });
  EXPECT_TRUE(contains(e.message(), "duplicate key 'a': it is also written at line 1, column 1")) << e.what();
  EXPECT_EQ(e.mark().line, 3);
  // Deep inside a list of mappings, in a flow mapping, and in a part no loader reads.
  const ConfigError deep = config_error([&] { load_string("x:\n  - {p: 1, q: 2, p: 3}\n", "t.yaml"); });
  EXPECT_EQ(deep.key_path(), "x[0].p") << deep.what();
  EXPECT_TRUE(contains(deep.message(), "also written at line 2, column 6")) << deep.what();
  EXPECT_NO_THROW(load_string("a: {k: 1}\nb: {k: 1}\n", "t.yaml"));  // the same key in two mappings is fine
}

TEST(StrictYaml, TypedGettersRejectTheWrongType) {
  const Node root = load_string("n: two\nm: {x: 1}\nb: yes\nf: 2.5\n", "t.yaml");
  EXPECT_TRUE(contains(config_error([&] { root.child("n").as_uint(); }).message(), "whole number"));
  EXPECT_TRUE(contains(config_error([&] { root.child("m").as_string(); }).message(), "got a mapping"));
  EXPECT_TRUE(contains(config_error([&] { root.child("b").as_bool(); }).message(), "true or false"));
  EXPECT_DOUBLE_EQ(root.child("f").as_double(), 2.5);
}

TEST(StrictYaml, EnumsListTheValidValues) {
  const Node root = load_string("c: gren\nd: red\n", "t.yaml");
  const std::vector<std::pair<std::string, Color>> table{{"red", Color::kRed}, {"green", Color::kGreen}};
  EXPECT_EQ(root.child("d").as_enum(table), Color::kRed);
  const ConfigError e = config_error([&] { root.child("c").as_enum(table); });
  EXPECT_EQ(e.key_path(), "c");
  EXPECT_TRUE(contains(e.message(), "did you mean 'green'?")) << e.what();
  EXPECT_TRUE(contains(e.message(), "valid values: 'red', 'green'")) << e.what();
}

TEST(StrictYaml, UnitErrorsBecomeConfigErrorsAtTheValue) {
  const Node root = load_string("size: 64KB\n", "t.yaml");
  const ConfigError e = config_error([&] { root.child("size").as_size(); });
  EXPECT_EQ(e.key_path(), "size");
  EXPECT_EQ(e.mark().line, 1);
  EXPECT_EQ(e.mark().column, 7);
  EXPECT_TRUE(contains(e.message(), "'KiB'")) << e.what();
}

TEST(StrictYaml, ASourcedNumberRecordsItsSourceUnderItsKeyPath) {
  const Node root = load_string("mem:\n  dram: {value: 60ns, source: \"V4 (V)\"}\n", "t.yaml");
  SourceMap sources;
  EXPECT_EQ(root.child("mem").sourced("dram", sources).as_time(), 60'000);
  EXPECT_EQ(sources.at("mem.dram"), "V4 (V)");
  EXPECT_NO_THROW(root.finish());
}

TEST(StrictYaml, ASourcedNumberWithoutASourceIsAnErrorNamingTheKey) {
  const Node root = load_string("clock: {value: 2.3GHz}\n", "t.yaml");
  SourceMap sources;
  const ConfigError e = config_error([&] { root.sourced("clock", sources); });
  EXPECT_EQ(e.key_path(), "clock");
  EXPECT_TRUE(contains(e.message(), "missing 'source' for 'clock'")) << e.what();
}

TEST(StrictYaml, ABareNumberWhereASourcedOneIsExpectedIsAnError) {
  const Node root = load_string("clock: 2.3GHz\n", "t.yaml");
  SourceMap sources;
  const ConfigError e = config_error([&] { root.sourced("clock", sources); });
  EXPECT_TRUE(contains(e.message(), "every number needs a source")) << e.what();
}

TEST(StrictYaml, AnEmptySourceOrAnExtraKeyInASourcedNumberIsAnError) {
  SourceMap sources;
  const Node empty = load_string("x: {value: 1, source: \"  \"}\n", "t.yaml");
  EXPECT_TRUE(contains(config_error([&] { empty.sourced("x", sources); }).message(), "empty source"));
  const Node extra = load_string("x: {value: 1, source: a, unit: ns}\n", "t.yaml");
  const ConfigError e = config_error([&] { extra.sourced("x", sources); });
  EXPECT_EQ(e.key_path(), "x.unit");
}

TEST(StrictYaml, LayeredMappingsMergeDeeplyAndLetTheChildWin) {
  const Node child = load_string("a: {x: 1}\nlist: [3]\n", "child.yaml");
  const Node parent = load_string("a: {x: 9, y: 2}\nlist: [1, 2]\nz: 5\n", "parent.yaml");
  const Node merged = Node::layered({child, parent});
  EXPECT_EQ(merged.child("a").child("x").as_uint(), 1u);
  EXPECT_EQ(merged.child("a").child("y").as_uint(), 2u);
  EXPECT_EQ(merged.child("a").child("y").mark().file, "parent.yaml");
  EXPECT_EQ(merged.child("list").size(), 1u);
  EXPECT_EQ(merged.child("z").as_uint(), 5u);
  EXPECT_NO_THROW(merged.finish());
}

TEST(StrictYaml, ALayeredSourcedNumberKeepsValueAndSourceTogether) {
  SourceMap sources;
  const Node parent = load_string("x: {value: 1ns, source: parent}\n", "parent.yaml");
  const Node new_value = Node::layered({load_string("x: {value: 2ns}\n", "child.yaml"), parent});
  const ConfigError e = config_error([&] { new_value.sourced("x", sources); });
  EXPECT_TRUE(contains(e.message(), "needs its own source")) << e.what();
  EXPECT_EQ(e.mark().file, "child.yaml");
  const Node new_source = Node::layered({load_string("x: {source: child}\n", "child.yaml"), parent});
  EXPECT_TRUE(contains(config_error([&] { new_source.sourced("x", sources); }).message(), "needs its own value"));
  const Node both = Node::layered({load_string("x: {value: 2ns, source: child}\n", "child.yaml"), parent});
  EXPECT_EQ(both.sourced("x", sources).as_time(), 2000);
  EXPECT_EQ(sources.at("x"), "child");
}

TEST(StrictYaml, AnUnknownKeyInAParentLayerIsReportedInTheParentFile) {
  const Node child = load_string("a: 1\n", "child.yaml");
  const Node parent = load_string("a: 2\nb: 3\n", "parent.yaml");
  const Node merged = Node::layered({child, parent});
  merged.child("a").as_uint();
  const ConfigError e = config_error([&] { merged.finish(); });
  EXPECT_EQ(e.mark().file, "parent.yaml");
  EXPECT_EQ(e.mark().line, 2);
  EXPECT_EQ(e.key_path(), "b");
}

TEST(StrictYaml, ASyntaxErrorCarriesTheLineAndColumn) {
  const ConfigError e = config_error([] { load_string("a: 1\nb: [1, 2\nc: 3\n", "bad.yaml"); });
  EXPECT_EQ(e.mark().file, "bad.yaml");
  EXPECT_GT(e.mark().line, 1);
  EXPECT_TRUE(contains(e.message(), "YAML syntax error")) << e.what();
}

TEST(StrictYaml, AMissingFileIsAClearError) {
  const ConfigError e = config_error([] { load_file("/nonexistent/walksim.yaml"); });
  EXPECT_EQ(e.mark().file, "/nonexistent/walksim.yaml");
  EXPECT_TRUE(contains(e.message(), "file not found")) << e.what();
}

TEST(StrictYaml, ExtendsChainsAreFollowedAndCyclesNamed) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("walksim_strict_yaml_test_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const auto write = [&](const std::string& name, const std::string& text) {
    std::ofstream(dir / (name + ".yaml")) << text;
  };
  write("base", "v: 1\nw: 2\n");
  write("mid", "extends: base\nv: 3\n");
  write("loop-a", "extends: loop-b\n");
  write("loop-b", "x: 1\nextends: loop-a\n");
  const ExtendsResolver resolve = [&](const std::string& name, const Node&) {
    return (dir / (name + ".yaml")).string();
  };
  const Node mid = load_with_extends((dir / "mid.yaml").string(), resolve);
  EXPECT_EQ(mid.child("v").as_uint(), 3u);
  EXPECT_EQ(mid.child("w").as_uint(), 2u);
  EXPECT_NO_THROW(mid.finish());

  const ConfigError e = config_error([&] { load_with_extends((dir / "loop-a.yaml").string(), resolve); });
  EXPECT_TRUE(contains(e.message(), "cyclic extends: loop-a -> loop-b -> loop-a")) << e.what();
  EXPECT_EQ(e.mark().line, 2);
  EXPECT_EQ(e.key_path(), "extends");
  fs::remove_all(dir);
}

TEST(StrictYaml, DidYouMeanFindsTyposButNotStrangers) {
  EXPECT_EQ(did_you_mean("nodse", {"nodes", "ways"}), " (did you mean 'nodes'?)");
  EXPECT_EQ(did_you_mean("barcelona", {"barcelona-2s8c", "altix-32n64c"}), " (did you mean 'barcelona-2s8c'?)");
  EXPECT_EQ(did_you_mean("zzzzzz", {"nodes", "ways"}), "");
  EXPECT_EQ(edit_distance("kitten", "sitting"), 3u);
}

}  // namespace
}  // namespace walksim::config

namespace walksim::config {
namespace {

using testing::config_error;
using testing::contains;

const char* kBase =
    "clock: {value: 2GHz, source: cited}\n"
    "memory:\n  dram_access: {value: 60ns, source: cited}\n  note: plain\n"
    "caches:\n  - {name: L1, latency: {value: 4cycles, source: cited}}\n  - {name: L2, latency: {value: 10cycles, "
    "source: cited}}\n"
    "costs:\n  component: {cycles: 45, source: estimate}\n";

TEST(Override, ASourcedValueIsReplacedWithItsNewSourceAndTheRestKept) {
  const Node exp = load_string("v: 30ns\n", "exp.yaml");
  const Node probe = load_string(kBase, "m.yaml");
  const Node o = probe.override_at("memory.dram_access", exp.child("v"), 1, "what-if", exp.child("v"));
  SourceMap sources;
  const Node merged = Node::layered({o, load_string(kBase, "m.yaml")});
  EXPECT_EQ(merged.child("memory").sourced("dram_access", sources).as_string(), "30ns");
  EXPECT_EQ(sources.at("memory.dram_access"), "what-if");
  EXPECT_EQ(merged.child("memory").child("note").as_string(), "plain");
  EXPECT_EQ(merged.sourced("clock", sources).as_string(), "2GHz");
}

TEST(Override, AListElementAndACyclesCostAndAScaleAreOverridden) {
  const Node exp = load_string("at: x\nn: 60\n", "exp.yaml");
  const Node probe = load_string(kBase, "m.yaml");
  const Node o1 = probe.override_at("caches[1].latency", std::nullopt, 0.5, "what-if x0.5", exp.child("at"));
  const Node o2 =
      load_string(kBase, "m.yaml").override_at("costs.component", exp.child("n"), 1, "what-if", exp.child("n"));
  SourceMap sources;
  const Node merged = Node::layered({o1, o2, load_string(kBase, "m.yaml")});
  const Node caches = merged.child("caches");
  ASSERT_EQ(caches.size(), 2u);
  EXPECT_EQ(caches.at(0).sourced("latency", sources).as_string(), "4cycles");
  EXPECT_EQ(caches.at(1).sourced("latency", sources).as_string(), "5cycles");
  EXPECT_EQ(merged.child("costs").child("component").child("cycles").as_uint(), 60u);
}

TEST(Override, AMissingKeyIsNamedAtTheVaryKeyWithASuggestion) {
  const Node exp = load_string("\n\nkey: 1\n", "exp.yaml");
  const ConfigError e = config_error([&] {
    load_string(kBase, "m.yaml").override_at("memory.dram_acess", exp.child("key"), 1, "w", exp.child("key"));
  });
  EXPECT_TRUE(contains(e.message(), "has no key 'dram_acess' (did you mean 'dram_access'?)")) << e.what();
  EXPECT_EQ(e.mark().file, "exp.yaml");
  EXPECT_EQ(e.mark().line, 3);
  const ConfigError idx = config_error([&] {
    load_string(kBase, "m.yaml").override_at("caches[5].latency", exp.child("key"), 1, "w", exp.child("key"));
  });
  EXPECT_TRUE(contains(idx.message(), "has 2 entries")) << idx.what();
}

TEST(Override, ScalingAWordIsAnErrorAtTheVaryValue) {
  const Node exp = load_string("\nscale: 0.5\n", "exp.yaml");
  const ConfigError e = config_error(
      [&] { load_string(kBase, "m.yaml").override_at("memory.note", std::nullopt, 0.5, "w", exp.child("scale")); });
  EXPECT_TRUE(contains(e.message(), "scale applies to a number")) << e.what();
  EXPECT_EQ(e.mark().line, 2);
}

}  // namespace
}  // namespace walksim::config
