// An experiment as declared in experiments/*.yaml: one machine, one or more kernel variants, a
// workload and its parameters, a thread sweep, how long to run, seeds and repeats, an optional
// declared calibration, and (for validation files) the published figures it is checked against.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "models/config/strict_yaml.hpp"
#include "models/kernel/kernel_spec.hpp"
#include "models/workload/simulate.hpp"
#include "tools/experiment/vary.hpp"

namespace walksim::experiment {

// A published figure: what was measured, under which kernel and thread count, and how close the
// prediction must come. Calibration points are inputs of the fit; the rest are predictions.
struct PublishedPoint {
  std::string metric;  // a validatable metric of metric_defs() (tools/experiment/metrics.hpp)
  std::string kernel;
  std::uint32_t threads = 1;
  double value = 0;
  std::string unit;
  double tolerance_pct = 25;  // for scaling_pct: tolerance in percentage points
  bool calibration = false;
  std::string source;
};

struct Calibration {
  std::string parameter;            // only "cpu_cost_scale" is fittable
  std::vector<std::size_t> points;  // indices into `published` it is fitted to
};

struct ExperimentSpec {
  std::string name;
  std::string description;
  std::string file;
  std::string machine;
  // One entry per compared configuration: its label (rows, plots), the kernel variant it runs,
  // and the variant's options. A plain name in the YAML is its own label with the shared options.
  // With `vary:`, one entry per kernel entry and combination of the axes' values (a series): its
  // label is the entry's with the combination appended ("linux-2.6.35 router_latency=x0.5").
  std::vector<std::string> kernels;          // labels
  std::vector<std::string> kernel_variants;  // configs/kernels names
  std::vector<kernel::KernelOptions> kernel_options;
  std::vector<Axis> axes;  // `vary:`
  // Per series: the entry's own label (the seed of its points: every combination of the axes runs
  // with the same seeds, so that what differs between them is the parameters), the labels of its
  // axis values (one per axis), and the overrides its machine and kernel are loaded with.
  std::vector<std::string> entry_labels;
  std::vector<std::vector<std::string>> axis_values;
  std::vector<std::vector<config::Override>> machine_overrides, kernel_overrides;
  kernel::KernelOptions options;  // the experiment-wide kernel_options
  std::string workload;
  std::optional<config::Node> workload_params;  // kept as YAML: each workload reads its own
  // Per kernel entry: its `params:` over workload_params, key by key (nullopt: workload_params), so
  // one file can compare settings of one workload (lock algorithms, atomic operations) as series.
  std::vector<std::optional<config::Node>> kernel_params;
  // Every workload parameter as the workload resolved it, defaults included (results.json's
  // config.workload_params), and per kernel entry, with that entry's `params:` over them.
  workload::ResolvedParams workload_resolved;
  std::vector<workload::ResolvedParams> kernel_resolved;
  bool seeded = false;  // whether any entry's workload can depend on the seed (its repeats can differ)
  std::vector<std::uint32_t> threads;
  workload::Placement placement = workload::Placement::kCoresFirst;
  std::vector<workload::CpuId> placement_cpus;  // placement: {cpus: [...]}, thread i on the i-th
  workload::RunControl control;
  std::uint64_t seed = 1;
  std::uint32_t repeats = 1;
  double cost_scale = 1.0;            // fixed scale of the kernel's private CPU costs
  std::uint64_t extrapolate_ops = 0;  // report times for this many ops per process (steady state)
  std::size_t hot_lines = 10;
  bool check = false;  // coherence invariants after every access (--check)
  // The executor's run-ahead (--run-ahead; 0: within the machine's exact window, -1: stepped,
  // > 0: an approximate window; exec::Executor::set_run_ahead). Not an experiment file's key: an
  // approximation is asked for on the command line, for one run, and said in its outputs.
  sim::Picos run_ahead = 0;
  std::optional<Calibration> calibrate;
  std::vector<PublishedPoint> published;
  std::string citation;  // for validation files
};

// An experiment's `name`: it names the results directory, so only [A-Za-z0-9._-], not starting
// with '.'. Throws config::ConfigError at `n`.
std::string checked_name(const config::Node& n);

// Reads and checks an experiment file. Machine and kernel names are checked to exist in
// `config_root` (configs/). Every mistake is a config::ConfigError with file, line and key.
ExperimentSpec load_experiment(const std::string& path, const std::string& config_root);

}  // namespace walksim::experiment
