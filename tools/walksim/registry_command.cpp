// The registries, printed: `walksim metrics` (the metric table), `walksim workloads` and
// `walksim locks` (their one-line summaries). docs/experiments.md's metric table is
// `walksim metrics --markdown` (tests/cli/metrics_doc_test.sh keeps them equal).
#include <fmt/core.h>

#include <CLI/CLI.hpp>
#include <memory>

#include "models/sync/sync_registry.hpp"
#include "models/workload/workload.hpp"
#include "tools/experiment/metrics.hpp"
#include "tools/walksim/run_command.hpp"

namespace walksim::cli {
namespace {

const char* aggregate_name(experiment::Aggregate a) {
  switch (a) {
    case experiment::Aggregate::kMean: return "mean";
    case experiment::Aggregate::kSum: return "sum";
    case experiment::Aggregate::kMax: return "max";
    case experiment::Aggregate::kScaling: return "scaling";
  }
  return "";
}

std::string unit_name(const experiment::MetricDef& m) {
  if (m.unit == experiment::MetricUnit::kThroughput) return "MB/s or op/s";
  return experiment::unit_text(m.unit, "", "op");
}

std::string what(const experiment::MetricDef& m) {
  std::string s = m.doc;
  if (m.carried == experiment::Carried::kWithCalibration) s += " (only with a calibration)";
  return s;
}

}  // namespace

void add_registry_commands(CLI::App& app) {
  auto* metrics = app.add_subcommand("metrics", "List every metric of results.json, results.csv and published: with its unit");
  auto markdown = std::make_shared<bool>(false);  // outlives this function, as the command does
  metrics->add_flag("--markdown", *markdown, "As the rows of docs/experiments.md's table");
  metrics->callback([markdown] {
    for (const auto& m : experiment::metric_defs()) {
      if (*markdown) {
        fmt::print("| `{}` | {} | {} | {} | {} |\n", m.name, unit_name(m), aggregate_name(m.aggregate),
                   m.validatable ? "yes" : "no", what(m));
      } else {
        fmt::print("{:<22} {:<13} {:<8} {:<10} {}\n", m.name, unit_name(m), aggregate_name(m.aggregate),
                   m.validatable ? "published" : "", what(m));
      }
    }
  });
  app.add_subcommand("workloads", "List the workload kinds with what one operation is")->callback([] {
    for (const auto& k : workload::workload_kinds()) fmt::print("{:<14} {}\n", k.name, k.summary);
  });
  app.add_subcommand("locks", "List the synchronisation primitives (sync kinds) with their summaries")->callback([] {
    for (const auto& k : sync::sync_kinds()) fmt::print("{:<16} {}\n", k.name, k.summary);
  });
}

}  // namespace walksim::cli
