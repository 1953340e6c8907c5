// Everything an experiment writes: the summary on stdout, results.csv (long format),
// results.json (resolved configuration and every metric, deterministic), meta.json (host, time),
// hotlines.csv, and gnuplot plots. Output goes to a temporary directory that is renamed into
// place only when everything is written, so a failed or interrupted run leaves nothing half-done.
#pragma once

#include <ostream>
#include <string>

#include <nlohmann/json.hpp>

#include "tools/experiment/runner.hpp"

namespace walksim::experiment {

void print_summary(const ExperimentResult& r, std::ostream& out);
nlohmann::json results_json(const ExperimentResult& r, const std::string& version);

// A directory filled under a temporary name and renamed to `final_path` by commit(); destroyed
// uncommitted, it removes what it wrote.
class OutputDir {
 public:
  explicit OutputDir(std::string final_path);
  ~OutputDir();
  OutputDir(const OutputDir&) = delete;
  OutputDir& operator=(const OutputDir&) = delete;
  const std::string& tmp() const { return tmp_; }
  std::string file(const std::string& name) const { return tmp_ + "/" + name; }
  void commit();

 private:
  std::string final_;
  std::string tmp_;
  bool committed_ = false;
};

// Writes results.csv, results.json, meta.json, hotlines.csv and the plots into `dir`; returns a
// note about the plots (written, or why not).
std::string write_outputs(const ExperimentResult& r, const OutputDir& dir, const std::string& version,
                          const std::string& command_line);

}  // namespace walksim::experiment
