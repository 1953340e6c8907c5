// The SSYNC pause from the machine's latencies and home policy; see ssync_pause.hpp.
#include "models/workload/ssync_pause.hpp"

#include <algorithm>
#include <cctype>
#include <set>

#include "models/config/limits.hpp"

namespace walksim::workload {

sim::Picos ssync_pause(const machine::Machine& m, const std::vector<machine::CpuId>& cpus) {
  // One core per domain is enough to find the largest distance between domains; a domain with two
  // of the cores has the on-die distance (the outermost cache's latency) as well.
  std::set<machine::CoreId> cores;
  for (machine::CpuId c : cpus) cores.insert(m.core_of(c));
  if (cores.size() < 2) return 0;
  std::set<machine::DomainId> domains;
  for (machine::CoreId c : cores) domains.insert(m.domain_of(c));
  sim::Picos farthest = 0;
  for (machine::DomainId a : domains) {
    for (machine::DomainId b : domains) farthest = std::max(farthest, m.domain_to_domain(a, b));
  }
  const auto& costs = m.spec().costs;
  const sim::Picos window =
      2 * (m.miss_detect() + farthest) + costs.directory_lookup + costs.probe_lookup + costs.onchip_snoop_dirty;
  if (m.spec().home_policy == machine::HomePolicy::kForwarding) {
    return std::max(window, m.spec().home_retention + m.miss_detect());
  }
  if (m.spec().home_policy == machine::HomePolicy::kBusyOnForward) {
    // A request NACKed while the line was busy comes back up to one retry round trip later.
    return window + 2 * farthest + costs.directory_lookup;
  }
  return window;
}

std::optional<sim::Picos> read_pause(const config::Node& n) {
  if (n.is_scalar()) {
    const std::string v = n.as_string();
    if (v == "auto") return std::nullopt;
    if (v.empty() || !(std::isdigit(static_cast<unsigned char>(v[0])) || v[0] == '.' || v[0] == '-' || v[0] == '+')) {
      const std::string what = "the longest a new owner keeps a contended line among the run's cores";
      n.fail("expected a time (e.g. 500ns) or 'auto' (" + what + "), got '" + v + "'");
    }
  }
  return config::operation_time(n);
}

}  // namespace walksim::workload
