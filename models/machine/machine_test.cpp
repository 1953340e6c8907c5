// The runtime geometry: CPU -> core -> domain -> node numbering, and message latencies composed
// from the topology and domain links of the real machine files.
#include "models/machine/machine.hpp"

#include <gtest/gtest.h>

#include "models/machine/machine_loader.hpp"

namespace walksim::machine {
namespace {

std::vector<std::string> dirs() { return {std::string(WALKSIM_SOURCE_DIR) + "/configs/machines"}; }

TEST(Machine, SmtSiblingsShareACoreAndCoresShareTheirSocketsL3Domain) {
  Machine m(load_machine("nehalem-ep-2s8c", dirs()));
  EXPECT_EQ(m.cpus(), 16u);
  EXPECT_EQ(m.core_of(1), 0u);
  EXPECT_EQ(m.core_of(2), 1u);
  EXPECT_EQ(m.domain_of(3), 0u);
  EXPECT_EQ(m.domain_of(4), 1u);
  EXPECT_EQ(m.node_of(4), 1u);
  EXPECT_EQ(m.domains(), 2u);
}

TEST(Machine, ZenCoresFormOneL3DomainPerCcdWithinASocket) {
  Machine m(load_machine("epyc-zen4-2s", dirs()));
  EXPECT_EQ(m.cores_per_domain(), 3u);
  EXPECT_EQ(m.domains(), 16u);
  EXPECT_EQ(m.node_of_domain(7), 0u);
  EXPECT_EQ(m.node_of_domain(8), 1u);
  // Two CCDs of one socket talk through the I/O die: one domain link each way, no socket link.
  EXPECT_EQ(m.domain_to_domain(0, 1), 2 * m.spec().topology.domain_link);
  EXPECT_GT(m.domain_to_domain(0, 8), m.domain_to_domain(0, 1));
}

TEST(Machine, AltixNodesBeyondOneLeafRouterAreFartherThanWithinIt) {
  Machine m(load_machine("altix-32n64c", dirs()));
  EXPECT_EQ(m.cpus(), 64u);
  EXPECT_EQ(m.topology().hops(0, 1), 1u);
  EXPECT_GT(m.topology().hops(0, 31), 1u);
  EXPECT_GT(m.domain_to_node(0, 31), m.domain_to_node(0, 1));
}

TEST(Machine, ACycleIsOneOverTheClock) {
  Machine m(load_machine("barcelona-2s8c", dirs()));
  EXPECT_EQ(m.cycles(23), static_cast<sim::Picos>(23 * 1e12 / m.spec().clock_hz + 0.5));
}

}  // namespace
}  // namespace walksim::machine
