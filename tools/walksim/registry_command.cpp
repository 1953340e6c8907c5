// The registries, printed: `walksim metrics` (the metric table), `walksim workloads` (with
// `--describe`, each kind's parameter table), `walksim locks` (their one-line summaries) and
// `walksim protocols` (the coherence protocol families and their traits). docs/experiments.md's
// metric table is `walksim metrics --markdown` (tests/cli/metrics_doc_test.sh keeps them equal).
#include <fmt/core.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <memory>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#include "models/config/strict_yaml.hpp"
#include "models/machine/machine_spec.hpp"
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
  }
  return s;
}

// `text` as a markdown table cell ('|' would end the cell).
std::string cell(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '|') out += '\\';
    out += c;
  }
  return out;
}

// The markdown cell for a default: `value`, or "required".
std::string default_cell(const workload::ParamDoc& d) {
  if (!d.default_value) return "required";
  if (std::holds_alternative<std::monostate>(*d.default_value)) return "none";
  return "`" + workload::param_text(*d.default_value) + "`";
}

void describe_workload(const workload::WorkloadKind& k, bool markdown) {
  const auto params = k.describe();
  if (markdown) {
    fmt::print("#### `{}`\n\n{}.\n\n| key | default | meaning |\n|---|---|---|\n", k.name, k.summary);
    for (const auto& d : params) fmt::print("| `{}` | {} | {} |\n", d.key, cell(default_cell(d)), cell(d.doc));
    return;
  }
  fmt::print("{} — {}\n", k.name, k.summary);
  for (const auto& d : params) {
    const std::string def = !d.default_value ? "(required)"
                            : std::holds_alternative<std::monostate>(*d.default_value)
                                ? "(none)"
                                : workload::param_text(*d.default_value);
    fmt::print("  {:<20} {:<14} {}\n", d.key, def, d.doc);
  }
}

// The kinds `names` asks for (all of them when empty); throws std::invalid_argument for a name
// that is no workload.
std::vector<const workload::WorkloadKind*> chosen_workloads(const std::vector<std::string>& names) {
  std::vector<const workload::WorkloadKind*> out;
  std::vector<std::string> valid;
  for (const auto& k : workload::workload_kinds()) valid.emplace_back(k.name);
  for (const auto& k : workload::workload_kinds()) {
    if (names.empty() || std::find(names.begin(), names.end(), k.name) != names.end()) out.push_back(&k);
  }
  for (const auto& n : names) {
    if (std::find(valid.begin(), valid.end(), n) == valid.end()) {
      throw std::invalid_argument("unknown workload '" + n + "'" + config::did_you_mean(n, valid) +
                                  "; valid workloads: " + config::quoted_list(valid));
    }
  }
  return out;
}

}  // namespace

// A family's traits as the words a machine file's reader needs.
std::string family_traits(const machine::ProtocolFamily& f) {
  std::string t = f.messaging == machine::Messaging::kBroadcast ? "broadcast" : "directory";
  if (f.owned_state) t += ", O state";
  if (f.forward_state) t += ", F state";
  if (f.onchip_snoop_costs) t += ", L3 snoop costs";
  return t;
}

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
  auto* workloads = app.add_subcommand(
      "workloads", "List the workload kinds with what one operation is; with --describe, their parameters");
  auto describe = std::make_shared<std::vector<std::string>>();
  auto* describe_opt =
      workloads
          ->add_option("--describe", *describe,
                       "Each parameter of these kinds (all when none is named): key, default and meaning")
          ->expected(0, -1);
  auto workloads_markdown = std::make_shared<bool>(false);
  workloads->add_flag("--markdown", *workloads_markdown,
                      "With --describe: as the parameter tables of docs/experiments.md");
  workloads->callback([describe, describe_opt, workloads_markdown] {
    if (describe_opt->count() == 0) {
      if (*workloads_markdown) throw std::invalid_argument("--markdown goes with --describe");
      for (const auto& k : workload::workload_kinds()) fmt::print("{:<14} {}\n", k.name, k.summary);
      fmt::print("\nwalksim workloads --describe KIND: its parameters, their defaults and what they mean\n");
      return;
    }
    std::vector<std::string> names;  // CLI11 gives one empty string for a bare --describe
    for (const auto& n : *describe) {
      if (!n.empty()) names.push_back(n);
    }
    const auto kinds = chosen_workloads(names);
    for (std::size_t i = 0; i < kinds.size(); ++i) {
      if (i) fmt::print("\n");
      describe_workload(*kinds[i], *workloads_markdown);
    }
  });
  app.add_subcommand("locks", "List the synchronisation primitives (sync kinds): role, lines and summary")
      ->callback([] {
        for (const auto& k : sync::sync_kinds()) {
          fmt::print("{:<16} {:<10} {:<28} {}\n", k.name, role_name(k.role), lines_text(k.lines), k.summary);
        }
        fmt::print(
            "\nspinning: a kernel YAML's locking.spinlock or a lock-loop's lock; sleeping: a kernel YAML's "
            "locking.mutex (pthread-mutex, a user-space lock, is not one) or a lock-loop's lock; "
            "kernel: the kernel model's own rwlock and lockref; reference: checked by the tests, the kernel emits "
            "these operations itself (models/sync/sync_registry.hpp says where they differ)\n");
      });
  app.add_subcommand("protocols", "List the coherence protocol families a machine's coherence.protocol can name")
      ->callback([] {
        for (const auto& f : machine::kProtocolFamilies) {
          fmt::print("{:<16} {:<36} {}\n", f.name, family_traits(f), f.summary);
        }
        fmt::print("\ndocs/machines.md, 'Latency semantics', composes each family's latencies\n");
      });
}

}  // namespace walksim::cli
