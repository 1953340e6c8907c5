// `walksim probe`: the latency table and ping-pong round trips of one machine (or all of them).
#pragma once

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "models/machine/machine.hpp"
#include "models/probe/latency_probe.hpp"

namespace walksim::cli {

struct GlobalOptions;
void add_probe_command(CLI::App& app, const GlobalOptions& global);
void add_machines_command(CLI::App& app, const GlobalOptions& global);
nlohmann::json probe_to_json(const probe::ProbeReport& r);
void print_probe_table(const probe::ProbeReport& r, const machine::Machine& m);

}  // namespace walksim::cli
