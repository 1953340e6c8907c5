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
    case experiment::Aggregate::kMean:
      return "mean";
    case experiment::Aggregate::kSum:
      return "sum";
    case experiment::Aggregate::kMax:
      return "max";
    case experiment::Aggregate::kScaling:
      return "scaling";
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

const char* role_name(sync::SyncRole r) {
  switch (r) {
    case sync::SyncRole::kSpinlock:
      return "spinning";
    case sync::SyncRole::kSleeping:
      return "sleeping";
    case sync::SyncRole::kKernel:
      return "kernel";
    case sync::SyncRole::kReference:
      return "reference";
  }
  return "";
}

std::string lines_text(const sync::SyncLines& l) {
  std::string s = std::to_string(l.shared) + " shared";
  switch (l.per_cpu) {
    case sync::PerCpuLines::kNone:
      break;
    case sync::PerCpuLines::kOwn:
      s += " + own per CPU";
      break;
    case sync::PerCpuLines::kCpuQnodes:
      s += " + CPU queue nodes";
      break;
    case sync::PerCpuLines::kTaskStates:
      s += " + CPU task states";
      break;
  }
  return s;
}

}  // namespace

void add_registry_commands(CLI::App& app) {
  auto* metrics =
      app.add_subcommand("metrics", "List every metric of results.json, results.csv and published: with its unit");
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
  app.add_subcommand("locks", "List the synchronisation primitives (sync kinds): role, lines and summary")
      ->callback([] {
        for (const auto& k : sync::sync_kinds()) {
          fmt::print("{:<16} {:<10} {:<28} {}\n", k.name, role_name(k.role), lines_text(k.lines), k.summary);
        }
        fmt::print(
            "\nspinning: a kernel YAML's locking.spinlock or a lock-loop's lock; sleeping: a lock-loop's lock; "
            "kernel: the kernel model's own rwlock and lockref; reference: checked by the tests, the kernel emits "
            "these operations itself (models/sync/sync_registry.hpp says where they differ)\n");
      });
}

}  // namespace walksim::cli
