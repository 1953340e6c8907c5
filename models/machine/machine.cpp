// Derives the CPU -> core -> domain -> node maps from the spec and checks the cache layout the
// coherence model supports: private levels first, then at most one shared level.
#include "models/machine/machine.hpp"

#include <cmath>
#include <stdexcept>

namespace walksim::machine {

Machine::Machine(MachineSpec spec) : spec_(std::move(spec)), topology_(spec_.topology, spec_.nodes) {
  if (spec_.cpus() == 0) throw std::invalid_argument("machine '" + spec_.name + "' has no CPUs");
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
  for (CpuId c = 0; c < spec_.cpus(); ++c) core_of_cpu_.push_back(c / spec_.threads_per_core);
  for (CoreId c = 0; c < spec_.cores(); ++c) {
    domain_of_core_.push_back(c / domain_size_);
    node_of_core_.push_back(c / spec_.cores_per_socket / spec_.sockets_per_node);
  }
  one_cycle_ = cycles(1);
}

}  // namespace walksim::machine
