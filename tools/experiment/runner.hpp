// Runs an experiment: every (kernel, thread count, repeat) point as an independent simulation,
// in parallel on `jobs` host threads with results identical to one job; the declared calibration
// first, if any. Reduces the points to the metrics users read (throughput, ns/op, scaling %, time
// accounting, atomics per op, fallbacks, hot lines).
#pragma once

#include <atomic>
#include <cmath>
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
  std::uint64_t seed = 0;
  workload::RunResult run;
};

// How a metric varies over a row's repeats (as `perf stat -r` reports it): the mean (what the
// row's plain field holds), the sample standard deviation, the extremes, and how many runs.
struct Spread {
  double mean = 0, sd = 0, min = 0, max = 0;
  std::size_t n = 0;
  // The repeats disagree by more than `pct` percent of the mean ((max - min) / mean).
  bool disagrees(double pct = 10.0) const { return n > 1 && mean != 0 && (max - min) / std::abs(mean) * 100.0 > pct; }
};

// The metrics of one (kernel, threads), averaged over repeats.
struct Row {
  std::string kernel;
  std::uint32_t threads = 0;
  double throughput = 0;       // ops/s, or MB/s when the workload reports bytes
  std::string throughput_unit;
  double ns_per_op = 0;
  double call_ns_per_op = 0;   // ns_per_op less the user time per operation: the time in its calls
  double scaling_pct = 0;      // throughput(N) / (N * throughput(1)), against the smallest thread count
  std::string op_unit;
  double op_rate = 0;          // operations per second (the same as throughput unless it counts bytes)
  double op_scaling_pct = 0;   // scaling of op_rate
  std::uint32_t smt_cores = 0;  // cores running more than one of the row's processes
  // The share of the processes' time spent in the declared calibration's parameter (0 without one).
  double calibrated_share = 0;
  // Every averaged metric over the repeats, by its name in results.csv (n = 1 and sd = 0 when the
  // workload cannot depend on the seed: see ExperimentResult::seeded).
  std::map<std::string, Spread> spread;
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
  bool seeded = true;  // whether the workload's results can depend on the seed (repeats can differ)
  double cost_scale = 1.0;
  std::optional<sim::Picos> user_time;  // the calibrated user time per operation, if that was fitted
  std::optional<CalibrationResult> calibration;
  std::vector<PointResult> points;
  std::vector<Row> rows;
  double host_seconds = 0;
};

using Progress = std::function<void(std::size_t done, std::size_t total, const std::string& what)>;

// Thrown when `cancel` was set (Ctrl-C, SIGTERM): points in flight stop at their next system
// call, no new one starts.
struct Interrupted : std::runtime_error {
  Interrupted() : std::runtime_error("interrupted") {}
};

// The seed of one point: a function of the experiment's seed and the point itself (the kernel's
// label, the thread count, the repeat), never of its position in a list, so adding or removing a
// kernel or a thread count leaves every other point's result as it was.
std::uint64_t point_seed(std::uint64_t seed, const std::string& label, std::uint32_t threads, std::uint32_t repeat);

// Runs every point. `cancel` (Ctrl-C) stops the points in flight at their next system call and
// throws Interrupted; the runner also sets it when a point fails, to stop the others.
ExperimentResult run_experiment(const ExperimentSpec& spec, const std::string& config_root, unsigned jobs,
                                const Progress& progress = {}, std::atomic<bool>* cancel = nullptr);

// The predicted value of a published point's metric from the rows (NaN when absent).
double predicted(const ExperimentResult& r, const PublishedPoint& p);

}  // namespace walksim::experiment
