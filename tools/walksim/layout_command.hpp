// `walksim layout import|show|diff|move`: kernel struct layouts from BTF, read, compared and edited.
#pragma once

#include <CLI/CLI.hpp>

namespace walksim::cli {

struct GlobalOptions;
void add_layout_command(CLI::App& app, const GlobalOptions& global);

}  // namespace walksim::cli
