// trace-replay: the processes of a trace file replay their calls on the declared tree, with its
// operation marks, user time, shared fs_struct and loops; every malformed line is reported with
// the file, line and column.
#include "models/workload/trace_replay.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include "models/config/test_support.hpp"
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

// The trace files this test program writes, in a directory of its own removed when it exits.
const config::testing::ScratchDir& scratch() {
  static const config::testing::ScratchDir dir("trace-test");
  return dir;
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
  EXPECT_NE(w->check_run(2, 2, 8), "");  // the trace declares three processes
  EXPECT_EQ(w->check_run(3, 2, 8), "");
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
  const std::string path = scratch().file("nodes.trace");
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

// Writes `text` to a file in the test's temporary directory and returns its path.
std::string write_trace(const std::string& name, const std::string& text) { return scratch().write(name, text); }

std::string load_message(const std::string& path) {
  try {
    load_trace(path);
  } catch (const config::ConfigError& e) {
    EXPECT_EQ(e.mark().file, path);
    return e.message();
  }
  return "loaded";
}

TEST(TraceFile, OnlyARegularFileIsRead) {
  const std::string fifo = scratch().file("trace.fifo");
  std::filesystem::remove(fifo);
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  // Opening the FIFO would block until a writer comes: the check must come first.
  EXPECT_EQ(load_message(fifo), "not a regular file (a FIFO): give the path of a trace file");
  EXPECT_EQ(load_message("/dev/zero"), "not a regular file (a device): give the path of a trace file");
  EXPECT_EQ(load_message(scratch().path().string()), "not a regular file (a directory): give the path of a trace file");
  EXPECT_EQ(load_message("/nonexistent/x.trace"), "trace file not found");
  // A symlink is followed: to a trace, it loads.
  const std::string link = scratch().file("small-link.trace");
  std::filesystem::remove(link);
  std::filesystem::create_symlink(kSmall, link);
  EXPECT_EQ(load_message(link), "loaded");
  std::filesystem::remove(fifo);
  std::filesystem::remove(link);
}

TEST(TraceFile, AFileOverTheSizeLimitIsRefusedBeforeItIsRead) {
  const std::string big = write_trace("big.trace", "process p cwd=/a\n");
  std::filesystem::resize_file(big, kMaxTraceBytes + 1);  // sparse: nothing is written
  EXPECT_EQ(load_message(big),
            "the trace file is 67108865 bytes, over the limit of 67108864 (64 MiB); shorten it "
            "('loops' replays a trace several times)");
  std::filesystem::remove(big);
}

RunResult replay_text(const std::string& name, const std::string& text, std::uint32_t threads = 1) {
  return replay("file: " + write_trace(name, text), "linux-2.6.38", threads);
}

TEST(TraceReplay, ASymlinkLoopIsAFailedCallNotAnAbortedRun) {
  for (const char* kernel : {"linux-2.6.35", "linux-2.6.38"}) {
    auto w = testing::make(kTraceReplayKind,
                           "file: " + write_trace("loop.trace",
                                                  "process a cwd=/mnt/ram\n"
                                                  "symlink /mnt/ram/l1 -> /mnt/ram/l2\n"
                                                  "symlink /mnt/ram/l2 -> /mnt/ram/l1\n"
                                                  "symlink /mnt/ram/self -> self\n"
                                                  "a stat ./l1\na stat ./self\na open ./l1/x O_WRONLY|O_CREAT\n"
                                                  "a stat /mnt/ram\n"));
    RunArgs args;
    args.kernel = kernel;
    const auto r = testing::run(args, *w);
    EXPECT_EQ(r.calls, 4u) << kernel;
    EXPECT_EQ(r.failed, 3u) << kernel;  // ELOOP, counted like ENOENT
  }
}

TEST(TraceReplay, RenamingADirectoryIntoItsOwnSubdirectoryFailsAndKeepsTheTree) {
  const auto r = replay_text("rename.trace",
                             "process a cwd=/mnt\ndir /mnt/a/b\n"
                             "a rename /mnt/a /mnt/a/b/c\na stat /mnt/a\na stat /mnt/a/b\n");
  EXPECT_EQ(r.calls, 3u);
  EXPECT_EQ(r.failed, 1u);  // the rename (EINVAL); both stats find their directory
}

TEST(TraceReplay, ANegativeByteCountIsAnErrorAtItsLine) {
  const std::string p = "process p cwd=/a\nfile /a/f\np open ./f O_RDWR\n";
  expect_error(p + "p write ./f -5\n", 4, 3, "byte count '-5' is not a whole number of bytes");
  expect_error(p + "p read ./f 99999999999999999999\n", 4, 3, "too large: one read or write moves at most");
}

TEST(TraceReplay, TheTreeIsCheckedWhenTheTraceIsRead) {
  const std::string p = "process p cwd=/a\n";
  expect_error(p + "file /a/f\nfile /a/f/g\n", 3, 6,
               "'/a/f' is declared as a file on line 2, so '/a/f/g' cannot be below it");
  expect_error(p + "symlink /a/l -> x\ndir /a/l/d\n", 3, 5, "'/a/l' is declared as a symlink on line 2");
  expect_error(p + "file /a/b/f\nfile /a/b\n", 3, 6,
               "'/a/b' is already made as a directory (the parent of line 2), so it cannot be a file");
  expect_error(p + "file /a/b/f\ndir /a/b shared\n", 3, 5, "declare it, with its options, before the entries below it");
  expect_error(p + "dir / node=0\n", 2, 5, "'/' always exists");
  expect_error(p + "dir /a//b\ndir /a/b/\n", 3, 5, "'/a/b' is declared twice (first on line 2)");
  expect_error(p + "file /a/f/\n", 2, 6, "a file path names the file, so it cannot end with '/'");
  expect_error(p + "file /\n", 2, 6, "cannot end with '/'");
  expect_error(p + "dir /a/../b\n", 2, 5, "a declared path '/a/../b' has a '..' component");
  expect_error("process p cwd=/a/./b\n", 1, 15, "cwd '/a/./b' has a '.' component");
  expect_error("process p cwd=/a/f/x\nfile /a/f\n", 1, 15,
               "cwd '/a/f/x' of 'p' is not a directory: '/a/f' is declared as a file on line 2");
  expect_error(p + "file /a/f node=-1\n", 2, 11, "node= takes a node number");
  // A directory made for an entry below it, declared again without options, is fine.
  EXPECT_NO_THROW(parse_trace(p + "file /a/b/f\ndir /a/b acl\np stat ./b/f\n", "ok.trace"));
}

TEST(TraceReplay, CheckRunReportsTheProcessCountAndNodesBeforeAnyBuild) {
  auto w = testing::make(kTraceReplayKind, "file: " + kSmall);  // 3 processes; node=0 and node=1
  EXPECT_EQ(w->check_run(3, 2, 16), "");
  EXPECT_EQ(w->check_run(2, 2, 16),
            "the trace '" + kSmall + "' declares 3 processes, one per CPU, so the run needs threads = 3 (not 2)");
  try {
    w->check_run(3, 1, 16);  // the trace's node=1 on a 1-node machine
    FAIL() << "node=1 accepted on a 1-node machine";
  } catch (const config::ConfigError& e) {
    EXPECT_EQ(e.mark().file, kSmall);
    EXPECT_EQ(e.mark().line, 10);
    EXPECT_EQ(e.mark().column, 20);  // the node= option
    EXPECT_EQ(e.message(), "node=1 but the machine has 1 node (node=0)");
  }
  try {
    w->check_run(2, 2, 2);  // 3 processes, 2 CPUs: no thread count fits
    FAIL() << "3 processes accepted on 2 CPUs";
  } catch (const config::ConfigError& e) {
    EXPECT_EQ(e.mark().line, 6);  // the third process
    EXPECT_EQ(e.message(),
              "the trace declares 3 processes but the machine has 2 CPUs, and trace-replay runs each "
              "process on a CPU of its own; declare at most 2 processes or use a machine with 3 CPUs");
  }
  // Other workloads have nothing to check.
  EXPECT_EQ(testing::make(kStatLoopKind, "")->check_run(5, 1, 8), "");
}

TEST(TraceReplay, SeventeenProcessesOnASixteenCpuMachineAskForCpusNotThreads) {
  std::string text;
  for (int i = 0; i < 17; ++i) text += "process p" + std::to_string(i) + " cwd=/a\n";
  auto w = testing::make(kTraceReplayKind, "file: " + write_trace("seventeen.trace", text));
  testing::Built b("nehalem-ep-2s8c", "linux-2.6.38");  // 16 CPUs
  try {
    b.build(*w, 16);
    FAIL() << "17 processes built on 16 CPUs";
  } catch (const config::ConfigError& e) {
    EXPECT_EQ(e.mark().line, 17);
    EXPECT_NE(e.message().find("the machine has 16 CPUs"), std::string::npos) << e.what();
    EXPECT_EQ(e.message().find("threads = 17"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace walksim::workload
