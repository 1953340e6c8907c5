// Point scheduling, the calibration fit (Eigen least squares) and the reduction to rows.
#include "tools/experiment/runner.hpp"

#include <Eigen/Dense>
#include <fmt/core.h>
#include <atomic>
#include <chrono>
#include <cmath>
#include <limits>
#include <mutex>
#include <system_error>
#include <thread>

#include "models/exec/executor.hpp"
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

class Context {
 public:
  Context(const ExperimentSpec& spec, const std::string& root)
      : spec_(spec), machine_(machine::load_machine(spec.machine, {root + "/machines"})) {
    for (const auto& k : spec.kernel_variants) kernels_.push_back(kernel::load_kernel(k, {root + "/kernels"}));
  }

  // Runs the jobs on up to `jobs` host threads; results in job order. The first error of any
  // point sets `stop`, which stops the other points at their next system call, and is thrown here,
  // on the caller's thread, named with its point. Ctrl-C sets `stop` too: then Interrupted is thrown.
  std::vector<workload::RunResult> run(const std::vector<Job>& list, unsigned jobs, const Progress& progress,
                                       std::atomic<bool>& stop) {
    // Workloads are made here, on one thread, because their parameters are read from shared YAML nodes.
    std::vector<std::unique_ptr<workload::Workload>> made;
    for (std::size_t i = 0; i < list.size(); ++i) {
      made.push_back(make_workload(list[i].kernel));
      if (list[i].user_time && !made.back()->set_user_time(*list[i].user_time)) {
        throw std::runtime_error("workload '" + spec_.workload + "' has no user time per operation to calibrate");
      }
    }
    std::vector<workload::RunResult> out(list.size());
    std::atomic<std::size_t> next{0}, done{0};
    std::mutex mutex;  // guards `failure` and the progress callback
    std::exception_ptr failure;
    auto worker = [&] {
      for (std::size_t i; (i = next++) < list.size();) {
        if (stop.load()) return;
        const Job& j = list[i];
        try {
          out[i] = run_point(j, *made[i], stop);
        } catch (const workload::RunCancelled&) {
          return;  // stopped by Ctrl-C or by another point's failure
        } catch (...) {
          std::lock_guard<std::mutex> lock(mutex);
          if (!failure) failure = point_error(j, std::current_exception());
          stop = true;
          return;
        }
        made[i].reset();  // its file tree is no longer needed
        const std::size_t d = ++done;
        if (progress) {
          std::lock_guard<std::mutex> lock(mutex);
          progress(d, list.size(), point_name(j));
        }
      }
    };
    const unsigned n = std::max(1u, std::min<unsigned>(jobs, static_cast<unsigned>(list.size())));
    std::vector<std::thread> pool;
    for (unsigned t = 1; t < n; ++t) {
      try {
        pool.emplace_back(worker);
      } catch (const std::system_error&) {
        break;  // the host gives no more threads: the ones running (and this one) do the work
      }
    }
    worker();
    for (auto& t : pool) t.join();
    if (failure) std::rethrow_exception(failure);
    if (stop.load()) throw Interrupted();
    return out;
  }

  // The workload of kernel entry `kernel`, with that entry's parameters.
  std::unique_ptr<workload::Workload> make_workload(std::size_t kernel) {
    const auto& kinds = workload::workload_kinds();
    const auto& own = kernel < spec_.kernel_params.size() ? spec_.kernel_params[kernel] : std::nullopt;
    const auto& params = own ? own : spec_.workload_params;
    for (const auto& k : kinds) {
      if (k.name == spec_.workload) return k.make(params ? &*params : nullptr);
    }
    throw std::logic_error("workload vanished: " + spec_.workload);
  }

  const machine::Machine& machine() const { return machine_; }

