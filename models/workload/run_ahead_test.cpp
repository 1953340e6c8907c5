// Run-ahead on whole workloads. Within the machine's exact window (the default) a run is the
// stepped run, figure for figure, in fewer events. A longer window is an approximation, so those
// tests check what it promises rather than equality with the exact run: the same work done, far
// fewer events, results near the exact ones where threads share little, the coherence invariants
// and every lock's mutual exclusion kept where they share a lot, and runs that stay deterministic.
#include <gtest/gtest.h>

#include <cmath>

#include "models/workload/test_support.hpp"
#include "models/workload/workload_registry.hpp"

namespace walksim::workload {
namespace {

using testing::RunArgs;
constexpr sim::Picos kOff = exec::Executor::kRunAheadOff;
constexpr sim::Picos kExact = exec::Executor::kRunAheadExact;

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
  const RunResult exact = stat_loop(kOff);
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
  const RunResult exact = dbench(kOff, false);
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

// Within the machine's exact window a run is the stepped one: every figure, every process's times
// and every hot line's transfers, in fewer events where threads have work of their own.
void expect_same_run(const RunResult& stepped, const RunResult& ahead) {
  EXPECT_EQ(ahead.wall, stepped.wall);
  EXPECT_EQ(ahead.ns_per_op, stepped.ns_per_op);
  EXPECT_EQ(ahead.call_ns_per_op, stepped.call_ns_per_op);
  EXPECT_EQ(ahead.ops_per_s, stepped.ops_per_s);
  EXPECT_EQ(ahead.mem_ops, stepped.mem_ops);
  EXPECT_EQ(ahead.calls, stepped.calls);
  EXPECT_EQ(ahead.spin, stepped.spin);
  EXPECT_EQ(ahead.memory_stall, stepped.memory_stall);
  ASSERT_EQ(ahead.processes.size(), stepped.processes.size());
  for (std::size_t i = 0; i < stepped.processes.size(); ++i) {
    EXPECT_EQ(ahead.processes[i].wall, stepped.processes[i].wall) << "process " << i;
    EXPECT_EQ(ahead.processes[i].cpu_time, stepped.processes[i].cpu_time) << "process " << i;
  }
  ASSERT_EQ(ahead.hot.size(), stepped.hot.size());
  for (std::size_t i = 0; i < stepped.hot.size(); ++i) {
    EXPECT_EQ(ahead.hot[i].object, stepped.hot[i].object);
    EXPECT_EQ(ahead.hot[i].transfers, stepped.hot[i].transfers) << stepped.hot[i].object;
  }
  EXPECT_LE(ahead.events, stepped.events);
}

TEST(ExactRunAhead, AnRcuWalkStatLoopIsTheSteppedRunInFewerEvents) {
  const RunResult stepped = stat_loop(kOff);
  const RunResult ahead = stat_loop(kExact);
  expect_same_run(stepped, ahead);
  EXPECT_LT(static_cast<double>(ahead.events), 0.9 * static_cast<double>(stepped.events));
}

TEST(ExactRunAhead, AContendedRefWalkDbenchIsTheSteppedRun) {
  expect_same_run(dbench(kOff, false), dbench(kExact, false));
}

// A workload of `kind` with `params`, on `a`'s machine, kernel, threads and run, stepped and run
// ahead within the exact window: the same run.
void expect_exact(const WorkloadKind& kind, const std::string& params, RunArgs a) {
  auto stepped = testing::make(kind, params);
  a.run_ahead = kOff;
  const RunResult s = testing::run(a, *stepped);
  auto ahead = testing::make(kind, params);
  a.run_ahead = kExact;
  expect_same_run(s, testing::run(a, *ahead));
}

RunArgs args(const std::string& machine, const std::string& kernel, std::uint32_t threads, std::uint64_t ops,
             std::uint64_t warmup) {
  RunArgs a;
  a.machine = machine;
  a.kernel = kernel;
  a.threads = threads;
  a.control.ops_per_process = ops;
  a.control.warmup_ops = warmup;
  return a;
}

// 512 MCS locks picked at random (SSYNC Fig. 7): the locks' per-CPU node lines are made at each
// lock's first acquisition, so their line ids (and cache sets) follow the order threads first
// reach a lock. With events of one time run in the order they were scheduled, a thread that ran
// ahead reached a lock at the same picosecond as another in the other order, and this figure moved.
TEST(ExactRunAhead, ManyMcsLocksMadeOnFirstUseAreTheSteppedRun) {
  expect_exact(kLockLoopKind,
               "{lock: mcs, locks_per_line: 2, think_time: auto, hold_time: 0ns, protected_lines: 1, locks: 512}",
               args("opteron-6172-4p", "linux-2.6.35", 12, 1500, 500));
}

// 32 processes opening files on one mount with 2.6.20's byte locks (lock decb and spin): the
// locked operations of many CPUs reach the lock's line at the same picosecond.
TEST(ExactRunAhead, ThirtyTwoProcessesOnOneByteLockAreTheSteppedRun) {
  expect_exact(kOpenbenchKind, "", args("x86-32way-2007", "linux-2.6.20", 32, 20, 5));
}

// The Altix's cores are each a domain of their own, so its exact window is a request leg to a home
// (miss_departure + domain_link, 20 ns), four times the lookup alone: 2.6.35's dbench on it, where
// every client takes refcounts and locks on lines the others hold, is still the stepped run.
TEST(ExactRunAhead, AContendedRefWalkDbenchOnOneCoreDomainsIsTheSteppedRun) {
  expect_exact(kDbenchKind, "loadfile_ops: 1000", args("altix-32n64c", "linux-2.6.35", 16, 100, 10));
}

// A kbuild mix on Nehalem-EP: the kernel's prefetches of lines its L3 holds put the data in flight
// for the core, and a hit on it waits until it arrives unless another core's transaction on the
// line took its timing over first (MemorySystem::private_hit). A thread that ran ahead of that
// transaction waited where the stepped run did not.
TEST(ExactRunAhead, HitsOnDataStillInFlightAreTheSteppedRun) {
  expect_exact(kKbuildKind, "", args("nehalem-ep-2s8c", "linux-2.6.38", 8, 30, 5));
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
  const RunResult exact = run(kOff);
  const RunResult ahead = run(sim::from_ns(50));
  ASSERT_EQ(exact.smt_cores, 8u);
  EXPECT_EQ(ahead.events, exact.events);
  EXPECT_EQ(ahead.wall, exact.wall);
}

}  // namespace
}  // namespace walksim::workload
