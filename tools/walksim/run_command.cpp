// `walksim run`: checks the experiment and the results directory, simulates (progress on stderr
// when it is a terminal), writes and moves the results into place, and only then prints the
// summary on stdout, so that a closed pipe cannot lose them.
#include "tools/walksim/run_command.hpp"

#include <fmt/core.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <iostream>
#include <memory>
#include <optional>
#include <thread>

#include "models/config/strict_yaml.hpp"
#include "models/machine/machine_loader.hpp"
#include "tools/experiment/experiment_spec.hpp"
#include "tools/experiment/journal.hpp"
#include "tools/experiment/mpi_points.hpp"
#include "tools/experiment/output_dir.hpp"
#include "tools/experiment/progress_line.hpp"
#include "tools/experiment/writers.hpp"
#include "tools/walksim/config_paths.hpp"
#include "tools/walksim/global_options.hpp"
#include "tools/walksim/probe_command.hpp"
#include "tools/walksim/progress.hpp"
#include "tools/walksim/run_ahead_option.hpp"
#include "tools/walksim/signals.hpp"
#include "tools/walksim/version.hpp"

namespace walksim::cli {

namespace {

// Prints once the results are on disk: a reader that went away (`| head`) costs the summary, not
// the results (SIGPIPE is ignored, so the write fails instead of killing walksim).
void print_after_commit(const std::function<void()>& print, const std::string& where) {
  try {
    print();
    std::cout.flush();
    std::fflush(stdout);
  } catch (const std::exception&) {
    // fmt reports a failed write by throwing; the check below says what it means
  }
  if (!std::cout || std::ferror(stdout)) {
    std::fprintf(stderr, "walksim: stdout was closed early; the results are in %s/\n", where.c_str());
  }
}

// An experiment of latency probes: `probe: {machines: all | [names]}` instead of a workload.
void run_probe_experiment(const config::Node& yaml, const std::string& out_flag, bool force, const std::string& root) {
  const std::string name = experiment::checked_name(yaml.child("name"));
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
  const std::string out = out_flag.empty() ? "results/" + name : out_flag;
  experiment::OutputDir dir(out, force);
  auto& cancel = install_cancel_handlers();
  std::vector<std::pair<machine::Machine, probe::ProbeReport>> reports;
  nlohmann::json all = nlohmann::json::array();
  for (const auto& mname : machines) {
    if (cancel) throw experiment::Interrupted();
    machine::Machine m(machine::load_machine(mname, dirs));
    auto report = probe::run_latency_probe(m);
    all.push_back(probe_to_json(report));
    reports.emplace_back(std::move(m), std::move(report));
  }
  experiment::write_checked(dir.file("results.json"), nlohmann::json{{"probes", all}}.dump(2) + "\n");
  if (cancel) throw experiment::Interrupted();
  dir.commit();
  print_after_commit(
      [&] {
        for (const auto& [m, report] : reports) {
          print_probe_table(report, m);
          fmt::print("\n");
        }
        fmt::print("results in {}/results.json\n", out);
      },
      out);
}

struct RunOpts {
  std::string file;
  std::string out;
  unsigned jobs = std::max(1u, std::thread::hardware_concurrency());
  bool quiet = false;
  bool check = false;
  bool force = false;
  std::string resume;
  std::string run_ahead;  // --run-ahead (empty: exact)
};

// One experiment file, from its checks to the summary; `remote`: the points run on MPI ranks.
void run_file(const RunOpts& o, const std::string& root, experiment::RemotePoints* remote) {
  const config::Node yaml = config::load_file(o.file);
  if (!yaml.is_map()) {
    yaml.fail(std::string(yaml.is_null() ? "the file is empty: " : "") +
              "an experiment file is a mapping with name, description, machine, kernels, workload, threads, run "
              "(or probe) ...: see docs/experiments.md");
  }
  if (yaml.has("probe")) return run_probe_experiment(yaml, o.out, o.force, root);
  auto spec = experiment::load_experiment(o.file, root);
  spec.check = o.check;
  spec.run_ahead = run_ahead_window(o.run_ahead);
  const std::string out = o.out.empty() ? "results/" + spec.name : o.out;
  experiment::OutputDir dir(out, o.force);  // checked before anything is simulated
  std::unique_ptr<experiment::Journal> journal;
  if (!o.resume.empty()) {
    // An approximate run's points are not an exact run's: the window is part of what they belong to.
    const std::string version =
        spec.run_ahead > 0 ? fmt::format("{} run-ahead {} ps", kVersion, spec.run_ahead) : kVersion;
    journal = std::make_unique<experiment::Journal>(o.resume, experiment::run_fingerprint(o.file, root, version));
    if (!o.quiet && journal->size()) {
      fmt::print(stderr, "walksim: {} point(s) taken from the journal {}\n", journal->size(), o.resume);
    }
  }
  auto& cancel = install_cancel_handlers();
  experiment::ProgressLine line(std::cerr, stderr_is_terminal(), terminal_width());
  const auto result = experiment::run_experiment(
      spec, root, o.jobs,
      [&](const experiment::ProgressEvent& e) {
        if (!o.quiet) line.on(e);
      },
      &cancel, journal.get(), remote);
  line.finish();
  const std::string command = "walksim run " + o.file + (o.run_ahead.empty() ? "" : " --run-ahead " + o.run_ahead);
  const std::string plots = experiment::write_outputs(result, dir, kVersion, command);
  if (cancel) throw experiment::Interrupted();
  dir.commit();
  print_after_commit(
      [&] {
        experiment::print_summary(result, std::cout);
        std::cout << fmt::format("\nresults in {}/ (results.csv, results.json, hotlines.csv, meta.json); {}\n", out,
                                 plots);
      },
      out);
}

// walksim under mpirun. The ranks other than 0 load the same experiment and simulate the points rank
// 0 hands them until it says stop; rank 0 does everything else, as a run without mpirun does.
void run_under_mpi(const RunOpts& o, const std::string& root) {
  if (!experiment::mpi_built()) {
    throw config::ConfigError({}, "mpirun",
                              "this walksim was built without Open MPI (libopenmpi-dev): it cannot share the points "
                              "out; run it without mpirun, or rebuild after scripts/install-deps.sh");
  }
  experiment::MpiSession mpi;
  if (mpi.rank() != 0) {
    auto& cancel = install_cancel_handlers();
    const auto server = mpi.point_server();
    std::optional<experiment::ExperimentSpec> spec;
    std::string error;
    try {
      spec = experiment::load_experiment(o.file, root);
      spec->check = o.check;
      spec->run_ahead = run_ahead_window(o.run_ahead);
    } catch (const std::exception& e) {
      error = e.what();  // rank 0 finds the same mistake and reports it; until it says stop, say so
    }
    if (!spec) {
      while (server->next_job()) {
        server->reply(nlohmann::json{{"error", "rank " + std::to_string(mpi.rank()) + ": " + error}}.dump());
      }
      return;
    }
    experiment::serve_points(*spec, root, *server, &cancel);
    return;
  }
  try {
    const auto remote = mpi.remote_points();
    run_file(o, root, remote.get());
  } catch (const experiment::Interrupted&) {
    mpi.abandon();  // a rank may be dead: finalising could wait for it
    throw;
  } catch (...) {
    mpi.stop_workers();
    throw;
  }
  mpi.stop_workers();
}

}  // namespace

void add_run_command(CLI::App& app, const GlobalOptions& global) {
  auto* cmd = app.add_subcommand("run", "Run an experiment YAML: summary table, results.csv/json, plots, hot lines");
  auto o = std::make_shared<RunOpts>();
  cmd->add_option("experiment", o->file, "The experiment YAML")->required();
  cmd->add_flag("--check", o->check,
                "Check the coherence invariants (single writer, directory agrees with caches, every copy current) "
                "after every memory access; slow");
  cmd->add_option("--out,-o", o->out,
                  "Results directory (default: results/<experiment name>). walksim replaces only a directory it "
                  "wrote itself (it leaves a .walksim-results marker there)");
  cmd->add_flag("--force", o->force,
                "Write into a directory that holds other files: walksim's files are added beside them, one by "
                "one; nothing else is touched");
  cmd->add_option("--jobs,-j", o->jobs, "Points simulated in parallel (results do not depend on it)")
      ->check(CLI::Range(1u, 1024u))
      ->capture_default_str();
  cmd->add_flag("--quiet,-q", o->quiet, "No progress on stderr");
  add_run_ahead_option(cmd, o->run_ahead);
  cmd->add_option("--resume", o->resume,
                  "A journal directory: every finished point is recorded there as it finishes, and points already "
                  "there are taken from it instead of being simulated again (an interrupted sweep continues)");
  cmd->callback([o, &global] {
    ignore_sigpipe();
    const std::string root = resolve_config_root(global.configs);
    // Started by mpirun with more than one rank: rank 0 runs the experiment, the others its points.
    if (const auto launch = experiment::mpi_launch(); launch && launch->size > 1) return run_under_mpi(*o, root);
    run_file(*o, root, nullptr);
  });
}

}  // namespace walksim::cli
