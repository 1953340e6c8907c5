// Builders for the hand-checkable test machines.
#include "models/coherence/test_machines.hpp"

#include <string>

namespace walksim::coherence::testing {

using namespace machine;

namespace {
MachineSpec base(ProtocolKind protocol) {
  MachineSpec m;
  m.name = "test";
  m.clock_hz = 1e9;
  m.line_size = 64;
  m.dram_access = sim::from_ns(50);
  m.protocol = protocol;
  m.probe_origin = protocol == ProtocolKind::kMesifInclusive ? ProbeOrigin::kRequester : ProbeOrigin::kHome;
  m.costs.probe_lookup = sim::from_ns(5);
  m.costs.directory_lookup = sim::from_ns(7);
  m.costs.onchip_snoop_clean = sim::from_ns(8);
  m.costs.onchip_snoop_dirty = sim::from_ns(12);
  m.costs.atomic_overhead = sim::from_ns(3);
  m.costs.fence = sim::from_ns(2);
  return m;
}
}  // namespace

MachineSpec two_socket(ProtocolKind protocol, Inclusion l3, std::uint32_t cores, std::uint32_t threads) {
  MachineSpec m = base(protocol);
  m.nodes = 2;
  m.sockets_per_node = 1;
  m.cores_per_socket = cores;
  m.threads_per_core = threads;
  m.caches = {{"L1D", 1, 32ULL * 1024, 8, sim::from_ns(1), Inclusion::kInclusive},
              {"L2", 1, 256ULL * 1024, 8, sim::from_ns(4), Inclusion::kNonInclusive},
              {"L3", cores, 2ULL * 1024 * 1024, 16, sim::from_ns(10), l3}};
  m.topology.links = {{"n0", "n1", sim::from_ns(20), 4e9}};
  return m;
}

MachineSpec chain(std::uint32_t nodes, ProtocolKind protocol) {
  MachineSpec m = base(protocol);
  m.nodes = nodes;
  m.sockets_per_node = 1;
  m.cores_per_socket = 1;
  m.threads_per_core = 1;
  m.caches = {{"L1D", 1, 32ULL * 1024, 8, sim::from_ns(1), Inclusion::kInclusive},
              {"L2", 1, 256ULL * 1024, 8, sim::from_ns(4), Inclusion::kNonInclusive}};
  for (std::uint32_t i = 0; i + 1 < nodes; ++i) {
    m.topology.links.push_back({"n" + std::to_string(i), "n" + std::to_string(i + 1), sim::from_ns(20), 4e9});
  }
  return m;
}

MachineSpec tiny_caches(MachineSpec spec) {
  for (auto& c : spec.caches) {
    c.ways = 2;
    c.size_bytes = std::uint64_t{spec.line_size} * (c.shared_by > 1 ? 8 : 4);
  }
  return spec;
}

}  // namespace walksim::coherence::testing
