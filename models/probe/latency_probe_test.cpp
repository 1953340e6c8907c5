#include "models/probe/latency_probe.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "models/coherence/test_machines.hpp"

namespace walksim::probe {
namespace {

using machine::Inclusion;
using machine::ProtocolKind;
using sim::from_ns;

const ProbeEntry& find(const ProbeReport& r, const std::string& op, const std::string& state, const std::string& holder,
                       const std::string& home) {
  auto it = std::find_if(r.entries.begin(), r.entries.end(), [&](const ProbeEntry& e) {
    return e.op == op && e.state == state && e.holder == holder && e.home == home;
  });
  if (it == r.entries.end()) throw std::runtime_error("no entry " + op + " " + state + " " + holder + " " + home);
  return *it;
}

TEST(LatencyProbe, CoversEveryOperationStateAndDistanceOfTheMachine) {
  machine::Machine m(coherence::testing::two_socket(ProtocolKind::kMesifInclusive, Inclusion::kInclusive, 2, 2));
  auto r = run_latency_probe(m);
  for (const char* op : {"load", "store", "cas"}) {
    for (const char* st : {"M", "E", "S"}) {
      for (const char* h : {"own", "smt-sibling", "same-socket", "1-hop"}) {
        EXPECT_NO_THROW(find(r, op, st, h, "local"));
        EXPECT_NO_THROW(find(r, op, st, h, "remote"));
      }
    }
    EXPECT_NO_THROW(find(r, op, "I", "none", "local"));
  }
  std::vector<std::string> distances;
  for (const auto& p : r.pingpong) distances.push_back(p.distance);
  EXPECT_EQ(distances, (std::vector<std::string>{"smt-sibling", "same-socket", "1-hop"}));
}

TEST(LatencyProbe, ProbeLatenciesAreTheSimulatorsOwnClosedForms) {
  machine::Machine m(coherence::testing::two_socket(ProtocolKind::kMesifInclusive, Inclusion::kInclusive, 2, 1));
  auto r = run_latency_probe(m);
  EXPECT_EQ(find(r, "load", "M", "own", "local").latency, from_ns(1));
  EXPECT_EQ(find(r, "cas", "M", "own", "local").latency, from_ns(1 + 3));
  EXPECT_EQ(find(r, "load", "M", "same-socket", "local").latency, from_ns(10 + 12));
  EXPECT_EQ(find(r, "load", "E", "same-socket", "local").latency, from_ns(10 + 8));
  EXPECT_EQ(find(r, "load", "I", "none", "local").latency, from_ns(10 + 50));
  // Remote M: source snoop of the other socket (20 + 5 + 20) against the home round trip (0): 10 + 45.
  EXPECT_EQ(find(r, "load", "M", "1-hop", "local").latency, from_ns(10 + 45));
}

TEST(LatencyProbe, APingPongAcrossSocketsTakesLongerThanOnTheSameDie) {
  machine::Machine m(coherence::testing::two_socket(ProtocolKind::kMesifInclusive, Inclusion::kInclusive, 2, 1));
  auto r = run_latency_probe(m);
  ASSERT_EQ(r.pingpong.size(), 2u);
  EXPECT_GT(r.pingpong[0].round_trip, 0);
  EXPECT_GT(r.pingpong[1].round_trip, r.pingpong[0].round_trip);
}

}  // namespace
}  // namespace walksim::probe
