// Point scheduling, the calibration fit (Eigen least squares) and the reduction to rows.
#include "tools/experiment/runner.hpp"

#include <Eigen/Dense>
#include <atomic>
#include <chrono>
#include <cmath>
#include <limits>
#include <mutex>
#include <thread>

#include "models/kernel/kernel_loader.hpp"
#include "models/machine/machine_loader.hpp"
#include "models/workload/workload_registry.hpp"

namespace walksim::experiment {
namespace {

struct Job {
  std::size_t kernel = 0;
  std::uint32_t threads = 0;
  std::uint32_t repeat = 0;
  double cost_scale = 1.0;
  std::optional<sim::Picos> user_time;  // overrides the workload's user time per operation
};

// Each point's seed depends only on the experiment's seed and the point, so results do not
// depend on which host thread ran it or in which order.
std::uint64_t point_seed(std::uint64_t seed, std::size_t kernel, std::uint32_t threads, std::uint32_t repeat) {
  std::uint64_t x = seed * 0x9e3779b97f4a7c15ULL + kernel * 0xbf58476d1ce4e5b9ULL + threads * 0x94d049bb133111ebULL +
                    repeat * 0x2545f4914f6cdd1dULL;
  x ^= x >> 31;
  return x ? x : 1;
}

class Context {
 public:
  Context(const ExperimentSpec& spec, const std::string& root)
      : spec_(spec), machine_(machine::load_machine(spec.machine, {root + "/machines"})) {
    for (const auto& k : spec.kernel_variants) kernels_.push_back(kernel::load_kernel(k, {root + "/kernels"}));
  }

  // Runs the jobs on up to `jobs` host threads; results in job order.
  std::vector<workload::RunResult> run(const std::vector<Job>& list, unsigned jobs, const Progress& progress,
                                       const std::atomic<bool>* cancel) {
    // Workloads are made here, on one thread, because their parameters are read from shared YAML nodes.
    std::vector<std::unique_ptr<workload::Workload>> made;
    for (std::size_t i = 0; i < list.size(); ++i) {
      made.push_back(make_workload());
      if (list[i].user_time && !made.back()->set_user_time(*list[i].user_time)) {
        throw std::runtime_error("workload '" + spec_.workload + "' has no user time per operation to calibrate");
      }
    }
    std::vector<workload::RunResult> out(list.size());
    std::atomic<std::size_t> next{0}, done{0};
    std::mutex progress_mutex;
    auto worker = [&] {
      for (std::size_t i; (i = next++) < list.size();) {
        if (cancel && cancel->load()) return;
        const Job& j = list[i];
        workload::RunSpec rs;
        rs.machine = &machine_;
        rs.kernel = &kernels_[j.kernel];
        rs.options = spec_.kernel_options[j.kernel];
        rs.threads = j.threads;
        rs.placement = spec_.placement;
        rs.control = spec_.control;
        rs.seed = point_seed(spec_.seed, j.kernel, j.threads, j.repeat);
        rs.cost_scale = j.cost_scale;
        rs.mutex_wakeup = spec_.wakeup_latency;
        rs.hot_lines = spec_.hot_lines;
        rs.check = spec_.check;
        out[i] = workload::simulate(rs, *made[i]);
        const std::size_t d = ++done;
        if (progress) {
          std::lock_guard<std::mutex> lock(progress_mutex);
          progress(d, list.size(), spec_.kernels[j.kernel] + " x" + std::to_string(j.threads));
        }
      }
    };
    const unsigned n = std::max(1u, std::min<unsigned>(jobs, static_cast<unsigned>(list.size())));
    std::vector<std::thread> pool;
    for (unsigned t = 1; t < n; ++t) pool.emplace_back(worker);
    worker();
    for (auto& t : pool) t.join();
    if (cancel && cancel->load()) throw Interrupted();
    return out;
  }

  std::unique_ptr<workload::Workload> make_workload() {
    const auto& kinds = workload::workload_kinds();
    for (const auto& k : kinds) {
      if (k.name == spec_.workload) return k.make(spec_.workload_params ? &*spec_.workload_params : nullptr);
    }
    throw std::logic_error("workload vanished: " + spec_.workload);
  }

  const machine::Machine& machine() const { return machine_; }

