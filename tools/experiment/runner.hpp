// Runs an experiment: every (kernel, thread count, repeat) point as an independent simulation,
// in parallel on `jobs` host threads with results identical to one job; the declared calibration
// first, if any. Reduces the points to the metrics users read (throughput, ns/op, scaling %, time
// accounting, atomics per op, fallbacks, hot lines).
#pragma once

#include <atomic>
#include <cmath>
#include <functional>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tools/experiment/experiment_spec.hpp"
#include "tools/experiment/metrics.hpp"

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

// The metrics of one (kernel, threads) over its repeats.
struct Row {
  std::string kernel;
  std::uint32_t threads = 0;
  std::string throughput_unit;  // MB/s when the workload reports bytes, else "<op_unit>/s"
  std::string op_unit;
  // Every metric of metric_defs() the row carries, by its name: the mean over the repeats (the
  // sum or the largest for counts, as the table says) and its spread. Counts of one repeat or of
  // a workload that cannot depend on its seed have n = 1 and sd = 0.
  std::map<std::string, Spread, std::less<>> metrics;  // std::less<>: looked up by string_view
  kernel::WalkStats walk;                              // summed over the repeats
  std::vector<workload::HotLine> hot;                  // of the first repeat

  // The value of a metric the row carries (std::logic_error for one it does not).
  double value(std::string_view metric) const;
  const Spread& spread(std::string_view metric) const;
  bool has(std::string_view metric) const { return metrics.find(metric) != metrics.end(); }
};

struct CalibrationResult {
  std::string parameter;
  double value = 1.0;                  // cpu_cost_scale: a factor; user_time: microseconds per operation
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

// What the runner is doing: a point started on a worker, or finished. Calls are serialised.
struct ProgressEvent {
  bool started = false;             // true: `point` starts on `worker`; false: it finished
  std::size_t done = 0, total = 0;  // points finished so far, of the run's points
  unsigned worker = 0;              // the host thread it runs on (0 .. jobs-1)
  std::string point;                // "linux-2.6.35 x64", "linux-2.6.35 x64 repeat 2"
  std::string phase;                // "calibration" while the declared fit runs its points, else ""
  std::string where;                // the worker's name when the points run elsewhere ("rank 2"), else ""
};
using Progress = std::function<void(const ProgressEvent&)>;

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
// Points simulated by other processes (MPI ranks: docs/experiments.md, "Many hosts"). The runner
// hands out one point at a time to each worker as it frees up (points differ a thousandfold in
// cost), as text; a reply is the point's result or its error, as text.
class RemotePoints {
 public:
  virtual ~RemotePoints() = default;
  virtual unsigned workers() const = 0;
  virtual std::string worker_name(unsigned worker) const = 0;  // "rank 2"
  virtual void send(unsigned worker, const std::string& job) = 0;
  // The next reply from any worker, or nullopt once `stop` is set (Ctrl-C, a dead rank's job torn down).
  virtual std::optional<std::pair<unsigned, std::string>> receive(const std::atomic<bool>& stop) = 0;
};

// A worker's side: the jobs rank 0 sends, until it says stop.
class PointServer {
 public:
  virtual ~PointServer() = default;
  virtual std::optional<std::string> next_job() = 0;  // nullopt: stop
  virtual void reply(const std::string& result) = 0;
};

// Serves the points of `spec` (the same experiment rank 0 runs) until told to stop. A point that
// fails replies its error; rank 0 reports it as its own.
void serve_points(const ExperimentSpec& spec, const std::string& config_root, PointServer& server,
                  std::atomic<bool>* cancel = nullptr);

// Thrown by run_experiment with remote points when it was stopped with points in flight: says which
// worker was running which point.
struct InterruptedRemote : Interrupted {
  explicit InterruptedRemote(std::string in_flight) : where(std::move(in_flight)) {}
  std::string where;  // "rank 1 was running linux-2.6.35 x4; rank 2 was running ..."
};

// With `journal` (--resume), points already in it are taken from it and every point simulated is
// recorded in it as it finishes. With `remote`, the points run on its workers instead of `jobs`
// host threads; the results are the same, byte for byte.
class Journal;
ExperimentResult run_experiment(const ExperimentSpec& spec, const std::string& config_root, unsigned jobs,
                                const Progress& progress = {}, std::atomic<bool>* cancel = nullptr,
                                Journal* journal = nullptr, RemotePoints* remote = nullptr);

// The predicted value of a published point's metric from the rows (NaN when absent).
double predicted(const ExperimentResult& r, const PublishedPoint& p);

}  // namespace walksim::experiment