 private:
  workload::RunResult run_point(const Job& j, workload::Workload& w, const std::atomic<bool>& stop) const {
    workload::RunSpec rs;
    rs.machine = &machine_;
    rs.kernel = &kernels_[j.kernel];
    rs.options = spec_.kernel_options[j.kernel];
    rs.threads = j.threads;
    rs.placement = spec_.placement;
    rs.control = spec_.control;
    rs.seed = point_seed(spec_.seed, spec_.kernels[j.kernel], j.threads, j.repeat);
    rs.cost_scale = j.cost_scale;
    rs.mutex_wakeup = spec_.wakeup_latency;
    rs.hot_lines = spec_.hot_lines;
    rs.check = spec_.check;
    rs.cancel = &stop;
    rs.min_measured_ops = workload::kMinMeasuredOps;
    return workload::simulate(rs, w);
  }

  std::string point_name(const Job& j) const {
    return spec_.kernels[j.kernel] + " x" + std::to_string(j.threads) +
           (spec_.repeats > 1 ? " repeat " + std::to_string(j.repeat + 1) : "");
  }

  // The error of a point, with the point named and the kind kept (an internal error stays one).
  std::exception_ptr point_error(const Job& j, std::exception_ptr e) const {
    const std::string where = "point " + point_name(j) + ": ";
    try {
      std::rethrow_exception(e);
    } catch (const workload::TooFewOps& x) {
      const bool by_ops = spec_.control.ops_per_process != 0;
      return std::make_exception_ptr(std::runtime_error(
          spec_.file + ": " + where + x.what() + "; " +
          (by_ops ? "raise run.ops_per_process or lower run.warmup_ops"
                  : "lengthen run.duration or shorten run.warmup") +
          (spec_.workload == "trace-replay" ? ", or replay the trace more often (workload.params.loops)" : "")));
    } catch (const exec::NoWakeupLatency& x) {
      return std::make_exception_ptr(std::runtime_error(
          spec_.file + ": " + where + x.what() + ", but the experiment gives no os.wakeup_latency: add "
          "os: {wakeup_latency: {value: ..., source: \"...\"}}"));
    } catch (const std::bad_alloc&) {
      return std::make_exception_ptr(std::runtime_error(
          where + "out of memory while simulating it (the machine's caches, the file tree or the processes are too "
                  "large for this host)"));
    } catch (const std::logic_error& x) {
      return std::make_exception_ptr(std::logic_error(where + x.what()));
    } catch (const std::exception& x) {
      return std::make_exception_ptr(std::runtime_error(where + x.what()));
    } catch (...) {
      return std::make_exception_ptr(std::runtime_error(where + "unknown error"));
    }
  }

  const ExperimentSpec& spec_;
  machine::Machine machine_;
  std::vector<kernel::KernelSpec> kernels_;
};

std::size_t kernel_index(const ExperimentSpec& s, const std::string& k) {
  return static_cast<std::size_t>(std::find(s.kernels.begin(), s.kernels.end(), k) - s.kernels.begin());
}

bool is_rate(const std::string& metric) { return metric == "throughput"; }

bool workload_is_seeded(const ExperimentSpec& spec) {
  if (spec.seeded) return true;  // an entry's parameters make it so (the loader found out)
  for (const auto& k : workload::workload_kinds()) {
    if (k.name == spec.workload) return k.seeded;
  }
  throw std::logic_error("workload vanished: " + spec.workload);
}

// The share of the processes' time spent in the calibrated component: the workload's user time
// (user_time), or the kernel's private CPU work (cpu_cost_scale). It says how much of a predicted
// number the fit supplies rather than the model.
double calibrated_share(const workload::RunResult& r, const std::string& parameter) {
  if (parameter.empty()) return 0;
  double wall = 0;
  for (const auto& p : r.processes) wall += static_cast<double>(p.wall);
  if (wall <= 0) return 0;
  const double part = parameter == "user_time" ? static_cast<double>(r.user) : static_cast<double>(r.compute - r.user);
  return part / wall;
}

