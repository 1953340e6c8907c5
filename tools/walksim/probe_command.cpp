// Prints the probe report as an aligned text table (default) or as JSON (--json).
#include "tools/walksim/probe_command.hpp"

#include <fmt/core.h>

#include <iostream>
#include <map>
#include <nlohmann/json.hpp>

#include "models/machine/machine.hpp"
#include "models/machine/machine_loader.hpp"
#include "models/probe/latency_probe.hpp"
#include "tools/walksim/config_paths.hpp"
#include "tools/walksim/global_options.hpp"

namespace walksim::cli {

nlohmann::json probe_to_json(const probe::ProbeReport& r) {
  nlohmann::json j;
  j["machine"] = r.machine;
  j["entries"] = nlohmann::json::array();
  for (const auto& e : r.entries) {
    j["entries"].push_back({{"op", e.op},
                            {"state", e.state},
                            {"holder", e.holder},
                            {"home", e.home},
                            {"home_node", e.home_node},
                            {"holder_cpu", e.holder_cpu},
                            {"ns", sim::to_ns(e.latency)},
                            {"cycles", std::round(e.cycles * 10) / 10}});
  }
  j["pingpong"] = nlohmann::json::array();
  for (const auto& p : r.pingpong) {
    j["pingpong"].push_back(
        {{"distance", p.distance}, {"partner_cpu", p.partner_cpu}, {"round_trip_ns", sim::to_ns(p.round_trip)}});
  }
  return j;
}

// One row per (op, state, home), one column per holder: the layout of published latency tables.
void print_probe_table(const probe::ProbeReport& r, const machine::Machine& m) {
  std::vector<std::string> holders;
  for (const auto& e : r.entries) {
    if (std::find(holders.begin(), holders.end(), e.holder) == holders.end() && e.holder != "none") {
      holders.push_back(e.holder);
    }
  }
  fmt::print("machine {} ({} CPUs, {:.2f} GHz): latency in ns (cycles) of one operation by CPU 0\n", r.machine,
             m.cpus(), m.spec().clock_hz / 1e9);
  fmt::print("{:<6} {:<5} {:<7}", "op", "state", "home");
  for (const auto& h : holders) fmt::print(" {:>22}", "holder " + h);
  fmt::print("\n");
  std::map<std::tuple<std::string, std::string, std::string>, std::map<std::string, const probe::ProbeEntry*>> rows;
  std::vector<std::tuple<std::string, std::string, std::string>> order;
  for (const auto& e : r.entries) {
    auto key = std::make_tuple(e.op, e.state, e.home);
    if (!rows.count(key)) order.push_back(key);
    rows[key][e.holder == "none" ? holders.front() : e.holder] = &e;
  }
  for (const auto& key : order) {
    const auto& [op, state, home] = key;
    fmt::print("{:<6} {:<5} {:<7}", op, state == "I" ? "I(mem)" : state, home);
    for (const auto& h : holders) {
      auto it = rows[key].find(h);
      if (it == rows[key].end()) {
        fmt::print(" {:>22}", "-");
      } else {
        fmt::print(" {:>22}", fmt::format("{:.1f} ({:.0f})", sim::to_ns(it->second->latency), it->second->cycles));
      }
    }
    fmt::print("\n");
  }
  fmt::print("\nping-pong round trip (two threads alternately writing one line homed on CPU 0's node):\n");
  for (const auto& p : r.pingpong) {
    fmt::print("  CPU 0 <-> CPU {:<4} {:<22} {:8.1f} ns\n", p.partner_cpu, p.distance, sim::to_ns(p.round_trip));
  }
}

void add_probe_command(CLI::App& app, const GlobalOptions& global) {
  auto* cmd = app.add_subcommand("probe",
                                 "Latency of load/store/CAS by line state, holder distance and home, "
                                 "and ping-pong round trips, measured on the simulator");
  struct Opts {
    std::string machine;
    bool all = false;
    bool json = false;
  };
  auto opts = std::make_shared<Opts>();
  cmd->add_option("--machine,-m", opts->machine, "Machine name (configs/machines/NAME.yaml) or path to a YAML");
  cmd->add_flag("--all", opts->all, "Probe every machine in configs/machines");
  cmd->add_flag("--json", opts->json, "Print JSON instead of a table");
  cmd->callback([opts, &global] {
    const auto dirs = machine_dirs(resolve_config_root(global.configs));
    std::vector<std::string> names;
    if (opts->all) {
      names = machine::list_machines(dirs);
    } else if (!opts->machine.empty()) {
      names.push_back(opts->machine);
    } else {
      throw CLI::ValidationError("probe", "give --machine NAME or --all");
    }
    nlohmann::json all = nlohmann::json::array();
    for (const auto& name : names) {
      machine::Machine m(machine::load_machine(name, dirs));
      const auto report = probe::run_latency_probe(m);
      if (opts->json) {
        all.push_back(probe_to_json(report));
      } else {
        print_probe_table(report, m);
        fmt::print("\n");
      }
    }
    if (opts->json) std::cout << (opts->all ? all : all[0]).dump(2) << "\n";
  });
}

void add_machines_command(CLI::App& app, const GlobalOptions& global) {
  auto* cmd = app.add_subcommand("machines", "List the machines in configs/machines");
  cmd->callback([&global] {
    const auto dirs = machine_dirs(resolve_config_root(global.configs));
    for (const auto& name : machine::list_machines(dirs)) {
      const auto spec = machine::load_machine(name, dirs);
      fmt::print("{:<22} {:>4} CPUs  {}\n", name, spec.cpus(), spec.description);
    }
  });
}

}  // namespace walksim::cli
