// Progress on stderr when it is a terminal, the summary on stdout, files under --out.
#include "tools/walksim/run_command.hpp"

#include <fmt/core.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <thread>

#include "models/config/config_error.hpp"
#include "tools/experiment/bench.hpp"
#include "tools/experiment/experiment_spec.hpp"
#include "tools/experiment/validation.hpp"
#include "tools/experiment/writers.hpp"
#include "tools/walksim/config_paths.hpp"
#include "tools/walksim/global_options.hpp"
#include "tools/walksim/probe_command.hpp"
#include "models/machine/machine_loader.hpp"
#include "models/config/strict_yaml.hpp"
#include "tools/walksim/version.hpp"

namespace walksim::cli {

namespace {
// Set by SIGINT/SIGTERM; a signal handler can only reach static storage.
std::atomic<bool> g_cancel{false};
extern "C" void on_signal(int) { g_cancel = true; }

void install_signal_handlers() {
  struct sigaction sa {};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
}

// An experiment of latency probes: `probe: {machines: all | [names]}` instead of a workload.
void run_probe_experiment(const std::string& file, const std::string& out_flag, const std::string& root) {
  const config::Node yaml = config::load_file(file);
  const std::string name = yaml.child("name").as_string();
  yaml.child("description").as_string();
  const config::Node probe = yaml.child("probe");
  const config::Node which = probe.child("machines");
  std::vector<std::string> machines;
  const auto dirs = machine_dirs(root);
  if (which.is_scalar() && which.as_string() == "all") {
    machines = machine::list_machines(dirs);
  } else if (which.is_sequence()) {
    for (const auto& m : which.elements()) machines.push_back(m.as_string());
  } else {
    which.fail("expected 'all' or a list of machine names");
  }
  yaml.finish();
  experiment::OutputDir dir(out_flag.empty() ? "results/" + name : out_flag);
  nlohmann::json all = nlohmann::json::array();
  for (const auto& mname : machines) {
    machine::Machine m(machine::load_machine(mname, dirs));
    const auto report = probe::run_latency_probe(m);
    print_probe_table(report, m);
    fmt::print("\n");
    all.push_back(probe_to_json(report));
  }
  std::ofstream(dir.file("results.json")) << nlohmann::json{{"probes", all}}.dump(2) << "\n";
  dir.commit();
  fmt::print("results in {}/results.json\n", out_flag.empty() ? "results/" + name : out_flag);
}
}  // namespace

void add_run_command(CLI::App& app, const GlobalOptions& global) {
  auto* cmd = app.add_subcommand("run", "Run an experiment YAML: summary table, results.csv/json, plots, hot lines");
  struct Opts {
    std::string file;
    std::string out;
    unsigned jobs = std::max(1u, std::thread::hardware_concurrency());
    bool quiet = false;
    bool check = false;
  };
  auto o = std::make_shared<Opts>();
  cmd->add_option("experiment", o->file, "The experiment YAML")->required();
  cmd->add_flag("--check", o->check,
                "Check the coherence invariants (single writer, directory agrees with caches, every copy current) "
                "after every memory access; slow");
  cmd->add_option("--out,-o", o->out, "Results directory (default: results/<experiment name>)");
  cmd->add_option("--jobs,-j", o->jobs, "Points simulated in parallel (results do not depend on it)")
      ->check(CLI::Range(1u, 1024u))
      ->capture_default_str();
  cmd->add_flag("--quiet,-q", o->quiet, "No progress on stderr");
  cmd->callback([o, &global, cmd] {
    const std::string root = resolve_config_root(global.configs);
    if (config::load_file(o->file).has("probe")) return run_probe_experiment(o->file, o->out, root);
    auto spec = experiment::load_experiment(o->file, root);
    spec.check = o->check;
    const std::string out = o->out.empty() ? "results/" + spec.name : o->out;
    experiment::OutputDir dir(out);
    const bool tty = !o->quiet && isatty(STDERR_FILENO);
    install_signal_handlers();
    const auto result = experiment::run_experiment(
        spec, root, o->jobs,
        [&](std::size_t d, std::size_t n, const std::string& what) {
          if (tty) fmt::print(stderr, "\r[{}/{}] {:<40}", d, n, what);
        },
        &g_cancel);
    if (tty) fmt::print(stderr, "\r{:<60}\r", "");
    experiment::print_summary(result, std::cout);
    std::string command = "walksim run " + o->file;
    const std::string plots = experiment::write_outputs(result, dir, kVersion, command);
    dir.commit();
    fmt::print("\nresults in {}/ (results.csv, results.json, hotlines.csv, meta.json); {}\n", out, plots);
    (void)cmd;
  });
}

}  // namespace walksim::cli

