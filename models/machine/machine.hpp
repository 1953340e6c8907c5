// The runtime view of a machine: which core, socket, last-level-cache domain and NUMA node each
// CPU belongs to, the topology graph, and the one-way message latencies between cache domains and
// home agents that the coherence protocols compose into transaction latencies.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "models/machine/machine_spec.hpp"
#include "models/machine/topology.hpp"

namespace walksim::machine {

using CpuId = std::uint32_t;     // a hardware thread
using CoreId = std::uint32_t;    // a physical core (SMT siblings share its private caches)
using DomainId = std::uint32_t;  // one instance of the outermost shared cache (or a core, if none is shared)

class Machine {
 public:
  // Throws std::invalid_argument when the spec is inconsistent (the loader checks first, so this
  // only fires for specs built in code).
  explicit Machine(MachineSpec spec);

  const MachineSpec& spec() const { return spec_; }
  const Topology& topology() const { return topology_; }

  std::uint32_t cpus() const { return spec_.cpus(); }
  std::uint32_t cores() const { return spec_.cores(); }
  std::uint32_t nodes() const { return spec_.nodes; }
  std::uint32_t domains() const { return domain_count_; }

  // CPUs are numbered core-major: cpu = core * threads_per_core + thread, cores socket-major.
  // (The maps are tables: they sit on every memory access, where integer division is not cheap.)
  CoreId core_of(CpuId cpu) const { return core_of_cpu_[cpu]; }
  std::uint32_t socket_of(CoreId core) const { return core / spec_.cores_per_socket; }
  NodeId node_of(CoreId core) const { return node_of_core_[core]; }
  DomainId domain_of(CoreId core) const { return domain_of_core_[core]; }
  NodeId node_of_domain(DomainId d) const { return node_of_core_[d * domain_size_]; }
  CoreId first_core_of_domain(DomainId d) const { return d * domain_size_; }
  std::uint32_t cores_per_domain() const { return domain_size_; }
  CpuId first_cpu_of(CoreId core) const { return core * spec_.threads_per_core; }

  // Index into spec().caches of the outermost cache private to a core, and of the shared
  // last-level cache; nullopt when there is none of that kind.
  std::optional<std::size_t> outer_private_level() const { return outer_private_; }
  std::optional<std::size_t> shared_level() const { return shared_; }
  // Latency at which a miss in every on-chip level is known (the outermost level's hit latency).
  Picos miss_detect() const { return spec_.caches.back().latency; }
  // That load-to-use latency is a round trip: the access reaches the outermost cache and is looked
  // up, then the data comes back to the core. A miss leaves for the home after the lookup, and the
  // line it gets travels the way back into the core after it arrived. The model takes the two
  // halves equal (estimate: no source splits a cache's latency; docs/model.md, "Grants").
  Picos miss_departure() const { return miss_detect() / 2; }
  Picos fill_return() const { return miss_detect() - miss_departure(); }

  // One-way message latencies. A domain reaches its own node's home agent across domain_link.
  Picos domain_to_node(DomainId d, NodeId n) const {
    return spec_.topology.domain_link + topology_.latency(node_of_domain(d), n);
  }
  Picos node_to_domain(NodeId n, DomainId d) const { return domain_to_node(d, n); }
  Picos domain_to_domain(DomainId a, DomainId b) const {
    if (a == b) return 0;
    return 2 * spec_.topology.domain_link + topology_.latency(node_of_domain(a), node_of_domain(b));
  }

  // spec().smt_throughput in whole millionths (the loader refuses finer values), for integer scaling.
  std::uint32_t smt_throughput_ppm() const { return smt_throughput_ppm_; }

  // n cycles in picoseconds, rounded. A result that does not fit int64 (a huge cost times a huge
  // scale factor, or NaN) throws std::runtime_error rather than converting with undefined behaviour.
  Picos cycles(double n) const {
    const double ps = n * 1e12 / spec_.clock_hz + 0.5;
    if (!(ps > -9.2e18 && ps < 9.2e18)) [[unlikely]] {
      throw_cycles_overflow(n);
    }
    return static_cast<Picos>(ps);
  }
  Picos cycle() const { return one_cycle_; }  // cycles(1), precomputed

 private:
  [[noreturn]] void throw_cycles_overflow(double n) const;

  MachineSpec spec_;
  Topology topology_;
  std::optional<std::size_t> outer_private_;
  std::optional<std::size_t> shared_;
  std::uint32_t domain_size_ = 1;
  std::uint32_t domain_count_ = 0;
  std::vector<CoreId> core_of_cpu_;
  std::vector<DomainId> domain_of_core_;
  std::vector<NodeId> node_of_core_;
  Picos one_cycle_ = 0;
  std::uint32_t smt_throughput_ppm_ = 1'000'000;
};

}  // namespace walksim::machine
