// Everything an experiment writes: the summary on stdout, results.csv (long format, with each
// metric's spread over the repeats), results.json (resolved configuration, every metric and every
// repeat, deterministic), meta.json (host, time), hotlines.csv, and gnuplot plots (plots.hpp), into
// an OutputDir (output_dir.hpp).
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>
#include <string>

#include "tools/experiment/output_dir.hpp"
#include "tools/experiment/runner.hpp"

namespace walksim::experiment {

void print_summary(const ExperimentResult& r, std::ostream& out);
nlohmann::json results_json(const ExperimentResult& r, const std::string& version);

// Writes results.csv, results.json, meta.json, hotlines.csv and the plots into `dir`; returns a
// note about the plots (written, or why not).
std::string write_outputs(const ExperimentResult& r, const OutputDir& dir, const std::string& version,
                          const std::string& command_line);

}  // namespace walksim::experiment