// The metric of one run, for the calibration fit (before rows exist).
double metric_of(const ExperimentSpec& spec, const workload::RunResult& r, const std::string& metric) {
  if (metric == "ns_per_op") return r.ns_per_op;
  if (metric == "call_ns_per_op") return r.call_ns_per_op;
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

Spread spread_of(const std::vector<double>& v) {
  Spread s;
  s.n = v.size();
  if (v.empty()) return s;
  s.min = *std::min_element(v.begin(), v.end());
  s.max = *std::max_element(v.begin(), v.end());
  for (double x : v) s.mean += x;
  s.mean /= static_cast<double>(v.size());
  if (v.size() > 1) {
    double ss = 0;
    for (double x : v) ss += (x - s.mean) * (x - s.mean);
    s.sd = std::sqrt(ss / static_cast<double>(v.size() - 1));  // sample standard deviation, as perf stat -r
  }
  return s;
}

// One averaged metric: its name in results.csv, the row field holding its mean, how to read it
// from one run.
struct MetricColumn {
  const char* name;
  double Row::*field;
  double (*of)(const ExperimentSpec&, const workload::RunResult&, const std::string& calibrated);
};

double seconds(sim::Picos p) { return sim::to_ns(p) * 1e-9; }

const MetricColumn kColumns[] = {
    {"throughput", &Row::throughput, [](const ExperimentSpec& s, const workload::RunResult& r, const std::string&) {
       return metric_of(s, r, "throughput");
     }},
    {"ns_per_op", &Row::ns_per_op, [](const ExperimentSpec&, const workload::RunResult& r, const std::string&) {
       return r.ns_per_op;
     }},
    {"op_rate", &Row::op_rate, [](const ExperimentSpec&, const workload::RunResult& r, const std::string&) {
       return r.ops_per_s;
     }},
    {"atomic_rmw_per_op", &Row::atomic_rmw_per_op,
     [](const ExperimentSpec&, const workload::RunResult& r, const std::string&) { return r.atomic_rmw_per_op; }},
    {"cpu_utilisation", &Row::cpu_utilisation,
     [](const ExperimentSpec&, const workload::RunResult& r, const std::string&) { return r.cpu_utilisation; }},
    {"wall_time", &Row::wall_s, [](const ExperimentSpec&, const workload::RunResult& r, const std::string&) {
       return seconds(r.wall);
     }},
    {"cpu_time", &Row::cpu_s, [](const ExperimentSpec&, const workload::RunResult& r, const std::string&) {
       return seconds(r.cpu);
     }},
    {"user_time", &Row::user_s, [](const ExperimentSpec&, const workload::RunResult& r, const std::string&) {
       return seconds(r.user);
     }},
    {"sys_time", &Row::sys_s, [](const ExperimentSpec&, const workload::RunResult& r, const std::string&) {
       return seconds(r.sys);
     }},
    {"spin_time", &Row::spin_s, [](const ExperimentSpec&, const workload::RunResult& r, const std::string&) {
       return seconds(r.spin);
     }},
    {"sleep_time", &Row::sleep_s, [](const ExperimentSpec&, const workload::RunResult& r, const std::string&) {
       return seconds(r.sleep);
     }},
    {"process_real", &Row::real_s, [](const ExperimentSpec& s, const workload::RunResult& r, const std::string&) {
       return metric_of(s, r, "real_s");
     }},
    {"process_user", &Row::proc_user_s, [](const ExperimentSpec& s, const workload::RunResult& r, const std::string&) {
       return metric_of(s, r, "user_s");
     }},
    {"process_sys", &Row::proc_sys_s, [](const ExperimentSpec& s, const workload::RunResult& r, const std::string&) {
       return metric_of(s, r, "sys_s");
     }},
    {"call_ns_per_op", &Row::call_ns_per_op, [](const ExperimentSpec&, const workload::RunResult& r, const std::string&) {
       return r.call_ns_per_op;
     }},
    {"calibrated_share", &Row::calibrated_share,
     [](const ExperimentSpec&, const workload::RunResult& r, const std::string& c) { return calibrated_share(r, c); }},
};

std::vector<Row> reduce(const ExperimentSpec& spec, const std::vector<PointResult>& points,
                        const std::string& calibrated) {
  std::vector<Row> rows;
  for (const auto& k : spec.kernels) {
    for (std::uint32_t t : spec.threads) {
      Row row;
      row.kernel = k;
      row.threads = t;
      std::vector<std::vector<double>> values(std::size(kColumns));
      for (const auto& p : points) {
        if (p.kernel != k || p.threads != t) continue;
        const auto& r = p.run;
        for (std::size_t c = 0; c < std::size(kColumns); ++c) values[c].push_back(kColumns[c].of(spec, r, calibrated));
        row.throughput_unit = r.reports_bytes ? "MB/s" : r.op_unit + "/s";
        row.op_unit = r.op_unit;
        row.smt_cores = std::max(row.smt_cores, r.smt_cores);
        row.walk.rcu_lookups += r.walk.rcu_lookups;
        row.walk.restarts += r.walk.restarts;
        row.walk.nodentry += r.walk.nodentry;
        row.walk.permission += r.walk.permission;
        row.walk.link += r.walk.link;
        row.walk.reval += r.walk.reval;
        row.walk.ref_lookups += r.walk.ref_lookups;
        if (p.repeat == 0) row.hot = r.hot;
      }
      if (values[0].empty()) continue;
      for (std::size_t c = 0; c < std::size(kColumns); ++c) {
        const Spread sp = spread_of(values[c]);
        row.*kColumns[c].field = sp.mean;
        row.spread[kColumns[c].name] = sp;
      }
      rows.push_back(std::move(row));
    }
  }
  // Scaling against the smallest thread count of the same kernel, of the reported throughput and
  // of operations per second (they differ when throughput counts bytes, which each process's op
  // mix moves in different amounts). Each repeat is taken against the base's mean, so the spread
  // is the throughput's, scaled.
  for (auto& row : rows) {
    const Row* base = nullptr;
    for (const auto& other : rows) {
      if (other.kernel == row.kernel && (!base || other.threads < base->threads)) base = &other;
    }
    auto scale = [&](const char* metric, const char* scaled, double Row::*field) {
      const double b = base ? base->spread.at(metric).mean : 0;
      if (b <= 0) return;
      const double f = 100.0 * base->threads / (static_cast<double>(row.threads) * b);
      const Spread& v = row.spread.at(metric);
      row.*field = 100.0 * v.mean * base->threads / (static_cast<double>(row.threads) * b);
      row.spread[scaled] = {row.*field, v.sd * f, v.min * f, v.max * f, v.n};
    };
    scale("throughput", "scaling_pct", &Row::scaling_pct);
    scale("op_rate", "op_scaling_pct", &Row::op_scaling_pct);
  }
  return rows;
}

}  // namespace

