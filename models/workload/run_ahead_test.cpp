// The opt-in run-ahead on whole workloads: it is an approximation, so these tests check what it
// promises rather than equality with the exact run: the same work done, far fewer events, results
// near the exact ones where threads share little, the coherence invariants and every lock's
// mutual exclusion kept where they share a lot, and runs that stay deterministic.
#include <gtest/gtest.h>

#include <cmath>

#include "models/workload/test_support.hpp"
#include "models/workload/workload_registry.hpp"

namespace walksim::workload {
namespace {

using testing::RunArgs;

RunResult stat_loop(sim::Picos run_ahead) {
  auto w = testing::make(kStatLoopKind, "path_components: 4");
  RunArgs a;
  a.machine = "altix-32n64c";
  a.kernel = "linux-2.6.38";
  a.threads = 16;
  a.control.ops_per_process = 200;
  a.control.warmup_ops = 20;
  a.run_ahead = run_ahead;
  return testing::run(a, *w);
}

// rcu-walk's stats share only read lines: each thread's walk is hits in its own caches, so running
// ahead over them changes almost nothing but the number of events.
TEST(RunAhead, AnRcuWalkStatLoopDoesTheSameWorkInFarFewerEventsAndNearlyTheSameTime) {
  const RunResult exact = stat_loop(0);
  const RunResult ahead = stat_loop(sim::from_ns(50));
  EXPECT_EQ(ahead.mem_ops, exact.mem_ops);
  EXPECT_EQ(ahead.ops, exact.ops);
  EXPECT_LT(static_cast<double>(ahead.events), 0.6 * static_cast<double>(exact.events))
      << exact.events << " events exact, " << ahead.events << " with run-ahead";
  EXPECT_NEAR(ahead.ns_per_op, exact.ns_per_op, 0.01 * exact.ns_per_op);
}

RunResult dbench(sim::Picos run_ahead, bool check) {
  auto w = testing::make(kDbenchKind, "loadfile_ops: 1000");
  RunArgs a;
  a.machine = "nehalem-ep-2s8c";
  a.kernel = "linux-2.6.35";
  a.threads = 8;
  a.control.ops_per_process = 150;
  a.check = check;
  a.run_ahead = run_ahead;
  return testing::run(a, *w);
}

// 2.6.35's dbench takes dcache_lock, d_locks, i_mutexes and refcounts on shared lines all the time:
// the run-ahead must leave every lock step and every access to a line another core holds in
// global time order. With the invariants checked after every access, a run that let a lock step or a
// foreign line's access run ahead would end in a violated invariant, a lost wake-up or a call
// holding a lock (each a thrown error).
TEST(RunAhead, AContendedRefWalkDbenchKeepsTheInvariantsAndDoesEveryCall) {
  const RunResult exact = dbench(0, false);
  RunResult ahead;
  ASSERT_NO_THROW(ahead = dbench(sim::from_ns(100), true));
  EXPECT_EQ(ahead.ops, exact.ops);
  EXPECT_EQ(ahead.calls, exact.calls);
  EXPECT_EQ(ahead.failed, exact.failed);
  EXPECT_LT(ahead.events, exact.events);
  // The same run twice: the approximation is deterministic.
  const RunResult again = dbench(sim::from_ns(100), false);
  EXPECT_EQ(again.wall, ahead.wall);
  EXPECT_EQ(again.events, ahead.events);
  EXPECT_EQ(again.mem_ops, ahead.mem_ops);
}

// A core whose SMT sibling also runs a process shares its caches: no run-ahead there, so a run of
// one process per hardware thread on an SMT machine is the exact run.
TEST(RunAhead, ThreadsSharingACoreDoNotRunAhead) {
  auto run = [](sim::Picos run_ahead) {
    auto w = testing::make(kStatLoopKind, "");
    RunArgs a;
    a.machine = "nehalem-ep-2s8c";
    a.kernel = "linux-2.6.38";
    a.threads = 16;  // 8 cores, two threads each
    a.control.ops_per_process = 100;
    a.run_ahead = run_ahead;
    return testing::run(a, *w);
  };
  const RunResult exact = run(0);
  const RunResult ahead = run(sim::from_ns(50));
  ASSERT_EQ(exact.smt_cores, 8u);
  EXPECT_EQ(ahead.events, exact.events);
  EXPECT_EQ(ahead.wall, exact.wall);
}

}  // namespace
}  // namespace walksim::workload
