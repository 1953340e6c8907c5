// `walksim validate`: the published figures against the predictions. It writes nothing unless
// asked (--write-doc), and with --strict its exit code says whether every figure passed.
#include <fmt/core.h>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <thread>

#include "models/config/config_error.hpp"
#include "tools/experiment/output_dir.hpp"
#include "tools/experiment/progress_line.hpp"
#include "tools/experiment/validation.hpp"
#include "tools/experiment/validation_plot.hpp"
#include "tools/walksim/config_paths.hpp"
#include "tools/walksim/global_options.hpp"
#include "tools/walksim/progress.hpp"
#include "tools/walksim/run_ahead_option.hpp"
#include "tools/walksim/run_command.hpp"
#include "tools/walksim/signals.hpp"

namespace walksim::cli {

void add_validate_command(CLI::App& app, const GlobalOptions& global) {
  auto* cmd = app.add_subcommand("validate", "Run experiments/validation/*.yaml against the published numbers");
  struct Opts {
    bool json = false;
    bool strict = false;
    bool write_doc = false;
    std::string dir;
    std::string doc;
    unsigned jobs = std::max(1u, std::thread::hardware_concurrency());
    bool quiet = false;
    double sensitivity = 0;
    std::string run_ahead;
  };
  auto o = std::make_shared<Opts>();
  cmd->add_flag("--json", o->json, "Print JSON");
  cmd->add_flag("--strict", o->strict, "Exit with code 1 when a figure is outside its tolerance");
  cmd->add_flag("--write-doc", o->write_doc, "Rewrite the markdown report (docs/validation.md of the source tree)");
  cmd->add_option("--dir", o->dir,
                  "Directory of validation experiments (default: experiments/validation of the source tree)");
  cmd->add_option("--doc", o->doc, "With --write-doc: where to write the report instead of docs/validation.md");
  cmd->add_option("--jobs,-j", o->jobs, "Points simulated in parallel")->check(CLI::Range(1u, 1024u));
  cmd->add_flag("--quiet,-q", o->quiet, "No progress on stderr");
  cmd->add_option("--sensitivity", o->sensitivity,
                  "Also run every experiment with the kernel's private CPU costs scaled by -/+PCT% and say how far "
                  "each prediction moves; one that moves by more than 4x PCT is marked UNSTABLE (3x the run time)")
      ->check(CLI::Range(0.1, 50.0))
      ->type_name("PCT");
  add_run_ahead_option(cmd, o->run_ahead)
      ->description(
          "Also run every experiment with an approximate run-ahead of this window (e.g. 20ns) and give each figure's "
          "approximate prediction beside the exact one (twice the run time; pass, fail and --strict stay exact); "
          "'off': step the exact run without running ahead (the same figures, slower)");
  cmd->callback([o, &global] {
    ignore_sigpipe();
    if (!o->doc.empty() && !o->write_doc) {
      throw config::ConfigError({}, "--doc", "--doc names where --write-doc writes the report; add --write-doc");
    }
    const sim::Picos run_ahead = run_ahead_window(o->run_ahead);
    if (run_ahead > 0 && o->write_doc) {
      throw config::ConfigError({}, "--run-ahead",
                                "docs/validation.md reports the exact model; leave --run-ahead out with --write-doc");
    }
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
    const std::string doc = o->doc.empty() ? (base / "docs" / "validation.md").string() : o->doc;
    if (o->write_doc && std::filesystem::is_directory(doc, ec)) {  // before the run, not after it
      throw experiment::OutputError("--doc " + doc + ": is a directory; give the path of a file");
    }
    auto& cancel = install_cancel_handlers();
    experiment::ProgressLine line(std::cerr, stderr_is_terminal(), terminal_width());
    const auto report = experiment::run_validation(
        files, root, o->jobs, base.string(), &cancel,
        [&](const experiment::ProgressEvent& e) {
          if (!o->quiet) line.on(e);
        },
        o->sensitivity, run_ahead);
    line.finish();
    std::string picture;
    if (o->write_doc) {
      experiment::replace_file(doc, experiment::validation_markdown(report), "--doc");
      picture = experiment::write_validation_plot(report, doc);
    }
    if (o->json) {
      std::cout << experiment::validation_json(report).dump(2) << "\n";
    } else {
      experiment::print_validation(report, std::cout);
      if (o->write_doc) std::cout << "wrote " << doc << "\n" << picture << "\n";
    }
    std::cout.flush();
    if (o->strict && report.failures() > 0) {
      throw StrictFailure(
          fmt::format("{} of {} figures are outside their tolerance", report.failures(), report.rows.size()));
    }
  });
}

}  // namespace walksim::cli
