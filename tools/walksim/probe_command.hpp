// `walksim probe`: the latency table and ping-pong round trips of one machine (or all of them).
#pragma once

#include <CLI/CLI.hpp>

namespace walksim::cli {

struct GlobalOptions;
void add_probe_command(CLI::App& app, const GlobalOptions& global);
void add_machines_command(CLI::App& app, const GlobalOptions& global);

}  // namespace walksim::cli
