// A run by duration measures as a benchmark that runs for a fixed time does (the SSYNC stress tests,
// dbench): every process from the warm-up's end to the run's end, its rate the operations completed
// in that span over its length, whatever each process managed. A run by operations stops each
// process after its own count instead, and counts the window in which all of them were measuring.
#include <gtest/gtest.h>

#include <algorithm>

#include "models/workload/dbench.hpp"
#include "models/workload/test_support.hpp"
#include "models/workload/workload_registry.hpp"

namespace walksim::workload {
namespace {

constexpr Picos kWarmup = 200'000'000;  // 200 us
constexpr Picos kEnd = 4'000'000'000;   // 4 ms
constexpr double kSpanS = 3.8e-3;

// glibc's mutex on six cores of one Opteron die: a thread that loses the race after its FUTEX_WAKE
// sleeps again, and with this pause and a 300-ns critical section one of them is starved for most
// of the run (1 operation against the others' up to 788 in the model of 2026-12-05, eighth session;
// the section was 0 ns, the SSYNC test's, until every transaction waited for its grant, then 200 ns
// until requests reaching the home together were taken in CPU order rather than in host order).
constexpr const char* kUnfair =
    "lock: pthread-mutex\nthink_time: auto\nhold_time: 300ns\nprotected_lines: 1\nthink_per_other_thread: 14.29ns";

// The run as an experiment makes it: a process that measured too few operations is an error.
RunResult run_unfair(const RunControl& control) {
  auto w = testing::make(kLockLoopKind, kUnfair);
  machine::Machine m(machine::load_machine("opteron-6172-4p", testing::config_dir("machines")));
  const auto k = kernel::load_kernel("linux-2.6.35", testing::config_dir("kernels"));
  RunSpec spec;
  spec.machine = &m;
  spec.kernel = &k;
  spec.threads = 6;
  spec.control = control;
  spec.min_measured_ops = kMinMeasuredOps;
  return simulate(spec, *w);
}

RunControl by_duration() {
  RunControl c;
  c.end = kEnd;
  c.warmup_end = kWarmup;
  return c;
}

TEST(DurationRun, TheRateIsEveryOperationCompletedBetweenTheWarmUpAndTheEndOverThatSpan) {
  const RunResult r = run_unfair(by_duration());
  // Each process starts no operation after the end, so at most one per process finishes after it:
  // those are measured but outside the span.
  const double in_span = r.ops_per_s * kSpanS;
  EXPECT_LE(in_span, static_cast<double>(r.ops) + 0.5);
  EXPECT_GE(in_span, static_cast<double>(r.ops) - static_cast<double>(r.threads) - 0.5);
  EXPECT_GE(r.window_share, 0.99);
}

TEST(DurationRun, AProcessAnUnfairLockStarvesIsAResultNotAnErrorAndItsPeersStillCount) {
  const RunResult r = run_unfair(by_duration());
  std::uint64_t fewest = UINT64_MAX, most = 0;
  for (const auto& p : r.processes) {
    fewest = std::min(fewest, p.ops);
    most = std::max(most, p.ops);
  }
  // The scenario is what it says: one process far behind the others (fewer operations than a run by
  // operations would accept from it), the run's rate nonetheless resting on all of them.
  ASSERT_LT(fewest, kMinMeasuredOps);  // a run by operations would refuse this process's rate
  ASSERT_GT(most, 10 * kMinMeasuredOps) << "fewest " << fewest;
  EXPECT_GT(r.ops_per_s, 0.0);

  // Held to the same number per process on the run's total, a run too short for that is an error.
  RunControl short_run = by_duration();
  short_run.end = kWarmup + 1'000'000;  // 1 us: a handful of acquisitions
  EXPECT_THROW(run_unfair(short_run), TooFewOps);
}

// By operations, the same unfair lock leaves the processes' windows hardly overlapping: the rate
// rests on a small share of the measured operations (the `w` mark), where a run by duration counts
// them all.
TEST(DurationRun, ByOperationsTheSameUnfairRunCountsOnlyTheWindowEveryProcessWasIn) {
  RunControl c;
  c.ops_per_process = 300;
  c.warmup_ops = 60;
  const RunResult by_ops = run_unfair(c);
  EXPECT_LT(by_ops.window_share, 0.3);
  EXPECT_GE(run_unfair(by_duration()).window_share, 0.99);
}

// MB/s by duration: the bytes of the calls completed in the span, so a read or write in flight at the
// end is left out as its operation is.
TEST(DurationRun, MegabytesAreTheBytesOfTheCallsCompletedInTheSpan) {
  auto w = testing::make(kDbenchKind, "loadfile_ops: 2000");
  testing::RunArgs a;
  a.threads = 2;
  a.control = by_duration();
  const RunResult r = testing::run(a, *w);
  std::uint64_t bytes = 0, largest = 0;
  for (std::size_t i = 0; i < w->process_count(); ++i) {
    bytes += w->source(i).measured().bytes;
    for (const auto& op : *dynamic_cast<const dbench::Dbench&>(*w).loadfile(i))
      largest = std::max<std::uint64_t>(largest, op.bytes);
  }
  ASSERT_GT(bytes, 0u);
  const double in_span = r.bytes_per_s * kSpanS;
  EXPECT_GT(in_span, 0.0);
  EXPECT_LE(in_span, static_cast<double>(bytes) + 0.5);
  EXPECT_GE(in_span, static_cast<double>(bytes) - static_cast<double>(a.threads * largest) - 0.5);
}

}  // namespace
}  // namespace walksim::workload
