// `walksim trace`: the operations of one system call on one kernel variant; `walksim kernels`.
#pragma once

#include <CLI/CLI.hpp>

namespace walksim::cli {

struct GlobalOptions;
void add_trace_command(CLI::App& app, const GlobalOptions& global);
void add_kernels_command(CLI::App& app, const GlobalOptions& global);

}  // namespace walksim::cli
