// `walksim validate`: runs every experiment in experiments/validation/, compares each published
// figure with the prediction, marks which figures were calibration inputs and how much of each
// prediction the calibrated parameter supplies, and renders the table (text, JSON, and the
// markdown of docs/validation.md).
#pragma once

#include <atomic>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tools/experiment/runner.hpp"

namespace walksim::experiment {

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
};

struct ValidationReport {
  std::vector<ValidationRow> rows;
  std::vector<ExperimentResult> experiments;
  std::string base;  // the repository's root: files are shown relative to it
  std::size_t failures() const;
};

// `base`: the directory the experiment paths are shown relative to. `cancel` as for run_experiment.
// `progress` sees each experiment's points, its phase prefixed with the experiment's name.
ValidationReport run_validation(const std::vector<std::string>& files, const std::string& config_root, unsigned jobs,
                                const std::string& base = "", std::atomic<bool>* cancel = nullptr,
                                const Progress& progress = {});
void print_validation(const ValidationReport& r, std::ostream& out);
nlohmann::json validation_json(const ValidationReport& r);
std::string validation_markdown(const ValidationReport& r);

}  // namespace walksim::experiment
