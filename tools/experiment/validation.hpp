// `walksim validate`: runs every experiment in experiments/validation/, compares each published
// figure with the prediction, marks which figures were calibration inputs, and renders the table
// (text, JSON, and docs/validation.md).
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tools/experiment/runner.hpp"

namespace walksim::experiment {

struct ValidationRow {
  std::string id;        // the experiment's name
  std::string metric;
  std::string kernel;
  std::uint32_t threads = 0;
  double published = 0;
  double predicted = 0;
  double error_pct = 0;  // (predicted - published) / published; for scaling_pct: points
  std::string unit;
  std::string role;      // calibration | prediction
  double tolerance_pct = 0;
  bool pass = false;
  std::string source;
};

struct ValidationReport {
  std::vector<ValidationRow> rows;
  std::vector<ExperimentResult> experiments;
};

ValidationReport run_validation(const std::vector<std::string>& files, const std::string& config_root, unsigned jobs);
void print_validation(const ValidationReport& r, std::ostream& out);
nlohmann::json validation_json(const ValidationReport& r);
std::string validation_markdown(const ValidationReport& r);

}  // namespace walksim::experiment
