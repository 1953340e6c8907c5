// What machine_loader.cpp and interconnect_loader.cpp share: the typed readers that add the checks
// every machine number shares, and the interconnect section's reader. Internal to the loader.
#pragma once

#include <cstdint>
#include <string>

#include "models/config/limits.hpp"
#include "models/config/strict_yaml.hpp"
#include "models/machine/machine_spec.hpp"

namespace walksim::machine::loader_detail {

using config::Node;
using config::SourceMap;

inline std::string in_quotes(const std::string& s) { return "'" + s + "'"; }

// --- Small typed readers that add the checks every machine number shares ---

// At least 1; above `max` is an error that ends with `why` (the reason for the limit).
inline std::uint32_t positive_count(const Node& map, const std::string& key, SourceMap& sources,
                                    std::uint64_t max = UINT32_MAX, const std::string& why = "") {
  const Node v = map.sourced(key, sources);
  const std::uint32_t n = v.as_uint32();
  if (n == 0) v.fail(in_quotes(key) + " must be at least 1");
  if (n > max) v.fail(in_quotes(key) + " " + std::to_string(n) + " is above the limit of " + std::to_string(max) + why);
  return n;
}

// Hardware latencies and costs: at most config::kMaxComponentTime each.
inline Picos component_time(const Node& map, const std::string& key, SourceMap& sources, double clock_hz = 0) {
  return map.sourced(key, sources).as_time_at_most(config::kMaxComponentTime, config::kComponentTimeWhy, clock_hz);
}

// interconnect: link classes, then explicit links or a generator; checked as a whole topology.
void read_interconnect(const Node& root, MachineSpec& spec);

}  // namespace walksim::machine::loader_detail
