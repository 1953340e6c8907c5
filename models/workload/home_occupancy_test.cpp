// coherence.home_occupancy (a what-if: a node's home agent serves one transaction at a time) under
// a line that keeps the agent busy: a request waiting on another line of that home is still served
// in its turn. Until 2026-12-07 a waiting request looked for a free slot of the agent again each
// time it was asked, and a test-and-set lock's spinners, whose exchanges booked the agent more
// often than one occupancy apart, starved the holder's accesses for ever (no acquisition completed).
#include <gtest/gtest.h>

#include <algorithm>

#include "models/workload/test_support.hpp"
#include "models/workload/workload_registry.hpp"

namespace walksim::workload {
namespace {

// SSYNC's one-lock test with a TAS lock, 6 threads on one Opteron die (their lock and data lines
// homed on that die), each of 200 acquisitions.
RunResult tas_with_occupancy(sim::Picos occupancy) {
  auto w = testing::make(kLockLoopKind, "lock: tas\nthink_time: auto\nhold_time: 0ns\nprotected_lines: 1");
  testing::RunArgs a;
  a.machine = "opteron-6172-4p";
  a.threads = 6;
  a.control.ops_per_process = 200;
  a.home_occupancy = occupancy;
  // A run in which no acquisition completes for 1 ms of simulated time (a few hundred hand-offs)
  // is the starvation this test is about: it ends with NoProgress instead of running for ever.
  a.no_progress_limit = sim::from_ns(1'000'000);
  return testing::run(a, *w);
}

TEST(HomeOccupancy, ALockWhoseSpinnersKeepTheHomeAgentBusyIsStillHandedOn) {
  const RunResult free_agent = tas_with_occupancy(0);
  // 40 ns: each spinner's exchange books the agent for longer than the spinners leave between
  // two of them, so only a request that keeps its turn at the agent is ever served.
  const sim::Picos occupancy = sim::from_ns(40);
  const RunResult busy_agent = tas_with_occupancy(occupancy);
  EXPECT_EQ(busy_agent.ops, 6u * 200u);
  EXPECT_GT(busy_agent.wall, free_agent.wall);  // every transaction of the die's lines passes one agent
  // The lock's line sees only exchanges and releasing stores, every one a transaction of the one
  // agent of the die it is homed on: one at a time, so together no longer than the run.
  const auto lock = std::find_if(busy_agent.hot.begin(), busy_agent.hot.end(),
                                 [](const HotLine& h) { return h.object == "lock-loop lock 0" && h.fields == "lock"; });
  ASSERT_NE(lock, busy_agent.hot.end());
  EXPECT_GT(lock->transactions, 100u);  // the lock moved between the threads all along
  EXPECT_LE(static_cast<sim::Picos>(lock->transactions - 1) * occupancy, busy_agent.simulated);
}

}  // namespace
}  // namespace walksim::workload