 private:
  const ExperimentSpec& spec_;
  machine::Machine machine_;
  std::vector<kernel::KernelSpec> kernels_;
};

std::size_t kernel_index(const ExperimentSpec& s, const std::string& k) {
  return static_cast<std::size_t>(std::find(s.kernels.begin(), s.kernels.end(), k) - s.kernels.begin());
}

bool is_rate(const std::string& metric) { return metric == "throughput"; }

// The metric of one run, for the calibration fit (before rows exist).
double metric_of(const ExperimentSpec& spec, const workload::RunResult& r, const std::string& metric) {
  if (metric == "ns_per_op") return r.ns_per_op;
  if (metric == "throughput") return r.reports_bytes ? r.bytes_per_s / 1e6 : r.ops_per_s;
  double scale = 1.0;
  double wall = 0, user = 0, cpu = 0;
  std::uint64_t ops = 0;
  for (const auto& p : r.processes) {
    wall += sim::to_ns(p.wall) * 1e-9;
    user += sim::to_ns(p.user) * 1e-9;
    cpu += sim::to_ns(p.cpu_time) * 1e-9;
    ops += p.ops;
  }
  const double n = static_cast<double>(r.processes.size());
  if (spec.extrapolate_ops && ops) scale = static_cast<double>(spec.extrapolate_ops) * n / static_cast<double>(ops);
  if (metric == "real_s") return wall / n * scale;
  if (metric == "user_s") return user / n * scale;
  if (metric == "sys_s") return (cpu - user) / n * scale;
  return std::numeric_limits<double>::quiet_NaN();
}

std::vector<Row> reduce(const ExperimentSpec& spec, const std::vector<PointResult>& points) {
  std::vector<Row> rows;
  for (const auto& k : spec.kernels) {
    for (std::uint32_t t : spec.threads) {
      Row row;
      row.kernel = k;
      row.threads = t;
      int n = 0;
      for (const auto& p : points) {
        if (p.kernel != k || p.threads != t) continue;
        const auto& r = p.run;
        ++n;
        row.throughput += metric_of(spec, r, "throughput");
        row.throughput_unit = r.reports_bytes ? "MB/s" : r.op_unit + "/s";
        row.ns_per_op += r.ns_per_op;
        row.atomic_rmw_per_op += r.atomic_rmw_per_op;
        row.cpu_utilisation += r.cpu_utilisation;
        row.wall_s += sim::to_ns(r.wall) * 1e-9;
        row.cpu_s += sim::to_ns(r.cpu) * 1e-9;
        row.user_s += sim::to_ns(r.user) * 1e-9;
        row.sys_s += sim::to_ns(r.sys) * 1e-9;
        row.spin_s += sim::to_ns(r.spin) * 1e-9;
        row.sleep_s += sim::to_ns(r.sleep) * 1e-9;
        row.real_s += metric_of(spec, r, "real_s");
        row.proc_user_s += metric_of(spec, r, "user_s");
        row.proc_sys_s += metric_of(spec, r, "sys_s");
        row.walk.rcu_lookups += r.walk.rcu_lookups;
        row.walk.restarts += r.walk.restarts;
        row.walk.nodentry += r.walk.nodentry;
        row.walk.permission += r.walk.permission;
        row.walk.link += r.walk.link;
        row.walk.reval += r.walk.reval;
        row.walk.ref_lookups += r.walk.ref_lookups;
        if (p.repeat == 0) row.hot = r.hot;
      }
      if (n == 0) continue;
      const double d = n;
      for (double* v : {&row.throughput, &row.ns_per_op, &row.atomic_rmw_per_op, &row.cpu_utilisation, &row.wall_s,
                        &row.cpu_s, &row.user_s, &row.sys_s, &row.spin_s, &row.sleep_s, &row.real_s, &row.proc_user_s,
                        &row.proc_sys_s}) {
        *v /= d;
      }
      rows.push_back(std::move(row));
    }
  }
  // Scaling against the smallest thread count of the same kernel.
  for (auto& row : rows) {
    const Row* base = nullptr;
    for (const auto& other : rows) {
      if (other.kernel == row.kernel && (!base || other.threads < base->threads)) base = &other;
    }
    if (base && base->throughput > 0) {
      row.scaling_pct = 100.0 * row.throughput * base->threads / (static_cast<double>(row.threads) * base->throughput);
    }
  }
  return rows;
}

}  // namespace

double predicted(const ExperimentResult& r, const PublishedPoint& p) {
  for (const auto& row : r.rows) {
    if (row.kernel != p.kernel || row.threads != p.threads) continue;
    if (p.metric == "ns_per_op") return row.ns_per_op;
    if (p.metric == "throughput") return row.throughput;
    if (p.metric == "scaling_pct") return row.scaling_pct;
    if (p.metric == "real_s") return row.real_s;
    if (p.metric == "user_s") return row.proc_user_s;
    if (p.metric == "sys_s") return row.proc_sys_s;
  }
  return std::numeric_limits<double>::quiet_NaN();
}

ExperimentResult run_experiment(const ExperimentSpec& spec, const std::string& config_root, unsigned jobs,
                                const Progress& progress, const std::atomic<bool>* cancel) {
  const auto t0 = std::chrono::steady_clock::now();
  Context ctx(spec, config_root);
  ExperimentResult res;
  res.spec = spec;
  res.cost_scale = spec.cost_scale;

  if (spec.calibrate) {
    // The metric is affine in the scale s of the private CPU costs when it is a time (ns/op,
    // seconds); a rate is the inverse of one. Two runs per calibration point, at s = 1 and s = 2,
    // give each point's intercept and slope; the least-squares s over the points solves A s = y.
    // The fitted parameter x is the scale of the kernel's private costs (runs at 1 and 2), or the
    // workload's user time per operation in microseconds (runs at 0 and 1 us).
    const bool user = spec.calibrate->parameter == "user_time";
    const double x0 = user ? 0.0 : 1.0, x1 = user ? 1.0 : 2.0;
    std::vector<Job> jobs_list;
    for (std::size_t i : spec.calibrate->points) {
      const auto& p = spec.published[i];
      for (double x : {x0, x1}) {
        Job j{kernel_index(spec, p.kernel), p.threads, 0, user ? spec.cost_scale : x, std::nullopt};
        if (user) j.user_time = sim::from_ns(x * 1000.0);
        jobs_list.push_back(j);
      }
    }
    const auto runs = ctx.run(jobs_list, jobs, progress, cancel);
    const auto n = static_cast<Eigen::Index>(spec.calibrate->points.size());
    Eigen::MatrixXd a(n, 1);
    Eigen::VectorXd y(n);
    CalibrationResult cal;
    cal.parameter = spec.calibrate->parameter;
    for (Eigen::Index i = 0; i < n; ++i) {
      const auto& p = spec.published[spec.calibrate->points[static_cast<std::size_t>(i)]];
      auto as_time = [&](double v) { return is_rate(p.metric) ? 1.0 / v : v; };
      const double m1 = as_time(metric_of(spec, runs[static_cast<std::size_t>(2 * i)], p.metric));
      const double m2 = as_time(metric_of(spec, runs[static_cast<std::size_t>(2 * i + 1)], p.metric));
      const double slope = (m2 - m1) / (x1 - x0), intercept = m1 - slope * x0;
      a(i, 0) = slope;
      y(i) = as_time(p.value) - intercept;
      cal.fitted_to.push_back(p.kernel + " x" + std::to_string(p.threads) + " " + p.metric + " = " +
                              std::to_string(p.value) + " " + p.unit);
    }
    const Eigen::VectorXd s = a.colPivHouseholderQr().solve(y);
    cal.value = s(0);
    if (!(cal.value >= 0) || !std::isfinite(cal.value) || (!user && cal.value == 0)) {
      throw std::runtime_error("calibration of " + cal.parameter + " failed: the fit gave " + std::to_string(cal.value) +
                               " (the published point cannot be reached by this parameter: the rest of the model "
                               "alone exceeds it)");
    }
    if (user) {
      res.user_time = sim::from_ns(cal.value * 1000.0);
    } else {
      res.cost_scale = cal.value;
    }
    res.calibration = cal;
  }

  std::vector<Job> list;
  for (std::size_t k = 0; k < spec.kernels.size(); ++k) {
    for (std::uint32_t t : spec.threads) {
      for (std::uint32_t rep = 0; rep < spec.repeats; ++rep) list.push_back({k, t, rep, res.cost_scale, res.user_time});
    }
  }
  auto runs = ctx.run(list, jobs, progress, cancel);
  for (std::size_t i = 0; i < list.size(); ++i) {
    res.points.push_back({spec.kernels[list[i].kernel], list[i].threads, list[i].repeat, std::move(runs[i])});
  }
  res.rows = reduce(spec, res.points);
  if (res.calibration) {
    double worst = 0;
    for (std::size_t i : spec.calibrate->points) {
      const auto& p = spec.published[i];
      worst = std::max(worst, std::abs(predicted(res, p) - p.value) / p.value * 100.0);
    }
    res.calibration->residual_pct = worst;
  }
  res.host_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return res;
}

}  // namespace walksim::experiment
