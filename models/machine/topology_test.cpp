// Tests for the interconnect graph: hop counts and one-way latencies follow from link latencies and
// router crossings on small graphs whose answers can be written down by hand.
#include "models/machine/topology.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

namespace walksim::machine {
namespace {

constexpr Picos kNs = sim::kPicosPerNs;

LinkSpec link(const std::string& a, const std::string& b, Picos latency) { return LinkSpec{a, b, latency, 4e9}; }

std::string what_of(auto&& f) {
  try {
    f();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "<no error>";
}

TEST(Topology, ASingleNodeWithNoLinksIsValid) {
  const Topology t(TopologySpec{}, 1);
  EXPECT_EQ(t.node_count(), 1u);
  EXPECT_EQ(t.latency(0, 0), 0);
  EXPECT_EQ(t.hops(0, 0), 0u);
  EXPECT_EQ(t.max_hops(), 0u);
  EXPECT_EQ(t.node_at_hops(0, 0), 0);
  EXPECT_EQ(t.node_at_hops(0, 1), -1);
}

TEST(Topology, TwoNodesJoinedByOneLinkAreOneHopApart) {
  TopologySpec spec;
  spec.links = {link("n0", "n1", 15 * kNs)};
  const Topology t(spec, 2);
  EXPECT_EQ(t.latency(0, 1), 15 * kNs);
  EXPECT_EQ(t.latency(1, 0), 15 * kNs);
  EXPECT_EQ(t.hops(0, 1), 1u);
  EXPECT_EQ(t.latency(1, 1), 0);
  EXPECT_EQ(t.max_hops(), 1u);
  EXPECT_EQ(t.node_at_hops(1, 1), 0);
}

TEST(Topology, AFullMeshOfFourNodesIsOneHopEverywhere) {
  TopologySpec spec;
  for (int a = 0; a < 4; ++a) {
    for (int b = a + 1; b < 4; ++b)
      spec.links.push_back(link("n" + std::to_string(a), "n" + std::to_string(b), 20 * kNs));
  }
  const Topology t(spec, 4);
  for (NodeId a = 0; a < 4; ++a) {
    for (NodeId b = 0; b < 4; ++b) {
      EXPECT_EQ(t.hops(a, b), a == b ? 0u : 1u);
      EXPECT_EQ(t.latency(a, b), a == b ? 0 : 20 * kNs);
    }
  }
  EXPECT_EQ(t.max_hops(), 1u);
}

TEST(Topology, ALineOfNodesAddsLinkLatenciesAndHops) {
  TopologySpec spec;
  spec.links = {link("n0", "n1", 10 * kNs), link("n1", "n2", 20 * kNs), link("n2", "n3", 30 * kNs)};
  const Topology t(spec, 4);
  EXPECT_EQ(t.latency(0, 3), 60 * kNs);
  EXPECT_EQ(t.hops(0, 3), 3u);
  EXPECT_EQ(t.latency(3, 1), 50 * kNs);
  EXPECT_EQ(t.hops(3, 1), 2u);
  EXPECT_EQ(t.max_hops(), 3u);
  EXPECT_EQ(t.node_at_hops(0, 2), 2);
  EXPECT_EQ(t.node_at_hops(1, 1), 0);
}

// Two leaves of two nodes each, both leaves joined to two spines.
TEST(Topology, AFatTreeCountsRoutersAsHopsAndChargesEachCrossing) {
  TopologySpec spec;
  spec.routers = {"leaf0", "leaf1", "spine0", "spine1"};
  spec.router_latency = 25 * kNs;
  spec.links = {link("n0", "leaf0", 10 * kNs),     link("n1", "leaf0", 10 * kNs),     link("n2", "leaf1", 10 * kNs),
                link("n3", "leaf1", 10 * kNs),     link("leaf0", "spine0", 10 * kNs), link("leaf0", "spine1", 10 * kNs),
                link("leaf1", "spine0", 10 * kNs), link("leaf1", "spine1", 10 * kNs)};
  const Topology t(spec, 4);
  // Same leaf: 2 links + 1 router.
  EXPECT_EQ(t.hops(0, 1), 1u);
  EXPECT_EQ(t.latency(0, 1), 2 * (10 * kNs) + 25 * kNs);
  // Across the spine: 4 links + 3 routers.
  EXPECT_EQ(t.hops(0, 2), 3u);
  EXPECT_EQ(t.latency(0, 2), 4 * (10 * kNs) + 3 * (25 * kNs));
  EXPECT_EQ(t.max_hops(), 3u);
  EXPECT_EQ(t.node_at_hops(0, 3), 2);
}

TEST(Topology, AnOddRouterLatencyIsChargedExactly) {
  TopologySpec spec;
  spec.routers = {"r"};
  spec.router_latency = 1;  // 1 ps: halving it per edge must not lose it
  spec.links = {link("n0", "r", 0), link("r", "n1", 0)};
  const Topology t(spec, 2);
  EXPECT_EQ(t.latency(0, 1), 1);
  EXPECT_EQ(t.hops(0, 1), 1u);
}

TEST(Topology, TheFastestPathWinsEvenWhenItHasMoreHops) {
  TopologySpec spec;
  spec.links = {link("n0", "n2", 100 * kNs), link("n0", "n1", 10 * kNs), link("n1", "n2", 10 * kNs)};
  const Topology t(spec, 3);
  EXPECT_EQ(t.latency(0, 2), 20 * kNs);
  EXPECT_EQ(t.hops(0, 2), 2u);
}

TEST(Topology, AmongEquallyFastPathsTheOneWithFewestHopsCounts) {
  TopologySpec spec;
  spec.links = {link("n0", "n2", 20 * kNs), link("n0", "n1", 10 * kNs), link("n1", "n2", 10 * kNs)};
  const Topology t(spec, 3);
  EXPECT_EQ(t.latency(0, 2), 20 * kNs);
  EXPECT_EQ(t.hops(0, 2), 1u);
}

TEST(Topology, ADisconnectedGraphThrowsNamingTheUnreachableNode) {
  TopologySpec spec;
  spec.links = {link("n0", "n1", 10 * kNs)};
  const std::string msg = what_of([&] { Topology(spec, 3); });
  EXPECT_NE(msg.find("'n2' is unreachable"), std::string::npos) << msg;
}

TEST(Topology, ALinkToAnUnknownVertexThrowsNamingIt) {
  TopologySpec spec;
  spec.links = {link("n0", "n7", 10 * kNs)};
  const std::string msg = what_of([&] { Topology(spec, 2); });
  EXPECT_NE(msg.find("unknown vertex 'n7'"), std::string::npos) << msg;
}

TEST(Topology, ARouterNamedLikeANodeIsRejected) {
  TopologySpec spec;
  spec.routers = {"n1"};
  const std::string msg = what_of([&] { Topology(spec, 2); });
  EXPECT_NE(msg.find("'n1'"), std::string::npos) << msg;
}

}  // namespace
}  // namespace walksim::machine
