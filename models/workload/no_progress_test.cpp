// A run whose processes stop completing calls while the simulation goes on (a livelock, as a what-if
// home occupancy once caused: home_occupancy_test.cpp) ends with NoProgress, naming the hottest
// line, instead of running for ever; a run whose processes only wait a long time does not.
#include <gtest/gtest.h>

#include "models/workload/test_support.hpp"
#include "models/workload/workload_registry.hpp"

namespace walksim::workload {
namespace {

// Threads take a lock held for 1 s per acquisition (the longest a lock-loop may hold it): no call
// completes in the first second of simulated time. Two TAS waiters take the lock's line from each
// other with every xchg all the while (a transaction every few tens of ns); a ticket lock's
// waiters park (a handful of operations in the whole run).
RunResult hold_for_a_second(const std::string& lock, std::uint32_t threads, sim::Picos limit, std::uint64_t ops) {
  auto w = testing::make(kLockLoopKind, "lock: " + lock + "\nthink_time: 0ns\nhold_time: 1s");
  testing::RunArgs a;
  a.machine = "opteron-6172-4p";
  a.threads = threads;
  a.control.ops_per_process = 3;
  a.no_progress_limit = limit;
  a.no_progress_ops = ops;
  return testing::run(a, *w);
}

TEST(NoProgress, ARunThatKeepsRunningEventsWithNoCallCompletedEndsWithAnErrorNamingTheHottestLine) {
  try {
    hold_for_a_second("tas", 3, sim::from_ns(1'000'000), 10'000);  // 1 ms, 10,000 operations
    FAIL() << "the run ended normally";
  } catch (const NoProgress& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("no process completed a system call from 0.000 s to 0.00"), std::string::npos) << what;
    EXPECT_NE(what.find("hottest line: lock-loop lock 0"), std::string::npos) << what;
  }
}

TEST(NoProgress, ARunWhoseProcessesOnlyWaitLongerThanTheLimitRunsToItsEnd) {
  const RunResult r = hold_for_a_second("ticket", 2, sim::from_ns(300'000'000), 10'000);  // 300 ms
  EXPECT_EQ(r.ops, 6u);
  EXPECT_GE(r.wall, sim::from_ns(6'000'000'000));  // six 1 s holds, one after another
}

}  // namespace
}  // namespace walksim::workload
