// Tests for the machine loader: every shipped machine loads with a source for every number, the
// required machines have their CPU counts, `extends:` overrides and inherits, and each kind of bad
// input is one ConfigError at the right line and key path (files in models/machine/testdata).
#include "models/machine/machine_loader.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "models/config/config_error.hpp"
#include "models/machine/topology.hpp"

namespace walksim::machine {
namespace {

const std::string kRoot = WALKSIM_SOURCE_DIR;
const std::vector<std::string> kMachineDirs{kRoot + "/configs/machines"};

std::string testdata(const std::string& name) { return kRoot + "/models/machine/testdata/" + name + ".yaml"; }

config::ConfigError load_error(const std::string& name_or_path) {
  try {
    load_machine(name_or_path, kMachineDirs);
  } catch (const config::ConfigError& e) {
    return e;
  }
  ADD_FAILURE() << name_or_path << " loaded without error";
  return config::ConfigError({}, "", "<none>");
}

void expect_error(const config::ConfigError& e, int line, const std::string& key_path, const std::string& fragment) {
  EXPECT_EQ(e.mark().line, line) << e.what();
  EXPECT_EQ(e.key_path(), key_path) << e.what();
  EXPECT_NE(e.message().find(fragment), std::string::npos) << "expected '" << fragment << "' in: " << e.what();
}

TEST(MachineLoader, EveryShippedMachineLoadsWithASourceForEveryNumber) {
  const std::vector<std::string> names = list_machines(kMachineDirs);
  ASSERT_GE(names.size(), 10u);
  for (const std::string& name : names) {
    SCOPED_TRACE(name);
    MachineSpec spec;
    ASSERT_NO_THROW(spec = load_machine(name, kMachineDirs));
    EXPECT_EQ(spec.name, name);
    EXPECT_FALSE(spec.description.empty());
    for (const auto& [key, source] : spec.sources) EXPECT_FALSE(source.empty()) << key;
    EXPECT_TRUE(spec.sources.count("clock"));
    EXPECT_TRUE(spec.sources.count("memory.dram_access"));
    for (std::size_t i = 0; i < spec.caches.size(); ++i) {
      EXPECT_TRUE(spec.sources.count("caches[" + std::to_string(i) + "].latency")) << i;
    }
    const Topology topology(spec.topology, spec.nodes);
    EXPECT_EQ(topology.node_count(), spec.nodes);
  }
}

TEST(MachineLoader, TheRequiredMachinesHaveTheirCpuCounts) {
  const std::vector<std::pair<std::string, std::uint32_t>> expected{
      {"barcelona-2s8c", 8},     {"nehalem-ep-2s8c", 16}, {"westmere-ep-2s12c", 24}, {"nehalem-ex-4s32c", 64},
      {"altix-32n64c", 64},      {"x86-32way-2007", 32},  {"epyc-zen4-2s", 96},      {"opteron-6172-4p", 48},
      {"westmere-ex-8s80c", 80}, {"spr-2s", 224}};
  for (const auto& [name, cpus] : expected) {
    SCOPED_TRACE(name);
    const MachineSpec spec = load_machine(name, kMachineDirs);
    EXPECT_EQ(spec.cpus(), cpus);
  }
  EXPECT_EQ(load_machine("altix-32n64c", kMachineDirs).cores(), 64u);
  EXPECT_EQ(load_machine("x86-32way-2007", kMachineDirs).sockets(), 16u);
}

TEST(MachineLoader, BarcelonaIsReadIntoTheSpecWithItsUnits) {
  const MachineSpec m = load_machine("barcelona-2s8c", kMachineDirs);
  EXPECT_DOUBLE_EQ(m.clock_hz, 2.3e9);
  EXPECT_EQ(m.line_size, 64u);
  ASSERT_EQ(m.caches.size(), 3u);
  EXPECT_EQ(m.caches[0].size_bytes, 64u * 1024);
  EXPECT_EQ(m.caches[0].latency, 1304);  // 3 cycles at 2.3 GHz
  EXPECT_EQ(m.caches[1].inclusion, Inclusion::kExclusive);
  EXPECT_EQ(m.caches[2].inclusion, Inclusion::kVictim);
  EXPECT_EQ(m.caches[2].shared_by, 4u);
  EXPECT_EQ(m.caches[2].latency, 23'000);
  EXPECT_EQ(m.protocol, ProtocolKind::kMoesiBroadcast);
  EXPECT_EQ(m.probe_origin, ProbeOrigin::kHome);
  ASSERT_EQ(m.topology.links.size(), 1u);
  EXPECT_EQ(m.topology.links[0].latency, 15'000);
  EXPECT_DOUBLE_EQ(m.topology.links[0].bandwidth_bytes_per_s, 4e9);
  EXPECT_TRUE(m.sources.count("interconnect.link_classes.ht.latency"));
}

TEST(MachineLoader, AMesiBroadcastWhatIfKeepsItsParentsProbeOriginAndCosts) {
  const MachineSpec parent = load_machine("barcelona-2s8c", kMachineDirs);
  const MachineSpec m = load_machine(testdata("mesi-barcelona"), kMachineDirs);
  EXPECT_EQ(m.protocol, ProtocolKind::kMesiBroadcast);
  EXPECT_EQ(m.probe_origin, ProbeOrigin::kHome);
  EXPECT_EQ(m.costs.probe_lookup, parent.costs.probe_lookup);
  EXPECT_FALSE(protocol_family(m.protocol).owned_state);
  EXPECT_TRUE(protocol_family(parent.protocol).owned_state);
}

// docs/machines.md's file format names every family a machine may give, and each family has its
// paragraph under "Latency semantics": a family added to the table without its documentation fails.
TEST(MachineLoader, TheDocumentedProtocolNamesAreTheFamilyTable) {
  std::ifstream in(kRoot + "/docs/machines.md");
  std::stringstream doc;
  doc << in.rdbuf();
  std::string names;
  for (const ProtocolFamily& f : kProtocolFamilies) names += (names.empty() ? "# " : " | ") + std::string(f.name);
  EXPECT_NE(doc.str().find(names + "\n"), std::string::npos) << "docs/machines.md's format line should list: " << names;
  for (const ProtocolFamily& f : kProtocolFamilies) {
    EXPECT_NE(doc.str().find("  - `" + std::string(f.name) + "`"), std::string::npos)
        << f.name << " has no paragraph under 'Latency semantics' in docs/machines.md";
  }
}

TEST(MachineLoader, TheAltixFatTreeHasRoutersAndThreeHopsAcrossTheSpine) {
  const MachineSpec m = load_machine("altix-32n64c", kMachineDirs);
  EXPECT_EQ(m.protocol, ProtocolKind::kDirectory);
  EXPECT_EQ(m.topology.routers.size(), 8u + 2u);
  const Topology t(m.topology, m.nodes);
  EXPECT_EQ(t.hops(0, 1), 1u);
  EXPECT_EQ(t.hops(0, 31), 3u);
  EXPECT_EQ(t.latency(0, 1), 2 * 10'000 + 25'000);
  EXPECT_EQ(t.latency(0, 31), 4 * 10'000 + 3 * 25'000);
  EXPECT_EQ(t.max_hops(), 3u);
}

TEST(MachineLoader, AGeneratedFullMeshJoinsEveryPairOfNodes) {
  const MachineSpec m = load_machine("nehalem-ex-4s32c", kMachineDirs);
  EXPECT_EQ(m.topology.links.size(), 6u);
  EXPECT_EQ(Topology(m.topology, m.nodes).max_hops(), 1u);
}

// SSYNC's Opteron: the two dies of a package are one on-package hop apart, dies of other packages
// one x8 hop or two hops (AGESA's twin fully connected four ways); the MCM hop is the faster one.
TEST(MachineLoader, TheOpteronDiesAreAtMostTwoHopsApartWithTheSiblingDieNearest) {
  const MachineSpec m = load_machine("opteron-6172-4p", kMachineDirs);
  EXPECT_EQ(m.protocol, ProtocolKind::kDirectory);
  EXPECT_EQ(m.cores(), 48u);
  EXPECT_EQ(m.sockets(), 8u);
  const Topology t(m.topology, m.nodes);
  EXPECT_EQ(t.max_hops(), 2u);
  for (NodeId n = 0; n < m.nodes; ++n) {
    SCOPED_TRACE(n);
    std::uint32_t one_hop = 0;
    for (NodeId o = 0; o < m.nodes; ++o) one_hop += t.hops(n, o) == 1;
    EXPECT_EQ(one_hop, 4u);            // the sibling die and three dies of other packages
    EXPECT_EQ(t.hops(n, n ^ 1u), 1u);  // n(2k) and n(2k+1) share a package
    EXPECT_LT(t.latency(n, n ^ 1u), t.latency(n, (n + 2) % m.nodes));
  }
  EXPECT_EQ(t.node_at_hops(0, 1), 1);  // the probe's 1-hop holder is the other die of the package
}

// SSYNC's Xeon: 8 sockets, 3 QPI links each to other sockets, at most 2 hops (a twisted cube).
TEST(MachineLoader, TheWestmereExSocketsFormACubicGraphOfDiameterTwo) {
  const MachineSpec m = load_machine("westmere-ex-8s80c", kMachineDirs);
  EXPECT_EQ(m.topology.links.size(), 12u);
  const Topology t(m.topology, m.nodes);
  EXPECT_EQ(t.max_hops(), 2u);
  for (NodeId n = 0; n < m.nodes; ++n) {
    std::uint32_t one_hop = 0;
    for (NodeId o = 0; o < m.nodes; ++o) one_hop += t.hops(n, o) == 1;
    EXPECT_EQ(one_hop, 3u) << n;
  }
}

TEST(MachineLoader, ExtendsOverridesAValueAndKeepsTheRest) {
  const MachineSpec child = load_machine(testdata("extends-clock"), kMachineDirs);
  const MachineSpec parent = load_machine("barcelona-2s8c", kMachineDirs);
  EXPECT_EQ(child.name, "extends-clock");
  EXPECT_DOUBLE_EQ(child.clock_hz, 2.0e9);
  EXPECT_EQ(child.sources.at("clock"), "test: Opteron 2350");
  // Cycles are converted at the final clock, so the inherited 3-cycle L1 now takes 1.5 ns.
  EXPECT_EQ(child.caches[0].latency, 1500);
  EXPECT_EQ(child.caches[2].latency, parent.caches[2].latency);
  EXPECT_EQ(child.description, parent.description);
  EXPECT_EQ(child.cpus(), parent.cpus());
  EXPECT_EQ(child.dram_access, parent.dram_access);
  EXPECT_EQ(child.sources.at("memory.dram_access"), parent.sources.at("memory.dram_access"));
}

TEST(MachineLoader, WestmereInheritsTheNehalemPartsItDoesNotRestate) {
  const MachineSpec w = load_machine("westmere-ep-2s12c", kMachineDirs);
  const MachineSpec n = load_machine("nehalem-ep-2s8c", kMachineDirs);
  EXPECT_EQ(w.cores_per_socket, 6u);
  EXPECT_EQ(w.caches.back().shared_by, 6u);
  EXPECT_EQ(w.topology.links[0].latency, n.topology.links[0].latency);
  EXPECT_EQ(w.costs.onchip_snoop_dirty, n.costs.onchip_snoop_dirty);
  EXPECT_NE(w.costs.probe_lookup, n.costs.probe_lookup);
}

TEST(MachineLoader, ListMachinesReturnsSortedStems) {
  const std::vector<std::string> names = list_machines(kMachineDirs);
  EXPECT_TRUE(std::is_sorted(names.begin(), names.end()));
  EXPECT_NE(std::find(names.begin(), names.end(), "barcelona-2s8c"), names.end());
}

// --- One test per bad input ---

TEST(MachineLoaderErrors, AYamlSyntaxErrorNamesTheLine) {
  const auto e = load_error(testdata("bad-syntax"));
  EXPECT_NE(e.mark().file.find("bad-syntax.yaml"), std::string::npos);
  expect_error(e, 5, "", "YAML syntax error");
}

TEST(MachineLoaderErrors, AnUnknownKeySuggestsTheNearestValidOne) {
  const auto e = load_error(testdata("bad-unknown-key"));
  expect_error(e, 5, "layout.cors_per_socket", "did you mean 'cores_per_socket'?");
  EXPECT_NE(e.message().find("valid keys here: 'nodes'"), std::string::npos) << e.what();
}

TEST(MachineLoaderErrors, AWordWhereACountIsExpectedIsAWrongType) {
  expect_error(load_error(testdata("bad-wrong-type")), 5, "layout.nodes.value", "expected a whole number");
}

TEST(MachineLoaderErrors, ANegativeSizeIsRefused) {
  expect_error(load_error(testdata("bad-negative-size")), 4, "line_size.value", "negative size");
}

TEST(MachineLoaderErrors, ABadUnitNamesTheValidUnits) {
  const auto e = load_error(testdata("bad-unit"));
  expect_error(e, 4, "clock.value", "did you mean 'GHz'?");
  EXPECT_NE(e.message().find("valid units: Hz, kHz, MHz, GHz"), std::string::npos) << e.what();
}

TEST(MachineLoaderErrors, ANumberWithoutASourceIsRefusedNamingTheKey) {
  expect_error(load_error(testdata("bad-missing-source")), 5, "memory.dram_access",
               "missing 'source' for 'dram_access'");
}

TEST(MachineLoaderErrors, AnUnknownMachineNameListsTheAvailableOnes) {
  const auto e = load_error("barcelona");
  expect_error(e, 0, "", "unknown machine 'barcelona' (did you mean 'barcelona-2s8c'?)");
  EXPECT_NE(e.message().find("'altix-32n64c'"), std::string::npos) << e.what();
}

TEST(MachineLoaderErrors, AnUnknownParentInExtendsIsReportedAtTheExtendsKey) {
  expect_error(load_error(testdata("bad-unknown-parent")), 3, "extends",
               "unknown machine 'nehalem-ep' (did you mean 'nehalem-ep-2s8c'?)");
}

TEST(MachineLoaderErrors, ANameThatIsNotTheFileStemIsRefused) {
  expect_error(load_error(testdata("bad-name")), 2, "name", "must equal the file name stem 'bad-name'");
}

TEST(MachineLoaderErrors, ALinkToAnUnknownVertexIsRefused) {
  const auto e = load_error(testdata("bad-link-vertex"));
  expect_error(e, 6, "interconnect.links[0].b", "unknown vertex 'n2'");
  EXPECT_NE(e.message().find("n0..n1"), std::string::npos) << e.what();
}

TEST(MachineLoaderErrors, ADisconnectedTopologyIsReportedAtTheInterconnect) {
  expect_error(load_error(testdata("bad-disconnected")), 6, "interconnect", "node 'n2' is unreachable");
}

TEST(MachineLoaderErrors, ACacheSharedByACountThatLeavesACoreOutIsRefused) {
  const auto e = load_error(testdata("bad-shared-by"));
  expect_error(e, 11, "caches[1].shared_by.value", "does not fit the layout");
  EXPECT_NE(e.message().find("valid values: 1, 2, 4"), std::string::npos) << e.what();
}

TEST(MachineLoaderErrors, CyclicExtendsNamesTheCycle) {
  const auto e = load_error(testdata("bad-cycle-a"));
  EXPECT_NE(e.mark().file.find("bad-cycle-b.yaml"), std::string::npos) << e.what();
  expect_error(e, 3, "extends", "cyclic extends: bad-cycle-a -> bad-cycle-b -> bad-cycle-a");
}

TEST(MachineLoaderErrors, AProtocolSpecificCostInTheWrongProtocolIsRefused) {
  expect_error(load_error(testdata("bad-protocol-key")), 6, "coherence.costs.directory_lookup",
               "applies only to protocol 'directory'; this machine's protocol is 'moesi-broadcast'");
}

TEST(MachineLoaderErrors, AnOnChipSnoopCostNamesTheFamiliesThatHaveOne) {
  expect_error(load_error(testdata("bad-mesi-onchip-snoop")), 7, "coherence.costs.onchip_snoop_clean",
               "applies only to protocol 'mesif-inclusive'; this machine's protocol is 'mesi-broadcast'");
}

}  // namespace
}  // namespace walksim::machine
