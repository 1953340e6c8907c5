// trace-replay: the processes of a trace file replay their calls on the declared tree, with its
// operation marks, user time, shared fs_struct and loops; every malformed line is reported with
// the file, line and column.
#include "models/workload/trace_replay.hpp"

#include <gtest/gtest.h>

#include <fstream>

#include "models/workload/test_support.hpp"

namespace walksim::workload {
namespace {

using testing::RunArgs;

const std::string kSmall = std::string(WALKSIM_SOURCE_DIR) + "/models/workload/testdata/small.trace";

RunResult replay(const std::string& params, const std::string& kernel = "linux-2.6.38", std::uint32_t threads = 3) {
  auto w = testing::make(kTraceReplayKind, params);
  RunArgs a;
  a.kernel = kernel;
  a.threads = threads;
  return testing::run(a, *w);
}

TEST(TraceReplay, TheProcessesReplayTheirCallsWithOperationMarksAndUserTime) {
  const auto r = replay("file: " + kSmall);
  EXPECT_EQ(r.calls, 4u + 2 + 3);
  EXPECT_EQ(r.ops, 2u + 2 + 1);
  EXPECT_EQ(r.failed, 0u);
  EXPECT_EQ(r.user, sim::from_ns(1000) + sim::from_ns(200));
  EXPECT_EQ(r.walk.link, 1u);  // reader1's stat through /mnt/ram/latest
  const auto twice = replay("file: " + kSmall + "\nloops: 2");
  EXPECT_EQ(twice.ops, 10u);
  EXPECT_EQ(twice.failed, 0u);  // the writer's second create finds the first one unlinked
}

TEST(TraceReplay, TheDeclaredTreeAndFsGroupsAreBuilt) {
  auto w = testing::make(kTraceReplayKind, "file: " + kSmall);
  EXPECT_EQ(trace_replay_processes(*w), std::optional<std::size_t>(3));
  testing::Built b("barcelona-2s8c", "linux-2.6.38");
  b.build(*w, 3);
  EXPECT_EQ(w->process(1).fs, w->process(2).fs);
  EXPECT_NE(w->process(0).fs, w->process(1).fs);
  const auto shared = b.vfs.child(w->process(0).cwd, "shared");
  ASSERT_TRUE(shared.has_value());
  EXPECT_EQ(w->process(1).cwd, *shared);
  const auto latest = b.vfs.child(w->process(0).cwd, "latest");
  ASSERT_TRUE(latest.has_value());
  EXPECT_TRUE(b.vfs.dentry(*latest).symlink);
  EXPECT_EQ(b.vfs.dentry(*latest).link_target, "shared/data");
}

TEST(TraceReplay, ARunWithADifferentProcessCountIsRefused) {
  EXPECT_THROW(replay("file: " + kSmall, "linux-2.6.38", 2), config::ConfigError);
}

TEST(TraceReplay, AMissingFileOrParamsIsAConfigError) {
  EXPECT_THROW(testing::make(kTraceReplayKind, ""), config::ConfigError);
  EXPECT_THROW(testing::make(kTraceReplayKind, "file: /nonexistent/x.trace"), config::ConfigError);
  EXPECT_THROW(testing::make(kTraceReplayKind, "file: " + kSmall + "\nlooops: 2"), config::ConfigError);
}

// The error for `text`, which must fail to parse.
config::ConfigError parse_error(const std::string& text) {
  try {
    parse_trace(text, "bad.trace");
  } catch (const config::ConfigError& e) {
    return e;
  }
  ADD_FAILURE() << "parsed: " << text;
  return config::ConfigError({}, "", "");
}

void expect_error(const std::string& text, int line, int column, const std::string& words) {
  const auto e = parse_error(text);
  EXPECT_EQ(e.mark().file, "bad.trace") << text;
  EXPECT_EQ(e.mark().line, line) << e.what();
  EXPECT_EQ(e.mark().column, column) << e.what();
  EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
}

TEST(TraceReplay, EveryMalformedLineIsNamedByLineAndColumn) {
  const std::string p = "process p cwd=/a\n";
  expect_error("p stat ./x\n", 1, 1, "neither a declaration");
  expect_error(p + "p  bogus ./x\n", 2, 4, "unknown syscall 'bogus'");
  expect_error(p + "p stat\n", 2, 3, "needs a path");
  expect_error(p + "p open ./x O_SHINY\n", 2, 3, "unknown open flag");
  expect_error(p + "q stat ./x\n", 2, 1, "did you mean 'p'");
  expect_error(p + "p stat ./x\ndir /b\n", 3, 1, "before the first call");
  expect_error(p + "dir b\n", 2, 5, "absolute path");
  expect_error(p + "p user 5furlongs\np stat ./x\n", 2, 8, "");
  expect_error(p + "p op\n", 2, 3, "before any call");
  expect_error(p + "process p cwd=/b\n", 2, 9, "declared twice");
  expect_error("process p\n", 1, 9, "needs cwd=PATH");
  expect_error("process p cwd=/a color=red\n", 1, 18, "unknown process option 'color'");
  expect_error(p + "p stat ./x\np user 1ns\n", 3, 3, "no call after it");
  expect_error(p + "file /a/f shiny\n", 2, 11, "unknown option 'shiny'");
  expect_error(p + "file /a/f node=x\n", 2, 11, "node=");
  expect_error(p + "file /a/f\nfile /a/f\n", 3, 6, "declared twice");
  expect_error(p + "symlink /a/l\n", 2, 1, "symlink PATH -> TARGET");
  expect_error("# nothing\n", 0, 0, "no process");
  // The message carries file:line:column for the command line to print.
  EXPECT_NE(std::string(parse_error(p + "p  bogus ./x\n").what()).find("bad.trace:2:4"), std::string::npos);
}

TEST(TraceReplay, ANodeTheMachineLacksIsReportedAtItsLine) {
  const Trace t = parse_trace("process p cwd=/a\nfile /a/f node=7\np stat ./f\n", "nodes.trace");
  testing::Built b("barcelona-2s8c", "linux-2.6.38");
  // Through the workload: written to a temporary file.
  const std::string path = ::testing::TempDir() + "nodes.trace";
  {
    std::ofstream out(path);
    out << "process p cwd=/a\nfile /a/f node=7\np stat ./f\n";
  }
  auto bad = testing::make(kTraceReplayKind, "file: " + path);
  try {
    b.build(*bad, 1);
    FAIL() << "node 7 accepted on a 2-node machine";
  } catch (const config::ConfigError& e) {
    EXPECT_EQ(e.mark().line, 2);
  }
  EXPECT_EQ(t.entries.size(), 1u);
}

}  // namespace
}  // namespace walksim::workload
