// `walksim bench`: the simulator's own speed on fixed scenarios (docs/performance.md).
#include <iostream>

#include "tools/experiment/bench.hpp"
#include "tools/walksim/config_paths.hpp"
#include "tools/walksim/global_options.hpp"
#include "tools/walksim/run_ahead_option.hpp"
#include "tools/walksim/run_command.hpp"

namespace walksim::cli {

void add_bench_command(CLI::App& app, const GlobalOptions& global) {
  auto* cmd = app.add_subcommand("bench",
                                 "Time the simulator on fixed scenarios (mem ops/s, events/s, overhead over "
                                 "the generation floor, peak RSS)");
  struct Opts {
    bool json = false;
    std::vector<std::string> only;
    unsigned repeat = 1;
    std::string run_ahead;
  };
  auto o = std::make_shared<Opts>();
  cmd->add_flag("--json", o->json, "Print JSON");
  cmd->add_option("--repeat", o->repeat,
                  "Time each scenario (and its floor) this many times and keep the fastest: host timings are noisy")
      ->check(CLI::Range(1u, 100u));
  cmd->add_option("--scenario", o->only, "Run only these scenarios")
      ->check(CLI::IsMember(experiment::bench_scenarios()));
  add_run_ahead_option(cmd, o->run_ahead);
  cmd->callback([o, &global] {
    const sim::Picos run_ahead = run_ahead_window(o->run_ahead);
    const auto r = experiment::run_bench(resolve_config_root(global.configs), o->only, o->repeat, run_ahead);
    if (o->json) {
      std::cout << experiment::bench_json(r).dump(2) << "\n";
    } else {
      experiment::print_bench(r, std::cout);
    }
  });
}

}  // namespace walksim::cli
