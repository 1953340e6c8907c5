// Derives the CPU -> core -> domain -> node maps from the spec and checks the cache layout the
// coherence model supports: private levels first, then at most one shared level.
#include "models/machine/machine.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

#include "models/config/limits.hpp"
#include "models/machine/machine_limits.hpp"

namespace walksim::machine {

namespace {

// The layout's CPU count in 64 bits, saturating (the loader refuses layouts above kMaxCpus, but a
// spec built in code is checked here too, before cpus() could wrap in 32 bits).
std::uint64_t cpu_count(const MachineSpec& s) {
  std::uint64_t n = 1;
  for (const std::uint64_t f : {std::uint64_t{s.nodes}, std::uint64_t{s.sockets_per_node},
                                std::uint64_t{s.cores_per_socket}, std::uint64_t{s.threads_per_core}}) {
    if (__builtin_mul_overflow(n, f, &n)) return UINT64_MAX;
  }
  return n;
}

// Component times built in code get the loader's limit too: the executor relies on every memory
// transaction being far shorter than half the simulated clock.
void check_times(const MachineSpec& s) {
  const auto check = [&](const std::string& what, Picos t) {
    if (t < 0 || t > config::kMaxComponentTime) {
      throw std::invalid_argument("machine '" + s.name + "': " + what + " of " + std::to_string(t) +
                                  " ps is outside 0.." + config::format_time(config::kMaxComponentTime));
    }
  };
  for (const CacheLevelSpec& c : s.caches) check(c.name + " latency", c.latency);
  for (const LinkSpec& l : s.topology.links) {
    check("link " + l.a + "-" + l.b + " latency", l.latency);
    if (!(s.line_size / l.bandwidth_bytes_per_s * 1e12 <= static_cast<double>(config::kMaxComponentTime))) {
      throw std::invalid_argument("machine '" + s.name + "': link " + l.a + "-" + l.b +
                                  " is too slow to carry one line in a second");
    }
  }
  check("router_latency", s.topology.router_latency);
  check("domain_link", s.topology.domain_link);
  check("dram_access", s.dram_access);
  for (const Picos t : {s.costs.probe_lookup, s.costs.directory_lookup, s.costs.onchip_snoop_clean,
                        s.costs.onchip_snoop_dirty, s.costs.atomic_overhead, s.costs.fence}) {
    check("a coherence cost", t);
  }
}

MachineSpec checked_layout(MachineSpec s) {
  check_times(s);
  const std::uint64_t cpus = cpu_count(s);
  if (cpus == 0) throw std::invalid_argument("machine '" + s.name + "' has no CPUs (a layout count is 0)");
  if (cpus > kMaxCpus || s.nodes > kMaxNodes) {
    throw std::invalid_argument("machine '" + s.name + "' has " + std::to_string(s.nodes) + " nodes and " +
                                std::to_string(cpus) + " CPUs; the limits are " + std::to_string(kMaxNodes) +
                                " nodes and " + std::to_string(kMaxCpus) + " CPUs");
  }
  return s;
}

}  // namespace

Machine::Machine(MachineSpec spec) : spec_(checked_layout(std::move(spec))), topology_(spec_.topology, spec_.nodes) {
  if (spec_.caches.empty()) throw std::invalid_argument("machine '" + spec_.name + "' has no caches");
  if (!(spec_.smt_throughput > 0 && spec_.smt_throughput <= 1)) {
    throw std::invalid_argument("machine '" + spec_.name + "' has smt_throughput outside (0, 1]");
  }
  smt_throughput_ppm_ = static_cast<std::uint32_t>(std::llround(spec_.smt_throughput * 1e6));
  for (std::size_t i = 0; i < spec_.caches.size(); ++i) {
    const auto& c = spec_.caches[i];
    if (c.shared_by == 1) {
      if (shared_) {
        throw std::invalid_argument("cache " + c.name + " is private but lies outside the shared level " +
                                    spec_.caches[*shared_].name);
      }
      outer_private_ = i;
    } else {
      if (shared_) throw std::invalid_argument("more than one shared cache level is not modelled");
      if (c.shared_by == 0 || spec_.cores_per_socket % c.shared_by != 0) {
        throw std::invalid_argument("cache " + c.name + " shared_by does not divide cores_per_socket");
      }
      shared_ = i;
      domain_size_ = c.shared_by;
    }
  }
  domain_count_ = spec_.cores() / domain_size_;
  if (domain_count_ > kMaxDomains) {
    throw std::invalid_argument("machine '" + spec_.name + "' has " + std::to_string(domain_count_) +
                                " cache domains; the limit is " + std::to_string(kMaxDomains));
  }
  for (CpuId c = 0; c < spec_.cpus(); ++c) core_of_cpu_.push_back(c / spec_.threads_per_core);
  for (CoreId c = 0; c < spec_.cores(); ++c) {
    domain_of_core_.push_back(c / domain_size_);
    node_of_core_.push_back(c / spec_.cores_per_socket / spec_.sockets_per_node);
  }
  one_cycle_ = cycles(1);
}

void Machine::throw_cycles_overflow(double n) const {
  throw std::runtime_error("a CPU cost of " + std::to_string(n) + " cycles at " + std::to_string(spec_.clock_hz / 1e9) +
                           " GHz does not fit the simulated clock (at most 9.2e18 ps, about 106 days): a "
                           "cycle count or a cost scale factor (cpu_cost_scale) is too large");
}

}  // namespace walksim::machine
