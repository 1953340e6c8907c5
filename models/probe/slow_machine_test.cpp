// The probe on a machine whose components are as slow as the loader allows (1 s each): each
// measurement still times one access with every set-up transaction finished, so an L1 hit is an
// L1 hit (it used to include the wait for the set-up store: an L1 hit of 9e15 ns).
#include <gtest/gtest.h>

#include <algorithm>

#include "models/coherence/test_machines.hpp"
#include "models/probe/latency_probe.hpp"

namespace walksim::probe {
namespace {

using machine::Inclusion;
using machine::ProtocolKind;
using sim::from_ns;

constexpr sim::Picos kSecond = 1'000'000'000'000;

const ProbeEntry& find(const ProbeReport& r, const std::string& op, const std::string& state, const std::string& holder,
                       const std::string& home) {
  auto it = std::find_if(r.entries.begin(), r.entries.end(), [&](const ProbeEntry& e) {
    return e.op == op && e.state == state && e.holder == holder && e.home == home;
  });
  if (it == r.entries.end()) throw std::runtime_error("no entry " + op + " " + state + " " + holder + " " + home);
  return *it;
}

TEST(SlowMachineProbe, SetUpTransactionsLongerThanTheGapAreWaitedForBeforeTheTimedAccess) {
  machine::MachineSpec spec =
      coherence::testing::two_socket(ProtocolKind::kMesifInclusive, Inclusion::kInclusive, 2, 1);
  spec.dram_access = kSecond;
  const machine::Machine m(spec);
  const ProbeReport r = run_latency_probe(m);
  EXPECT_EQ(find(r, "load", "M", "own", "local").latency, from_ns(1));
  EXPECT_EQ(find(r, "load", "E", "same-socket", "local").latency, from_ns(10 + 8));
  EXPECT_EQ(find(r, "load", "I", "none", "local").latency, from_ns(10) + kSecond);
  for (const ProbeEntry& e : r.entries) EXPECT_GT(e.latency, 0) << e.op << " " << e.state << " " << e.holder;
}

}  // namespace
}  // namespace walksim::probe
