// Progress on stderr when it is a terminal, the summary on stdout, files under --out.
#include "tools/walksim/run_command.hpp"

#include <fmt/core.h>
#include <unistd.h>

#include <algorithm>
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
#include "tools/walksim/version.hpp"

namespace walksim::cli {

void add_run_command(CLI::App& app, const GlobalOptions& global) {
  auto* cmd = app.add_subcommand("run", "Run an experiment YAML: summary table, results.csv/json, plots, hot lines");
  struct Opts {
    std::string file;
    std::string out;
    unsigned jobs = std::max(1u, std::thread::hardware_concurrency());
    bool quiet = false;
  };
  auto o = std::make_shared<Opts>();
  cmd->add_option("experiment", o->file, "The experiment YAML")->required();
  cmd->add_option("--out,-o", o->out, "Results directory (default: results/<experiment name>)");
  cmd->add_option("--jobs,-j", o->jobs, "Points simulated in parallel (results do not depend on it)")
      ->check(CLI::Range(1u, 1024u))
      ->capture_default_str();
  cmd->add_flag("--quiet,-q", o->quiet, "No progress on stderr");
  cmd->callback([o, &global, cmd] {
    const std::string root = resolve_config_root(global.configs);
    const auto spec = experiment::load_experiment(o->file, root);
    const std::string out = o->out.empty() ? "results/" + spec.name : o->out;
    experiment::OutputDir dir(out);
    const bool tty = !o->quiet && isatty(STDERR_FILENO);
    const auto result = experiment::run_experiment(spec, root, o->jobs, [&](std::size_t d, std::size_t n, const std::string& what) {
      if (tty) fmt::print(stderr, "\r[{}/{}] {:<40}", d, n, what);
    });
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
  };
  auto o = std::make_shared<Opts>();
  cmd->add_flag("--json", o->json, "Print JSON");
  cmd->add_option("--scenario", o->only, "Run only these scenarios")->check(CLI::IsMember(experiment::bench_scenarios()));
  cmd->callback([o, &global] {
    const auto r = experiment::run_bench(resolve_config_root(global.configs), o->only);
    if (o->json) {
      std::cout << experiment::bench_json(r).dump(2) << "\n";
    } else {
      experiment::print_bench(r, std::cout);
    }
  });
}

}  // namespace walksim::cli
