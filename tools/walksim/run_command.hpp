// `walksim run EXPERIMENT.yaml`: runs an experiment and writes its results.
#pragma once

#include <CLI/CLI.hpp>

namespace walksim::cli {

struct GlobalOptions;
void add_run_command(CLI::App& app, const GlobalOptions& global);
void add_validate_command(CLI::App& app, const GlobalOptions& global);
void add_bench_command(CLI::App& app, const GlobalOptions& global);

}  // namespace walksim::cli
