// Runs an experiment: every (kernel, thread count, repeat) point as an independent simulation,
// in parallel on `jobs` host threads with results identical to one job; the declared calibration
// first, if any. Reduces the points to the metrics users read (throughput, ns/op, scaling %, time
// accounting, atomics per op, fallbacks, hot lines).
#pragma once

#include <atomic>
#include <functional>
#include <stdexcept>
#include <map>
#include <string>
#include <vector>

#include "tools/experiment/experiment_spec.hpp"

namespace walksim::experiment {

struct PointResult {
  std::string kernel;
  std::uint32_t threads = 0;
  std::uint32_t repeat = 0;
  workload::RunResult run;
};

// The metrics of one (kernel, threads), averaged over repeats.
struct Row {
  std::string kernel;
  std::uint32_t threads = 0;
  double throughput = 0;       // ops/s, or MB/s when the workload reports bytes
  std::string throughput_unit;
  double ns_per_op = 0;
  double scaling_pct = 0;      // throughput(N) / (N * throughput(1)), against the smallest thread count
  double atomic_rmw_per_op = 0;
  double cpu_utilisation = 0;
  double wall_s = 0, cpu_s = 0, user_s = 0, sys_s = 0, spin_s = 0, sleep_s = 0;
  // One process's real/user/sys, extrapolated to `extrapolate_to_ops` when the experiment asks.
  double real_s = 0, proc_user_s = 0, proc_sys_s = 0;
  kernel::WalkStats walk;
  std::vector<workload::HotLine> hot;  // of the first repeat
};

struct CalibrationResult {
  std::string parameter;
  double value = 1.0;  // cpu_cost_scale: a factor; user_time: microseconds per operation
  std::vector<std::string> fitted_to;  // descriptions of the published points
  double residual_pct = 0;             // max |error| of the calibration points after the fit
};

struct ExperimentResult {
  ExperimentSpec spec;
  double cost_scale = 1.0;
  std::optional<sim::Picos> user_time;  // the calibrated user time per operation, if that was fitted
  std::optional<CalibrationResult> calibration;
  std::vector<PointResult> points;
  std::vector<Row> rows;
  double host_seconds = 0;
};

using Progress = std::function<void(std::size_t done, std::size_t total, const std::string& what)>;

// Thrown when `cancel` was set (Ctrl-C): points in flight finish, no new one starts.
struct Interrupted : std::runtime_error {
  Interrupted() : std::runtime_error("interrupted") {}
};

ExperimentResult run_experiment(const ExperimentSpec& spec, const std::string& config_root, unsigned jobs,
                                const Progress& progress = {}, const std::atomic<bool>* cancel = nullptr);

// The predicted value of a published point's metric from the rows (NaN when absent).
double predicted(const ExperimentResult& r, const PublishedPoint& p);

}  // namespace walksim::experiment
