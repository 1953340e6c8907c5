// The experiment YAML schema (docs/experiments.md); every check on an experiment file lives here.
#include <filesystem>

#include "models/kernel/kernel_loader.hpp"
#include "models/machine/machine_loader.hpp"
#include "models/workload/workload_registry.hpp"
#include "tools/experiment/experiment_spec.hpp"

namespace walksim::experiment {
namespace {

using config::Node;

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
    const std::uint32_t to = n.child("to").as_uint32();
    const std::string step = n.optional("step") ? n.child("step").as_string() : "double";
    if (step == "double") {
      for (std::uint32_t t = std::max(1u, from); t <= to; t *= 2) out.push_back(t);
    } else {
      const std::uint32_t inc = n.child("step").as_uint32();
      if (inc == 0) n.child("step").fail("step must be 'double' or a positive number");
      for (std::uint32_t t = from; t <= to; t += inc) out.push_back(t);
    }
  } else {
    n.fail("expected a thread count, a list, 'powers-of-two' or {from, to, step}");
  }
  if (out.empty()) n.fail("the thread sweep is empty");
  for (std::uint32_t t : out) {
    if (t == 0 || t > cpus) {
      n.fail("thread count " + std::to_string(t) + " is outside 1.." + std::to_string(cpus) + " (the machine's CPUs)");
    }
  }
  return out;
}

void read_run(const Node& run, ExperimentSpec& e) {
  const auto ops = run.optional("ops_per_process");
  const auto dur = run.optional("duration");
  if (ops.has_value() == dur.has_value()) run.fail("give exactly one of 'ops_per_process' or 'duration'");
  if (ops) {
    e.control.ops_per_process = ops->as_uint();
    if (e.control.ops_per_process == 0) ops->fail("ops_per_process must be at least 1");
    if (const auto w = run.optional("warmup_ops")) {
      e.control.warmup_ops = w->as_uint();
      if (e.control.warmup_ops >= e.control.ops_per_process) w->fail("warmup_ops must be below ops_per_process");
    }
  } else {
    e.control.end = dur->as_time();
    if (e.control.end <= 0) dur->fail("duration must be positive");
    if (const auto w = run.optional("warmup")) {
      e.control.warmup_end = w->as_time();
      if (e.control.warmup_end >= e.control.end) w->fail("warmup must be shorter than duration");
    }
  }
  if (const auto x = run.optional("extrapolate_to_ops")) e.extrapolate_ops = x->as_uint();
}

void read_options(const Node& o, kernel::KernelOptions& opts) {
  if (auto n = o.optional("prefetch")) opts.prefetch = n->as_bool();
  if (auto n = o.optional("posix_acl")) opts.posix_acl = n->as_bool();
  if (auto n = o.optional("caller_is_owner")) opts.caller_is_owner = n->as_bool();
}

PublishedPoint read_point(const Node& n, const std::vector<std::string>& kernels) {
  PublishedPoint p;
  const Node metric = n.child("metric");
  const std::vector<std::string> metrics{"ns_per_op", "throughput", "scaling_pct", "real_s", "user_s", "sys_s"};
  p.metric = metrics[metric.as_choice(metrics)];
  const Node k = n.child("kernel");
  p.kernel = k.as_string();
  if (std::find(kernels.begin(), kernels.end(), p.kernel) == kernels.end()) {
    k.fail("kernel '" + p.kernel + "' is not one of this experiment's kernels: " + config::quoted_list(kernels));
  }
  p.threads = n.child("threads").as_uint32();
  p.value = n.child("value").as_double();
  p.unit = n.child("unit").as_string();
  if (const auto t = n.optional("tolerance_pct")) p.tolerance_pct = t->as_double();
  const Node role = n.child("role");
  p.calibration = role.as_choice({"prediction", "calibration"}) == 1;
  p.source = n.child("source").as_string();
  return p;
}

}  // namespace

ExperimentSpec load_experiment(const std::string& path, const std::string& config_root) {
  const Node root = config::load_file(path);
  ExperimentSpec e;
  e.file = path;
  e.name = root.child("name").as_string();
  e.description = root.child("description").as_string();
  if (const auto c = root.optional("citation")) e.citation = c->as_string();

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
  if (const auto o = root.optional("kernel_options")) read_options(*o, e.options);
  const Node knode = root.child("kernels");
  for (const Node& k : knode.is_sequence() ? knode.elements() : std::vector<Node>{knode}) {
    std::string name, label;
    kernel::KernelOptions opts = e.options;
    Node name_node = k;
    if (k.is_map()) {  // {kernel: NAME, label: "...", options: {...}}
      name_node = k.child("kernel");
      name = name_node.as_string();
      label = k.optional("label") ? k.child("label").as_string() : name;
      if (const auto o = k.optional("options")) read_options(*o, opts);
    } else {
      name = k.as_string();
      label = name;
    }
    try {
      kernel::load_kernel(name, {config_root + "/kernels"});
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
  }
  if (e.kernels.empty()) knode.fail("give at least one kernel");

  const Node w = root.child("workload");
  const Node wkind = w.child("kind");
  e.workload = wkind.as_string();
  const auto& kind = workload::find_workload(e.workload, wkind);
  if (auto p = w.optional("params")) {
    if (!p->is_map()) p->fail("expected a mapping of the workload's parameters");
    e.workload_params = *p;
  }
  kind.make(e.workload_params ? &*e.workload_params : nullptr);  // reads (and so checks) the parameters

  e.threads = read_threads(root.child("threads"), mspec.cpus());
  if (const auto pl = root.optional("placement")) {
    e.placement = pl->as_choice({"cores-first", "compact"}) == 0 ? workload::Placement::kCoresFirst
                                                                  : workload::Placement::kCompact;
  }
  read_run(root.child("run"), e);
  if (const auto s = root.optional("seed")) e.seed = s->as_uint();
  if (const auto r = root.optional("repeats")) {
    e.repeats = r->as_uint32();
    if (e.repeats == 0) r->fail("repeats must be at least 1");
  }
  config::SourceMap sources;
  const Node os = root.child("os");
  e.wakeup_latency = os.sourced("wakeup_latency", sources).as_time();
  e.wakeup_source = sources.begin()->second;
  if (const auto c = root.optional("cpu_cost_scale")) {
    e.cost_scale = c->as_double();
    if (!(e.cost_scale > 0)) c->fail("cpu_cost_scale must be positive");
  }
  if (const auto h = root.optional("hot_lines")) e.hot_lines = h->as_uint32();

  if (const auto pub = root.optional("published")) {
    for (const Node& p : pub->elements()) e.published.push_back(read_point(p, e.kernels));
  }
  if (const auto cal = root.optional("calibrate")) {
    Calibration c;
    const Node param = cal->child("parameter");
    c.parameter = param.as_string();
    if (c.parameter != "cpu_cost_scale" && c.parameter != "user_time") {
      param.fail("the calibratable private CPU costs are 'cpu_cost_scale' (the kernel's private CPU costs, as a "
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
  root.finish();
  return e;
}

}  // namespace walksim::experiment
