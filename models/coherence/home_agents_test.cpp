// coherence.home_occupancy: a node's home agent serves one transaction at a time, whatever the
// line; without it homes are infinitely parallel (the model as validated).
#include "models/coherence/home_agents.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "models/coherence/memory_system.hpp"
#include "models/coherence/test_machines.hpp"

namespace walksim::coherence {
namespace {

using machine::Inclusion;
using machine::ProtocolKind;
using sim::from_ns;

TEST(HomeAgents, AReservationKeepsOthersOutForOneOccupancyAndLeavesTheGapsBeforeItFree) {
  HomeAgents agents(2, from_ns(10));
  EXPECT_EQ(agents.earliest(0, from_ns(95)), from_ns(95));
  agents.take(0, from_ns(100));
  EXPECT_EQ(agents.earliest(0, from_ns(95)), from_ns(110));  // would overlap [100, 110)
  EXPECT_EQ(agents.earliest(0, from_ns(90)), from_ns(90));   // ends as the reservation starts
  EXPECT_EQ(agents.earliest(0, from_ns(110)), from_ns(110));
  EXPECT_EQ(agents.earliest(1, from_ns(100)), from_ns(100));  // another node's agent is its own
  agents.take(0, from_ns(110));
  EXPECT_EQ(agents.earliest(0, from_ns(101)), from_ns(120));  // pushed past both
}

// The agent keeps reservations less than one occupancy apart as one busy span (a saturated home
// is one span to jump over): checked against the plain rule, one reservation at a time, on random
// requests.
TEST(HomeAgents, BusySpansGiveWhatEveryReservationCheckedOneByOneGives) {
  const Picos occ = from_ns(7);
  HomeAgents agents(1, occ);
  std::vector<Picos> taken;  // the reference: every reservation's start
  auto reference = [&](Picos at) {
    Picos t = at;
    for (bool moved = true; moved;) {
      moved = false;
      for (const Picos s : taken) {
        if (s < t + occ && s + occ > t) {
          t = s + occ;
          moved = true;
        }
      }
    }
    return t;
  };
  std::uint64_t x = 12345;
  Picos clock = 0;
  for (int i = 0; i < 3000; ++i) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    clock += static_cast<Picos>((x >> 33) % 4000);                   // requests 0-4 ns apart: the agent saturates
    const Picos at = clock - static_cast<Picos>((x >> 20) % 30000);  // reaching it out of order
    const Picos t = agents.earliest(0, at);
    ASSERT_EQ(t, reference(at)) << "request " << i;
    agents.take(0, t);
    taken.push_back(t);
  }
  // The saturated stretch is one span: a request inside it waits for its end.
  const Picos last = *std::max_element(taken.begin(), taken.end());
  EXPECT_EQ(agents.earliest(0, last), last + occ);
}

TEST(HomeAgents, WithoutAnOccupancyEveryRequestIsServedWhenItArrives) {
  HomeAgents agents(1, 0);
  agents.take(0, from_ns(100));
  EXPECT_FALSE(agents.modelled());
  EXPECT_EQ(agents.earliest(0, from_ns(100)), from_ns(100));
}

// Two cold misses to two different lines homed on node 0, issued together by two cores:
// apart by the agent's occupancy with it, together without it.
Picos second_miss_latency(Picos occupancy) {
  machine::MachineSpec spec = testing::two_socket(ProtocolKind::kMoesiBroadcast, Inclusion::kVictim);
  spec.home_occupancy = occupancy;
  const machine::Machine m(spec);
  MemorySystem mem(m, true);
  const LineId a = mem.add_line(0), b = mem.add_line(0);
  const Picos first = mem.access(0, 0, a, AccessKind::kLoad).done;
  const Picos second = mem.access(0, 1, b, AccessKind::kLoad).done;
  EXPECT_EQ(first, from_ns(60));  // L3 miss 10 + DRAM 50, as without an occupancy
  return second;
}

TEST(HomeAgents, TransactionsOnDifferentLinesOfOneHomeAreServedOneOccupancyApart) {
  EXPECT_EQ(second_miss_latency(0), from_ns(60));
  EXPECT_EQ(second_miss_latency(from_ns(7)), from_ns(67));
}

}  // namespace
}  // namespace walksim::coherence