// FNV-1a of the label mixed with the rest through splitmix64's finaliser: stable across hosts and
// versions of the standard library (std::hash is neither).
std::uint64_t point_seed(std::uint64_t seed, const std::string& label, std::uint32_t threads, std::uint32_t repeat) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (unsigned char c : label) h = (h ^ c) * 0x100000001b3ULL;
  auto mix = [](std::uint64_t x) {
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
  };
  std::uint64_t x = mix(seed + 0x9e3779b97f4a7c15ULL);
  x = mix(x ^ h);
  x = mix(x ^ (static_cast<std::uint64_t>(threads) << 32 | repeat));
  return x ? x : 1;
}

double predicted(const ExperimentResult& r, const PublishedPoint& p) {
  for (const auto& row : r.rows) {
    if (row.kernel != p.kernel || row.threads != p.threads) continue;
    if (p.metric == "ns_per_op") return row.ns_per_op;
    if (p.metric == "call_ns_per_op") return row.call_ns_per_op;
    if (p.metric == "throughput") return row.throughput;
    if (p.metric == "scaling_pct") return row.scaling_pct;
    if (p.metric == "real_s") return row.real_s;
    if (p.metric == "user_s") return row.proc_user_s;
    if (p.metric == "sys_s") return row.proc_sys_s;
  }
  return std::numeric_limits<double>::quiet_NaN();
}

