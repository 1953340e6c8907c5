// Prints the ticket-lock Markov model as a table (one row per core count) or as JSON (--json).
#include "tools/walksim/model_command.hpp"

#include <fmt/core.h>

#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "models/config/units.hpp"
#include "models/sync/ticket_markov.hpp"

namespace walksim::cli {
namespace {

struct TicketOpts {
  std::uint32_t cores = 48;
  std::string think = "10us";
  std::string hold = "200ns";
  std::string handoff = "100ns";
  bool json = false;
};

sim::Picos parse_option_time(const std::string& flag, const std::string& text) {
  try {
    return config::parse_time(text);
  } catch (const config::UnitError& e) {
    throw CLI::ValidationError(flag, e.what());
  }
}

void run_ticketlock(const TicketOpts& o) {
  const sim::Picos think = parse_option_time("--think", o.think);
  const sim::Picos hold = parse_option_time("--hold", o.hold);
  const sim::Picos handoff = parse_option_time("--handoff", o.handoff);
  const auto rows = sync::ticket_model_sweep(o.cores, think, hold, handoff);
  if (o.json) {
    nlohmann::json j;
    j["model"] = "ticketlock";
    j["citation"] = "Boyd-Wickizer, Kaashoek, Morris, Zeldovich: Non-scalable locks are dangerous (2012)";
    j["think_ns"] = sim::to_ns(think);
    j["hold_ns"] = sim::to_ns(hold);
    j["handoff_ns"] = sim::to_ns(handoff);
    j["rows"] = nlohmann::json::array();
    for (const auto& r : rows) {
      j["rows"].push_back({{"cores", r.cores},
                           {"throughput_per_s", r.throughput},
                           {"speedup", r.speedup},
                           {"useful_cores", r.useful_cores},
                           {"mean_queue", r.mean_queue},
                           {"mean_waiting", r.mean_waiting},
                           {"distribution", r.distribution}});
    }
    std::cout << j.dump(2) << "\n";
    return;
  }
  fmt::print(
      "ticket-lock Markov model (Boyd-Wickizer et al. 2012): think a = {} ns, hold s = {} ns, "
      "hand-off c = {} ns\n",
      sim::to_ns(think), sim::to_ns(hold), sim::to_ns(handoff));
  fmt::print("arrivals (n-k)/a, service 1/(s + c*k/2); speed-up is throughput relative to one core\n");
  fmt::print("{:>5} {:>16} {:>9} {:>13} {:>13}\n", "cores", "acquires/s", "speed-up", "mean waiting", "useful cores");
  for (const auto& r : rows) {
    fmt::print("{:>5} {:>16.4g} {:>9.2f} {:>13.2f} {:>13.2f}\n", r.cores, r.throughput, r.speedup, r.mean_waiting,
               r.useful_cores);
  }
}

}  // namespace

void add_model_command(CLI::App& app) {
  auto* model = app.add_subcommand("model", "Analytic models, solved without simulating");
  model->require_subcommand(1);
  auto* ticket = model->add_subcommand(
      "ticketlock", "Markov model of ticket-spinlock collapse (Boyd-Wickizer et al. 2012) for 1..N cores");
  auto opts = std::make_shared<TicketOpts>();
  ticket->add_option("--cores,-n", opts->cores, "Largest number of cores (rows go from 1 to N)")
      ->check(CLI::Range(1, 4096))
      ->capture_default_str();
  ticket->add_option("--think,-a", opts->think, "Mean time between a core's release and its next acquire")
      ->capture_default_str();
  ticket->add_option("--hold,-s", opts->hold, "Time the lock is held (critical section)")->capture_default_str();
  ticket->add_option("--handoff,-c", opts->handoff, "Time to move the lock's cacheline to one waiter")
      ->capture_default_str();
  ticket->add_flag("--json", opts->json, "Print JSON instead of a table");
  ticket->callback([opts] { run_ticketlock(*opts); });
}

}  // namespace walksim::cli
