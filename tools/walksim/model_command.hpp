// `walksim model ...`: analytic models run without a simulation. Today one: `model ticketlock`, the
// Boyd-Wickizer et al. (2012) Markov model of ticket-lock collapse, for 1..N cores.
#pragma once

#include <CLI/CLI.hpp>

namespace walksim::cli {

void add_model_command(CLI::App& app);

}  // namespace walksim::cli
