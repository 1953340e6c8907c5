// `walksim run EXPERIMENT.yaml` (run_command.cpp), `walksim validate` (validate_command.cpp) and
// `walksim bench` (bench_command.cpp).
#pragma once

#include <CLI/CLI.hpp>
#include <stdexcept>

namespace walksim::cli {

struct GlobalOptions;
void add_run_command(CLI::App& app, const GlobalOptions& global);
void add_validate_command(CLI::App& app, const GlobalOptions& global);
void add_bench_command(CLI::App& app, const GlobalOptions& global);
// walksim metrics | workloads | locks | protocols (registry_command.cpp).
void add_registry_commands(CLI::App& app);

// `validate --strict` found a figure outside its tolerance: exit code 1 (the report is printed).
struct StrictFailure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace walksim::cli
