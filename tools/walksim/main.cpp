// walksim's command line. Input mistakes (bad YAML, unknown names, bad flags, a results directory
// that cannot be used) end with one clear message on stderr and exit code 2; an internal error (a
// broken invariant) exits with 3; `validate --strict` with a failing figure exits with 1; Ctrl-C
// or SIGTERM exits with 128 + the signal and writes nothing.
#include <CLI/CLI.hpp>
#include <iostream>

#include "models/config/config_error.hpp"
#include "models/config/strict_yaml.hpp"
#include "tools/experiment/output_dir.hpp"
#include "tools/experiment/runner.hpp"
#include "tools/walksim/global_options.hpp"
#include "tools/walksim/layout_command.hpp"
#include "tools/walksim/model_command.hpp"
#include "tools/walksim/probe_command.hpp"
#include "tools/walksim/run_command.hpp"
#include "tools/walksim/signals.hpp"
#include "tools/walksim/trace_command.hpp"
#include "tools/walksim/version.hpp"

namespace {

// "walksim runn x.yaml": CLI11 says only that 'runn' was not expected; name the subcommands.
bool explain_unknown_subcommand(const CLI::App& app, int argc, char** argv) {
  std::vector<std::string> names;
  for (const auto* s : app.get_subcommands([](const CLI::App*) { return true; })) names.push_back(s->get_name());
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--configs") {
      ++i;
      continue;
    }
    if (a.rfind('-', 0) == 0) continue;
    if (std::find(names.begin(), names.end(), a) != names.end()) return false;
    std::cerr << "walksim: error: unknown subcommand '" << a << "'" << walksim::config::did_you_mean(a, names)
              << "; subcommands: " << walksim::config::quoted_list(names) << " (walksim --help)\n";
    return true;
  }
  return false;
}

}  // namespace

// Building the command line (before the try) throws only std::bad_alloc, which ends the program anyway.
int main(int argc, char** argv) {  // NOLINT(bugprone-exception-escape)
  using namespace walksim;
  CLI::App app{"walksim: predicts how Linux path-walk designs scale on NUMA machines, by simulating cache coherence"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("walksim ") + cli::kVersion);
  cli::GlobalOptions global;
  app.add_option(
      "--configs", global.configs,
      "Directory holding machines/ and kernels/ (default: $WALKSIM_CONFIGS, else the source tree's configs/)");
  cli::add_probe_command(app, global);
  cli::add_machines_command(app, global);
  cli::add_trace_command(app, global);
  cli::add_kernels_command(app, global);
  cli::add_layout_command(app, global);
  cli::add_model_command(app);
  cli::add_run_command(app, global);
  cli::add_validate_command(app, global);
  cli::add_bench_command(app, global);
  cli::add_registry_commands(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    if (app.get_subcommands().empty() && explain_unknown_subcommand(app, argc, argv)) {
      return 2;
    }
    app.exit(e);
    return 2;
  } catch (const experiment::InterruptedRemote& e) {
    std::cerr << "walksim: interrupted: no results were written; " << e.where << "\n";
    return cli::cancel_exit_code();
  } catch (const experiment::Interrupted&) {
    std::cerr << "walksim: interrupted: no results were written\n";
    return cli::cancel_exit_code();
  } catch (const cli::StrictFailure& e) {
    std::cerr << "walksim: validate --strict: " << e.what() << "\n";
    return 1;
  } catch (const config::ConfigError& e) {
    std::cerr << "walksim: error: " << e.what() << "\n";
    return 2;
  } catch (const std::invalid_argument& e) {
    std::cerr << "walksim: error: " << e.what() << "\n";
    return 2;
  } catch (const std::logic_error& e) {
    std::cerr << "walksim: internal error: " << e.what() << "\n";
    return 3;
  } catch (const std::exception& e) {
    std::cerr << "walksim: error: " << e.what() << "\n";
    return 2;
  }
  return 0;
}
