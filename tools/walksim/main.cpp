// walksim's command line. Input mistakes (bad YAML, unknown names, bad flags) end with one clear
// message on stderr and exit code 2; an internal error (a broken invariant) exits with 3.
#include <CLI/CLI.hpp>
#include <iostream>

#include "models/config/config_error.hpp"
#include "tools/experiment/runner.hpp"
#include "tools/walksim/global_options.hpp"
#include "tools/walksim/model_command.hpp"
#include "tools/walksim/probe_command.hpp"
#include "tools/walksim/run_command.hpp"
#include "tools/walksim/trace_command.hpp"

int main(int argc, char** argv) {
  using namespace walksim;
  CLI::App app{"walksim: predicts how Linux path-walk designs scale on NUMA machines, by simulating cache coherence"};
  app.require_subcommand(1);
  cli::GlobalOptions global;
  app.add_option("--configs", global.configs, "Directory holding machines/ and kernels/ (default: the source tree's configs/)");
  cli::add_probe_command(app, global);
  cli::add_machines_command(app, global);
  cli::add_trace_command(app, global);
  cli::add_kernels_command(app, global);
  cli::add_model_command(app);
  cli::add_run_command(app, global);
  cli::add_validate_command(app, global);
  cli::add_bench_command(app, global);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return 2;
  } catch (const experiment::Interrupted&) {
    std::cerr << "walksim: interrupted: no results were written\n";
    return 130;
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