namespace walksim::cli {

void add_validate_command(CLI::App& app, const GlobalOptions& global) {
  auto* cmd = app.add_subcommand("validate", "Run experiments/validation/*.yaml against the published numbers and "
                                             "write docs/validation.md");
  struct Opts {
    bool json = false;
    std::string dir;
    std::string doc;
    unsigned jobs = std::max(1u, std::thread::hardware_concurrency());
  };
  auto o = std::make_shared<Opts>();
  cmd->add_flag("--json", o->json, "Print JSON");
  cmd->add_option("--dir", o->dir, "Directory of validation experiments (default: experiments/validation of the source tree)");
  cmd->add_option("--doc", o->doc, "Where to write the markdown report (default: docs/validation.md of the source tree)");
  cmd->add_option("--jobs,-j", o->jobs, "Points simulated in parallel")->check(CLI::Range(1u, 1024u));
  cmd->callback([o, &global] {
    const std::string root = resolve_config_root(global.configs);
    const std::filesystem::path base = std::filesystem::path(root).parent_path();
    const std::string dir = o->dir.empty() ? (base / "experiments" / "validation").string() : o->dir;
    std::vector<std::string> files;
    std::error_code ec;
    for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
      if (it->path().extension() == ".yaml") files.push_back(it->path().string());
    }
    if (ec || files.empty()) throw config::ConfigError({}, "--dir", "no validation experiments (*.yaml) in " + dir);
    std::sort(files.begin(), files.end());
    const auto report = experiment::run_validation(files, root, o->jobs);
    if (o->json) {
      std::cout << experiment::validation_json(report).dump(2) << "\n";
    } else {
      experiment::print_validation(report, std::cout);
    }
    const std::string doc = o->doc.empty() ? (base / "docs" / "validation.md").string() : o->doc;
    const std::string tmp = doc + ".tmp";
    {
      std::ofstream f(tmp);
      f << experiment::validation_markdown(report);
      if (!f) throw std::runtime_error("cannot write " + tmp);
    }
    std::filesystem::rename(tmp, doc);
    if (!o->json) fmt::print("wrote {}\n", doc);
  });
}

}  // namespace walksim::cli

namespace walksim::cli {

void add_bench_command(CLI::App& app, const GlobalOptions& global) {
  auto* cmd = app.add_subcommand("bench", "Time the simulator on fixed scenarios (mem ops/s, events/s, overhead over "
                                          "the generation floor, peak RSS)");
  struct Opts {
    bool json = false;
    std::vector<std::string> only;
    unsigned repeat = 1;
  };
  auto o = std::make_shared<Opts>();
  cmd->add_flag("--json", o->json, "Print JSON");
  cmd->add_option("--repeat", o->repeat,
                  "Time each scenario (and its floor) this many times and keep the fastest: host timings are noisy")
      ->check(CLI::Range(1u, 100u));
  cmd->add_option("--scenario", o->only, "Run only these scenarios")->check(CLI::IsMember(experiment::bench_scenarios()));
  cmd->callback([o, &global] {
    const auto r = experiment::run_bench(resolve_config_root(global.configs), o->only, o->repeat);
    if (o->json) {
      std::cout << experiment::bench_json(r).dump(2) << "\n";
    } else {
      experiment::print_bench(r, std::cout);
    }
  });
}

}  // namespace walksim::cli
