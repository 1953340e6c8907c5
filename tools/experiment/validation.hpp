// `walksim validate`: runs every experiment in experiments/validation/, compares each published
// figure with the prediction, marks which figures were calibration inputs and how much of each
// prediction the calibrated parameter supplies, and renders the table (text, JSON, and the
// markdown of docs/validation.md).
#pragma once

#include <atomic>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "tools/experiment/runner.hpp"

namespace walksim::experiment {

// How much a prediction moves when the kernel's private CPU costs are scaled by 1 - pct/100 and
// 1 + pct/100, every other input held (a fitted cpu_cost_scale is held at its fitted value times the
// factor; a fitted user time is fitted again). A prediction made of private work alone moves by about
// pct (elasticity 1); queueing near saturation amplifies that; a prediction that moves by more than
// kUnstableElasticity x pct sits on a regime boundary (a contended line's owner window won or lost,
// a convoy forming or not), and its agreement with the published figure, good or bad, says little.
struct Sensitivity {
  static constexpr double kUnstableElasticity = 4.0;
  double pct = 0;
  double low = 0;         // the prediction with the private costs scaled by 1 - pct/100
  double high = 0;        // ... by 1 + pct/100
  double elasticity = 0;  // max |relative change| over pct/100
  bool stable() const { return elasticity <= kUnstableElasticity; }
};

// The same figure predicted with an approximate run-ahead window (--run-ahead W), beside the
// exact prediction: how far the approximation moves it, and whether it would still pass.
struct Approximation {
  double predicted = 0;
  double error_pct = 0;     // against the published figure, as ValidationRow::error_pct
  double vs_exact_pct = 0;  // (approximate - exact) / exact; for scaling_pct: points
  bool pass = false;
};

struct ValidationRow {
  std::string id;  // the experiment's name
  std::string machine;
  std::string metric;
  std::string kernel;
  std::uint32_t threads = 0;
  double published = 0;
  double predicted = 0;
  double predicted_sd = 0;  // over the experiment's repeats (0 for a workload that ignores the seed)
  std::size_t repeats = 1;
  double error_pct = 0;  // (predicted - published) / published; for scaling_pct: points
  std::string unit;
  std::string role;  // calibration | prediction
  // The share of the point's time spent in the calibrated parameter (user time, or the kernel's
  // private CPU work), when the experiment declares a calibration: the larger it is, the less the
  // prediction tests the model. (For scaling: at the row's thread count.)
  std::string calibrated_parameter;
  double calibrated_share = 0;
  double tolerance_pct = 0;
  bool pass = false;
  std::string source;
  std::optional<Sensitivity> sensitivity;  // with run_validation's sensitivity_pct > 0
  std::optional<Approximation> approx;     // with run_validation's run_ahead > 0
};

// How many of one experiment file's rows are within their tolerance.
struct ExperimentTally {
  std::string id;
  std::size_t passed = 0;
  std::size_t figures = 0;
};

struct ValidationReport {
  std::vector<ValidationRow> rows;
  std::vector<ExperimentResult> experiments;
  std::string base;            // the repository's root: files are shown relative to it
  double sensitivity_pct = 0;  // > 0: the rows carry their Sensitivity at this change
  sim::Picos run_ahead = 0;    // > 0: the rows carry their Approximation with this run-ahead window
  std::size_t failures() const;
  std::size_t approx_failures() const;  // rows whose approximate prediction is outside the tolerance
  std::size_t unstable() const;         // rows whose sensitivity says they sit on a regime boundary
  // Per experiment, in the order the rows are: what an issue's criterion counts (e.g. the SSYNC
  // figures), which the total over every file hides.
  std::vector<ExperimentTally> by_experiment() const;
};

// `base`: the directory the experiment paths are shown relative to. `cancel` as for run_experiment.
// `progress` sees each experiment's points, its phase prefixed with the experiment's name.
// `sensitivity_pct` > 0: each experiment also runs with its private costs scaled down and up by that
// many percent, and each row says how far its prediction moved (Sensitivity). `run_ahead` > 0: each
// experiment also runs with the executor's run-ahead of that window, and each row gives the
// approximate prediction beside the exact one (Approximation); pass and fail stay the exact model's.
// `run_ahead` < 0 (Executor::kRunAheadOff): the exact figures are stepped without running ahead.
ValidationReport run_validation(const std::vector<std::string>& files, const std::string& config_root, unsigned jobs,
                                const std::string& base = "", std::atomic<bool>* cancel = nullptr,
                                const Progress& progress = {}, double sensitivity_pct = 0, sim::Picos run_ahead = 0);
void print_validation(const ValidationReport& r, std::ostream& out);
nlohmann::json validation_json(const ValidationReport& r);
std::string validation_markdown(const ValidationReport& r);

}  // namespace walksim::experiment
