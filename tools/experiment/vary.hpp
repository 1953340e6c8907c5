// An experiment's `vary:` block: parameter axes whose values change the machine, the kernel
// variant or the workload, each point of the experiment being a kernel entry at one combination of
// the axes' values (the cross product) and a thread count. docs/experiments.md, "What-if axes".
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "models/config/named_config.hpp"
#include "models/config/strict_yaml.hpp"

namespace walksim::experiment {

enum class VaryTarget : std::uint8_t { kMachine, kKernel, kWorkload };

struct AxisValue {
  std::optional<config::Node> value;  // the value as written, or nullopt: the base value times `scale`
  double scale = 1.0;
  std::string label;  // as rows, plots and results show it: "12.5ns", "x0.5"
  config::Node at;    // where it was written
};

struct Axis {
  std::string key;  // as written: "machine.interconnect.router_latency"
  VaryTarget target = VaryTarget::kMachine;
  std::string path;  // within the target: "interconnect.router_latency" (a workload parameter's name)
  std::string name;  // short, for labels: the path's last key (the whole key where two would clash)
  std::vector<AxisValue> values;
};

// At most this many axes, values per axis and combinations of them.
inline constexpr std::size_t kMaxAxes = 4, kMaxAxisValues = 64, kMaxCombinations = 4096;

// Reads `vary:` (a mapping of key path to a list of values or {scale: [factors]}); every mistake is
// a config::ConfigError at its key or value.
std::vector<Axis> read_vary(const config::Node& vary);

// Every combination of one value per axis, the first axis varying slowest.
std::vector<std::vector<std::size_t>> combinations(const std::vector<Axis>& axes);

// The overrides of `target` (machine or kernel) at one combination, citing the experiment file.
std::vector<config::Override> overrides_for(const std::vector<Axis>& axes, const std::vector<std::size_t>& combination,
                                            VaryTarget target, const std::string& experiment_file);

// The workload parameters at one combination: the workload axes' values over `base` (the entry's
// own params, or the experiment's), or nullopt when no axis is a workload parameter and there is
// no base.
std::optional<config::Node> params_for(const std::vector<Axis>& axes, const std::vector<std::size_t>& combination,
                                       const std::optional<config::Node>& base);

// "router_latency=x0.5 files=1000": the combination as a label suffix.
std::string combination_label(const std::vector<Axis>& axes, const std::vector<std::size_t>& combination);

}  // namespace walksim::experiment
