// The experiment YAML schema (docs/experiments.md); every check on an experiment file lives here.
#include <fmt/core.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <set>

#include "models/config/limits.hpp"
#include "models/kernel/kernel_loader.hpp"
#include "models/machine/machine_loader.hpp"
#include "models/workload/workload_registry.hpp"
#include "tools/experiment/experiment_spec.hpp"
#include "tools/experiment/metrics.hpp"

namespace walksim::experiment {
namespace {

using config::Node;

// Limits that keep one experiment within what a host can run (each message says why).
constexpr std::uint32_t kMaxRepeats = 1000;
constexpr std::uint64_t kMaxOpsPerPoint = 1'000'000'000;                      // ops_per_process x threads
constexpr sim::Picos kMaxDuration = 60 * sim::kPicosPerNs * 1'000'000'000LL;  // 60 s simulated
constexpr double kMaxCostScale = 1000;

// A label shows in tables, CSV and plot keys: printable characters only.
void check_label(const Node& at, const std::string& label) {
  if (label.empty()) at.fail("a kernel label cannot be empty");
  if (label.size() > 100) at.fail("a kernel label is at most 100 characters");
  for (unsigned char c : label) {
    if (c < 0x20 || c == 0x7f) at.fail("a kernel label cannot hold control characters (a line break, a tab, ESC)");
  }
}

std::vector<std::uint32_t> read_threads(const Node& n, std::uint32_t cpus) {
  std::vector<std::uint32_t> out;
  if (n.is_scalar()) {
    const std::string s = n.as_string();
    if (s == "powers-of-two") {
      for (std::uint32_t t = 1; t <= cpus; t *= 2) out.push_back(t);
      if (out.back() != cpus) out.push_back(cpus);
      return out;
    }
    out.push_back(n.as_uint32());
  } else if (n.is_sequence()) {
    for (const Node& e : n.elements()) out.push_back(e.as_uint32());
  } else if (n.is_map()) {
    const std::uint32_t from = n.optional("from") ? n.child("from").as_uint32() : 1;
    if (from == 0) n.child("from").fail("the sweep starts at 1 thread at least");
    const std::uint32_t to = n.child("to").as_uint32();
    const std::string step = n.optional("step") ? n.child("step").as_string() : "double";
    if (step == "double") {
      for (std::uint32_t t = from; t <= to; t *= 2) out.push_back(t);
    } else {
      const std::uint32_t inc = n.child("step").as_uint32();
      if (inc == 0) n.child("step").fail("step must be 'double' or a positive number");
      for (std::uint32_t t = from; t <= to; t += inc) out.push_back(t);
    }
  } else {
    n.fail("expected a thread count, a list, 'powers-of-two' or {from, to, step}");
  }
  if (out.empty()) n.fail("the thread sweep is empty");
  std::set<std::uint32_t> seen;
  for (std::uint32_t t : out) {
    if (t == 0 || t > cpus) {
      n.fail("thread count " + std::to_string(t) + " is outside 1.." + std::to_string(cpus) + " (the machine's CPUs)");
    }
    if (!seen.insert(t).second) n.fail("thread count " + std::to_string(t) + " is listed twice");
  }
  return out;
}

void read_run(const Node& run, ExperimentSpec& e, std::uint32_t max_threads) {
  const auto ops = run.optional("ops_per_process");
  const auto dur = run.optional("duration");
  if (ops.has_value() == dur.has_value()) run.fail("give exactly one of 'ops_per_process' or 'duration'");
  if (ops) {
    e.control.ops_per_process = ops->as_uint();
    if (e.control.ops_per_process == 0) ops->fail("ops_per_process must be at least 1");
    if (e.control.ops_per_process > kMaxOpsPerPoint / max_threads) {
      ops->fail("ops_per_process x threads must stay within " + std::to_string(kMaxOpsPerPoint) +
                " operations per point (" + std::to_string(e.control.ops_per_process) + " x " +
                std::to_string(max_threads) + " would take this host days); fewer operations give the same rate");
    }
    if (const auto w = run.optional("warmup_ops")) {
      e.control.warmup_ops = w->as_uint();
      if (e.control.warmup_ops >= e.control.ops_per_process) w->fail("warmup_ops must be below ops_per_process");
    }
    if (e.control.ops_per_process - e.control.warmup_ops < workload::kMinMeasuredOps) {
      ops->fail("each process would measure " + std::to_string(e.control.ops_per_process - e.control.warmup_ops) +
                " operations (ops_per_process - warmup_ops); at least " + std::to_string(workload::kMinMeasuredOps) +
                " are needed for a rate");
    }
  } else {
    e.control.end = dur->as_time();
    if (e.control.end <= 0) dur->fail("duration must be positive");
    if (e.control.end > kMaxDuration) {
      dur->fail(
          "duration is at most 60s of simulated time (a simulated second of a busy 64-CPU machine takes this "
          "host hours)");
    }
    if (const auto w = run.optional("warmup")) {
      e.control.warmup_end = w->as_time();
      if (e.control.warmup_end >= e.control.end) w->fail("warmup must be shorter than duration");
    }
  }
  if (const auto x = run.optional("extrapolate_to_ops")) {
    e.extrapolate_ops = x->as_uint();
    if (e.extrapolate_ops == 0) x->fail("extrapolate_to_ops must be at least 1 (leave it out for no extrapolation)");
  }
}

void read_options(const Node& o, kernel::KernelOptions& opts) {
  if (auto n = o.optional("prefetch")) opts.prefetch = n->as_bool();
  if (auto n = o.optional("posix_acl")) opts.posix_acl = n->as_bool();
  if (auto n = o.optional("caller_is_owner")) opts.caller_is_owner = n->as_bool();
}

// The unit a published figure of `metric` must carry for this workload.
std::string unit_of(const MetricDef& m, const workload::Workload& w) {
  return unit_text(m.unit, w.reports_bytes() ? "MB/s" : w.op_unit() + "/s", w.op_unit());
}

PublishedPoint read_point(const Node& n, const std::vector<std::string>& kernels,
                          const std::vector<std::uint32_t>& threads, const workload::Workload& w) {
  PublishedPoint p;
  const Node metric = n.child("metric");
  const std::vector<std::string> metrics = validatable_metrics();
  // The times summed over processes share their names' stem with one process's time(1) figures;
  // a published time(1) figure named by the sum's name would compare with a 64-fold number.
  for (const char* sum : {"real_s", "user_s", "sys_s"}) {
    if (metric.as_string() == sum) {
      metric.fail(std::string("'") + sum +
                  "' is not a published metric: one process's time as time(1) reports it is 'process_" + sum +
                  "' (the sum over processes, " + (std::string(sum) == "real_s" ? "wall_s" : sum) +
                  ", is not comparable with a published figure)");
    }
  }
  p.metric = metrics[metric.as_choice(metrics)];
  const MetricDef& def = *find_metric(p.metric);
  const Node k = n.child("kernel");
  p.kernel = k.as_string();
  if (std::find(kernels.begin(), kernels.end(), p.kernel) == kernels.end()) {
    k.fail("kernel '" + p.kernel + "' is not one of this experiment's kernels: " + config::quoted_list(kernels));
  }
  const Node tn = n.child("threads");
  p.threads = tn.as_uint32();
  if (std::find(threads.begin(), threads.end(), p.threads) == threads.end()) {
    tn.fail("threads " + std::to_string(p.threads) + " is not in the experiment's sweep; add it to 'threads'");
  }
  const Node vn = n.child("value");
  p.value = vn.as_double();
  if (!std::isfinite(p.value) || p.value <= 0) vn.fail("a published value must be a positive number");
  const Node un = n.child("unit");
  p.unit = un.as_string();
  const std::string want = unit_of(def, w);
  if (p.unit != want) un.fail("a " + p.metric + " of this workload is in '" + want + "', not '" + p.unit + "'");
  if (const auto t = n.optional("tolerance_pct")) {
    p.tolerance_pct = t->as_double();
    if (!std::isfinite(p.tolerance_pct) || p.tolerance_pct < 0) t->fail("tolerance_pct must be a number >= 0");
  }
  const Node role = n.child("role");
  p.calibration = role.as_choice({"prediction", "calibration"}) == 1;
  if (p.calibration && !def.extract) {
    role.fail("a " + p.metric + " cannot be fitted to: it is derived from " + def.of +
              " at two thread counts; give the " + def.of + " figures as the calibration points");
  }
  p.source = n.child("source").as_string();
  return p;
}

// A kernel entry's `params:`: the workload's parameters with these over workload.params, key by
// key. The entry's keys are checked here (a typo is an error at its own line); the workload made
// with them joins `made`.
Node entry_params(const Node& p, const std::optional<Node>& common, const workload::WorkloadKind& kind,
                  std::vector<std::unique_ptr<workload::Workload>>& made) {
  if (!p.is_map()) p.fail("expected a mapping of the workload's parameters for this entry");
  Node merged = common ? Node::layered({p, *common}) : p;
  made.push_back(kind.make(&merged));
  if (common) {
    merged.finish();
    for (const std::string& key : p.keys()) p.consume(key);
  }
  return merged;
}

}  // namespace

std::string checked_name(const Node& n) {
  std::string name = n.as_string();
  bool ok = !name.empty() && name.size() <= 100 && name[0] != '.';
  for (char c : name) ok = ok && (std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-');
  if (!ok) {
    n.fail(
        "a name is 1 to 100 of the characters A-Z a-z 0-9 . _ - and does not start with '.' (it names the "
        "results directory, results/<name>)");
  }
  return name;
}

namespace {

// `machine:` (a name, or a path relative to the experiment file), loaded to check it.
machine::MachineSpec read_machine(const Node& root, const std::string& path, const std::string& config_root,
                                  ExperimentSpec& e) {
  const Node mnode = root.child("machine");
  e.machine = mnode.as_string();
  // A machine given as a path is relative to the experiment file, like trace-replay's `file`.
  if ((e.machine.find('/') != std::string::npos || e.machine.ends_with(".yaml")) && e.machine[0] != '/') {
    e.machine = (std::filesystem::path(path).parent_path() / e.machine).lexically_normal().string();
  }
  machine::MachineSpec mspec;
  try {
    mspec = machine::load_machine(e.machine, {config_root + "/machines"});
  } catch (const config::ConfigError& err) {
    if (err.mark().file.empty()) mnode.fail(err.message());
    throw;
  }
  return mspec;
}

// `workload:` is read before the kernels: a kernel entry may carry parameters of it. The made
// workload (which read, and so checked, the parameters) goes into `made`.
const workload::WorkloadKind& read_workload(const Node& root, ExperimentSpec& e,
                                            std::vector<std::unique_ptr<workload::Workload>>& made) {
  // The workload is read first: a kernel entry may carry parameters of it.
  const Node w = root.child("workload");
  const Node wkind = w.child("kind");
  e.workload = wkind.as_string();
  const auto& kind = workload::find_workload(e.workload, wkind);
  if (auto p = w.optional("params")) {
    if (!p->is_map()) p->fail("expected a mapping of the workload's parameters");
    e.workload_params = *p;
  }
  // Reads (and so checks) the parameters.
  made.push_back(kind.make(e.workload_params ? &*e.workload_params : nullptr));
  e.workload_resolved = made.back()->params();

  return kind;
}

// `kernels:`, each loaded and checked against the machine, each label once.
void read_kernels(const Node& root, const std::string& config_root, const machine::MachineSpec& mspec,
                  const workload::WorkloadKind& kind, ExperimentSpec& e,
                  std::vector<std::unique_ptr<workload::Workload>>& made) {
  const Node knode = root.child("kernels");
  for (const Node& k : knode.is_sequence() ? knode.elements() : std::vector<Node>{knode}) {
    std::string name, label;
    kernel::KernelOptions opts = e.options;
    std::optional<Node> params;
    Node name_node = k;
    if (k.is_map()) {  // {kernel: NAME, label: "...", options: {...}, params: {...}}
      name_node = k.child("kernel");
      name = name_node.as_string();
      label = k.optional("label") ? k.child("label").as_string() : name;
      if (const auto l = k.optional("label")) check_label(*l, label);
      if (const auto o = k.optional("options")) read_options(*o, opts);
      if (const auto p = k.optional("params")) params = entry_params(*p, e.workload_params, kind, made);
    } else {
      name = k.as_string();
      label = name;
    }
    try {
      // Loaded here to check it, and against the machine (a boot node the machine lacks).
      const kernel::KernelSpec spec = kernel::load_kernel(name, {config_root + "/kernels"});
      kernel::check_kernel_fits_machine(spec, mspec.nodes, e.machine);
      if (opts.posix_acl && !spec.inode_caches_acl()) {
        name_node.fail("kernel '" + name + "' has no ACL pointer in its struct inode (i_acl arrived in 2.6.30): " +
                       "posix_acl cannot be modelled on it");
      }
      const workload::Workload& w = params ? *made.back() : *made.front();
      if (const std::string why = w.check_kernel(spec); !why.empty()) name_node.fail(why);
    } catch (const config::ConfigError& err) {
      if (err.mark().file.empty()) name_node.fail(err.message());
      throw;
    }
    if (std::find(e.kernels.begin(), e.kernels.end(), label) != e.kernels.end()) {
      k.fail("label '" + label + "' is used twice; give each entry its own label");
    }
    e.kernels.push_back(label);
    e.kernel_variants.push_back(name);
    e.kernel_options.push_back(opts);
    e.kernel_params.push_back(params);
    e.kernel_resolved.push_back(params ? made.back()->params() : e.workload_resolved);
  }
  if (e.kernels.empty()) knode.fail("give at least one kernel");
}

// `vary:`: every kernel entry becomes one series per combination of the axes' values, each checked
// as it will run: its machine and kernel loaded with the overrides (units, ranges and paths checked
// at the values), its workload made with the parameters.
void expand_vary(const Node& root, const std::string& config_root, const workload::WorkloadKind& kind,
                 ExperimentSpec& e, std::vector<std::unique_ptr<workload::Workload>>& made) {
  const std::size_t entries = e.kernels.size();
  for (std::size_t k = 0; k < entries; ++k) {
    e.entry_labels.push_back(e.kernels[k]);
    e.axis_values.emplace_back();
    e.machine_overrides.emplace_back();
    e.kernel_overrides.emplace_back();
  }
  const auto vary = root.optional("vary");
  if (!vary) return;
  e.axes = read_vary(*vary);
  if (root.has("published")) vary->fail("a validation experiment (published:) cannot vary its configuration");
  if (root.has("calibrate")) vary->fail("calibrate: and vary: together are not supported: fix the parameter instead");
  ExperimentSpec x = e;
  x.kernels.clear();
  x.kernel_variants.clear();
  x.kernel_options.clear();
  x.kernel_params.clear();
  x.kernel_resolved.clear();
  x.entry_labels.clear();
  x.axis_values.clear();
  x.machine_overrides.clear();
  x.kernel_overrides.clear();
  const auto combos = combinations(e.axes);
  std::uint32_t most_threads = 0;
  for (std::uint32_t t : e.threads) most_threads = std::max(most_threads, t);
  for (std::size_t k = 0; k < entries; ++k) {
    for (const auto& c : combos) {
      const auto mo = overrides_for(e.axes, c, VaryTarget::kMachine, e.file);
      const auto ko = overrides_for(e.axes, c, VaryTarget::kKernel, e.file);
      const machine::MachineSpec m = machine::load_machine(e.machine, {config_root + "/machines"}, mo);
      for (const workload::CpuId cpu : e.placement_cpus) {
        if (cpu >= m.cpus()) {
          vary->fail("with " + combination_label(e.axes, c) + " the machine has " + std::to_string(m.cpus()) +
                     " CPUs, and placement.cpus names CPU " + std::to_string(cpu));
        }
      }
      if (m.cpus() < most_threads) {
        vary->fail("with " + combination_label(e.axes, c) + " the machine has " + std::to_string(m.cpus()) +
                   " CPUs, fewer than the " + std::to_string(most_threads) + " threads the experiment runs");
      }
      const kernel::KernelSpec ks = kernel::load_kernel(e.kernel_variants[k], {config_root + "/kernels"}, ko);
      kernel::check_kernel_fits_machine(ks, m.nodes, e.machine);
      const std::optional<Node> params =
          params_for(e.axes, c, e.kernel_params[k] ? e.kernel_params[k] : e.workload_params);
      made.push_back(kind.make(params ? &*params : nullptr));
      if (params) params->finish();  // an axis naming no parameter of the workload
      if (const std::string why = made.back()->check_kernel(ks); !why.empty()) {
        vary->fail("with " + combination_label(e.axes, c) + ": " + why);
      }
      x.kernels.push_back(e.kernels[k] + " " + combination_label(e.axes, c));
      x.kernel_variants.push_back(e.kernel_variants[k]);
      x.kernel_options.push_back(e.kernel_options[k]);
      x.kernel_params.push_back(params);
      x.kernel_resolved.push_back(made.back()->params());
      x.entry_labels.push_back(e.kernels[k]);
      std::vector<std::string> labels;
      for (std::size_t i = 0; i < e.axes.size(); ++i) labels.push_back(e.axes[i].values[c[i]].label);
      x.axis_values.push_back(std::move(labels));
      x.machine_overrides.push_back(mo);
      x.kernel_overrides.push_back(ko);
    }
  }
  e = std::move(x);
}

// `placement:`: cores-first, compact, or {cpus: [...]} (thread i on the i-th CPU listed; every
// count of `threads` at most the list's length).
void read_placement(const Node& pl, const Node& threads, const machine::MachineSpec& mspec, ExperimentSpec& e) {
  if (pl.is_sequence()) pl.fail("a list of CPUs is written placement: {cpus: [0, 6]}");
  if (!pl.is_map()) {
    e.placement = pl.as_choice({"cores-first", "compact"}) == 0 ? workload::Placement::kCoresFirst
                                                                : workload::Placement::kCompact;
    return;
  }
  const Node list = pl.child("cpus");
  pl.finish();
  if (!list.is_sequence() || list.size() == 0) {
    list.fail("placement.cpus must be a list of CPU numbers, thread i on the i-th (e.g. [0, 6])");
  }
  for (const Node& c : list.elements()) {
    const std::uint32_t cpu = c.as_uint32();
    if (cpu >= mspec.cpus()) {
      c.fail("CPU " + std::to_string(cpu) + " is not on " + e.machine + " (CPUs 0.." +
             std::to_string(mspec.cpus() - 1) + ")");
    }
    if (std::find(e.placement_cpus.begin(), e.placement_cpus.end(), cpu) != e.placement_cpus.end()) {
      c.fail("CPU " + std::to_string(cpu) + " is listed twice: each thread runs on a CPU of its own");
    }
    e.placement_cpus.push_back(cpu);
  }
  e.placement = workload::Placement::kList;
  const std::uint32_t most = *std::max_element(e.threads.begin(), e.threads.end());
  if (most > e.placement_cpus.size()) {
    threads.fail("runs " + std::to_string(most) + " threads, but placement.cpus lists " +
                 std::to_string(e.placement_cpus.size()) + (e.placement_cpus.size() == 1 ? " CPU" : " CPUs"));
  }
}

// `threads:` (the workloads' inputs checked against each count), `placement:`, `run:`, `seed:`,
// `repeats:`. Returns whether a process may sleep on a mutex.
void read_sweep(const Node& root, const machine::MachineSpec& mspec, const workload::WorkloadKind& kind,
                const std::vector<std::unique_ptr<workload::Workload>>& made, ExperimentSpec& e) {
  const Node tnode = root.child("threads");
  e.threads = read_threads(tnode, mspec.cpus());
  // The workload's own inputs against the machine and the sweep (a trace's processes and nodes),
  // before anything runs.
  for (std::uint32_t t : e.threads) {
    for (const auto& m : made) {
      const std::string problem = m->check_run(t, mspec.nodes, mspec.cpus());
      if (!problem.empty()) tnode.fail(problem);
    }
  }
  for (const auto& m : made) e.seeded = e.seeded || workload::is_seeded(kind, *m);
  if (const auto pl = root.optional("placement")) read_placement(*pl, tnode, mspec, e);
  read_run(root.child("run"), e, *std::max_element(e.threads.begin(), e.threads.end()));
  if (const auto s = root.optional("seed")) e.seed = s->as_uint();
  if (const auto r = root.optional("repeats")) {
    e.repeats = r->as_uint32();
    if (e.repeats == 0) r->fail("repeats must be at least 1");
    if (e.repeats > kMaxRepeats) {
      r->fail("repeats is at most " + std::to_string(kMaxRepeats) + " (the spread of a point is clear long before)");
    }
  }
}

// `os:` held the wake-up latency of a sleeping task, a free parameter; waking is now modelled
// (docs/model.md, "Sleeping and waking"), so the key is refused with what replaced it.
void refuse_os(const Node& root) {
  if (const auto os = root.optional("os")) {
    os->fail(
        "'os' (os.wakeup_latency) is no longer read: a sleeping task's wake-up is modelled as the scheduler's "
        "operations and the machine's interrupts: section (docs/model.md, 'Sleeping and waking'); remove it");
  }
}

// `cpu_cost_scale:`, `hot_lines:` and the `published:` figures.
void read_costs_and_figures(const Node& root, const workload::Workload& w, ExperimentSpec& e) {
  if (const auto c = root.optional("cpu_cost_scale")) {
    e.cost_scale = c->as_double();
    if (!(e.cost_scale > 0) || !(e.cost_scale <= kMaxCostScale)) {
      c->fail("cpu_cost_scale must be a factor in (0, " + fmt::format("{:g}", kMaxCostScale) +
              "] of the kernel's private CPU costs");
    }
  }
  if (const auto h = root.optional("hot_lines")) e.hot_lines = h->as_uint32();

  if (const auto pub = root.optional("published")) {
    for (const Node& p : pub->elements()) e.published.push_back(read_point(p, e.kernels, e.threads, w));
  }
}

// `calibrate:`, and the published points it fits to.
void read_calibration(const Node& root, ExperimentSpec& e) {
  if (const auto cal = root.optional("calibrate")) {
    Calibration c;
    const Node param = cal->child("parameter");
    c.parameter = param.as_string();
    if (c.parameter != "cpu_cost_scale" && c.parameter != "user_time") {
      param.fail(
          "the calibratable private CPU costs are 'cpu_cost_scale' (the kernel's private CPU costs, as a "
          "factor) and 'user_time' (the workload's user-space time per operation)");
    }
    if (c.parameter == "cpu_cost_scale" && root.optional("cpu_cost_scale")) {
      cal->fail("give either a fixed cpu_cost_scale or a calibrate block that fits it, not both");
    }
    for (std::size_t i = 0; i < e.published.size(); ++i) {
      if (e.published[i].calibration) c.points.push_back(i);
    }
    if (c.points.empty()) cal->fail("no published point has role: calibration to fit to");
    e.calibrate = c;
  } else {
    for (const auto& p : e.published) {
      if (p.calibration) root.child("published").fail("a point has role: calibration but there is no calibrate block");
    }
  }
}

}  // namespace

ExperimentSpec load_experiment(const std::string& path, const std::string& config_root) {
  const Node root = config::load_file(path);
  if (!root.is_map()) {
    root.fail(std::string(root.is_null() ? "the file is empty: " : "") +
              "an experiment file is a mapping with name, description, machine, kernels, workload, ...");
  }
  ExperimentSpec e;
  e.file = path;
  e.name = checked_name(root.child("name"));
  e.description = root.child("description").as_string();
  if (const auto c = root.optional("citation")) e.citation = c->as_string();
  const machine::MachineSpec mspec = read_machine(root, path, config_root, e);
  if (const auto o = root.optional("kernel_options")) read_options(*o, e.options);
  std::vector<std::unique_ptr<workload::Workload>> made;
  const auto& kind = read_workload(root, e, made);
  read_kernels(root, config_root, mspec, kind, e, made);
  read_sweep(root, mspec, kind, made, e);
  expand_vary(root, config_root, kind, e, made);
  refuse_os(root);
  read_costs_and_figures(root, *made.front(), e);
  read_calibration(root, e);
  root.finish();
  return e;
}

}  // namespace walksim::experiment