ExperimentResult run_experiment(const ExperimentSpec& spec, const std::string& config_root, unsigned jobs,
                                const Progress& progress, std::atomic<bool>* cancel) {
  const auto t0 = std::chrono::steady_clock::now();
  std::atomic<bool> own_stop{false};
  std::atomic<bool>& stop = cancel ? *cancel : own_stop;
  Context ctx(spec, config_root);
  ExperimentResult res;
  res.spec = spec;
  res.cost_scale = spec.cost_scale;
  res.seeded = workload_is_seeded(spec);
  // A workload that never draws a random number gives the same result for every seed: one run
  // per point is exact, and further repeats would only repeat it.
  const std::uint32_t repeats = res.seeded ? spec.repeats : 1;

  if (spec.calibrate) {
    // The metric is affine in the scale s of the private CPU costs when it is a time (ns/op,
    // seconds); a rate is the inverse of one. Two runs per calibration point, at s = 1 and s = 2,
    // give each point's intercept and slope; the least-squares s over the points solves A s = y.
    // The fitted parameter x is the scale of the kernel's private costs (runs at 1 and 2), or the
    // workload's user time per operation in microseconds (runs at 0 and 1 us). With repeats, each
    // run's metric is the mean over the repeats, as the row that is compared with the figure is.
    const bool user = spec.calibrate->parameter == "user_time";
    const double x0 = user ? 0.0 : 1.0, x1 = user ? 1.0 : 2.0;
    std::vector<Job> jobs_list;
    for (std::size_t i : spec.calibrate->points) {
      const auto& p = spec.published[i];
      for (double x : {x0, x1}) {
        for (std::uint32_t rep = 0; rep < repeats; ++rep) {
          Job j{kernel_index(spec, p.kernel), p.threads, rep, user ? spec.cost_scale : x, std::nullopt};
          if (user) j.user_time = sim::from_ns(x * 1000.0);
          jobs_list.push_back(j);
        }
      }
    }
    const auto runs = ctx.run(jobs_list, jobs, progress, stop);
    const auto n = static_cast<Eigen::Index>(spec.calibrate->points.size());
    Eigen::MatrixXd a(n, 1);
    Eigen::VectorXd y(n);
    CalibrationResult cal;
    cal.parameter = spec.calibrate->parameter;
    for (Eigen::Index i = 0; i < n; ++i) {
      const auto& p = spec.published[spec.calibrate->points[static_cast<std::size_t>(i)]];
      auto as_time = [&](double v) { return is_rate(p.metric) ? 1.0 / v : v; };
      auto mean_at = [&](std::size_t which) {  // which: 0 for x0, 1 for x1
        double sum = 0;
        for (std::uint32_t rep = 0; rep < repeats; ++rep) {
          sum += metric_of(spec, runs[(static_cast<std::size_t>(i) * 2 + which) * repeats + rep], p.metric);
        }
        return sum / repeats;
      };
      const double m1 = as_time(mean_at(0));
      const double m2 = as_time(mean_at(1));
      const double slope = (m2 - m1) / (x1 - x0), intercept = m1 - slope * x0;
      a(i, 0) = slope;
      y(i) = as_time(p.value) - intercept;
      cal.fitted_to.push_back(fmt::format("{} x{} {} = {:g} {}", p.kernel, p.threads, p.metric, p.value, p.unit));
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
      for (std::uint32_t rep = 0; rep < repeats; ++rep) list.push_back({k, t, rep, res.cost_scale, res.user_time});
    }
  }
  auto runs = ctx.run(list, jobs, progress, stop);
  for (std::size_t i = 0; i < list.size(); ++i) {
    const Job& j = list[i];
    res.points.push_back({spec.kernels[j.kernel], j.threads, j.repeat,
                          point_seed(spec.seed, spec.kernels[j.kernel], j.threads, j.repeat), std::move(runs[i])});
  }
  res.rows = reduce(spec, res.points, res.calibration ? res.calibration->parameter : "");
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
