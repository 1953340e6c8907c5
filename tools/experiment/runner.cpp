// Point scheduling, the calibration fit (Eigen least squares) and the reduction to rows.
#include "tools/experiment/runner.hpp"

#include <fmt/core.h>

#include <Eigen/Dense>
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
#include "tools/experiment/journal.hpp"
#include "tools/experiment/point_codec.hpp"

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
  Context(const ExperimentSpec& spec, const std::string& root, Journal* journal, RemotePoints* remote = nullptr)
      : spec_(spec),
        machine_(machine::load_machine(spec.machine, {root + "/machines"})),
        journal_(journal),
        remote_(remote) {
    // A spec edited in code may leave the per-series lists behind: only lists of every series count.
    const bool per_series = spec.kernel_overrides.size() == spec.kernel_variants.size() &&
                            spec.machine_overrides.size() == spec.kernel_variants.size();
    for (std::size_t k = 0; k < spec.kernel_variants.size(); ++k) {
      const auto& ko = per_series ? spec.kernel_overrides[k] : std::vector<config::Override>{};
      kernels_.push_back(kernel::load_kernel(spec.kernel_variants[k], {root + "/kernels"}, ko));
      // A series whose axes change the machine runs on a machine of its own.
      if (per_series && !spec.machine_overrides[k].empty()) {
        varied_.emplace(
            k, machine::Machine(machine::load_machine(spec.machine, {root + "/machines"}, spec.machine_overrides[k])));
      }
    }
  }

  // Runs the jobs on up to `jobs` host threads; results in job order. The first error of any
  // point sets `stop`, which stops the other points at their next system call, and is thrown here,
  // on the caller's thread, named with its point. Ctrl-C sets `stop` too: then Interrupted is thrown.
  std::vector<workload::RunResult> run(const std::vector<Job>& list, unsigned jobs, const Progress& progress,
                                       std::atomic<bool>& stop, const std::string& phase = "") {
    if (remote_ && remote_->workers() > 0) return run_remote(list, progress, stop, phase);
    // Workloads are made here, on one thread, because their parameters are read from shared YAML nodes.
    std::vector<std::unique_ptr<workload::Workload>> made;
    for (std::size_t i = 0; i < list.size(); ++i) {
      made.push_back(make_workload(list[i].kernel));
      if (list[i].user_time && !made.back()->set_user_time(*list[i].user_time)) {
        throw std::runtime_error("workload '" + spec_.workload + "' has no user time per operation to calibrate");
      }
    }
    std::vector<workload::RunResult> out(list.size());
    // Points the journal already has are taken from it; only the others are simulated.
    const std::vector<std::size_t> todo = take_journalled(list, phase, out);
    std::atomic<std::size_t> next{0}, done{list.size() - todo.size()};
    std::mutex mutex;  // guards `failure` and the progress callback
    std::exception_ptr failure;
    auto worker = [&](unsigned w) {
      for (std::size_t n; (n = next++) < todo.size();) {
        if (stop.load()) return;
        const std::size_t i = todo[n];
        const Job& j = list[i];
        if (progress) {
          std::lock_guard<std::mutex> lock(mutex);
          progress({true, done.load(), list.size(), w, point_name(j), phase, ""});
        }
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
        if (journal_) {
          try {
            journal_->record(job_key(j, phase), out[i]);
          } catch (...) {
            std::lock_guard<std::mutex> lock(mutex);
            if (!failure) failure = std::current_exception();
            stop = true;
            return;
          }
        }
        const std::size_t d = ++done;
        if (progress) {
          std::lock_guard<std::mutex> lock(mutex);
          progress({false, d, list.size(), w, point_name(j), phase, ""});
        }
      }
    };
    const unsigned n =
        std::max(1u, std::min<unsigned>(jobs, static_cast<unsigned>(std::max<std::size_t>(todo.size(), 1))));
    std::vector<std::thread> pool;
    for (unsigned t = 1; t < n; ++t) {
      try {
        pool.emplace_back(worker, t);
      } catch (const std::system_error&) {
        break;  // the host gives no more threads: the ones running (and this one) do the work
      }
    }
    worker(0);
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
    const auto own = varied_.find(j.kernel);
    rs.machine = own != varied_.end() ? &own->second : &machine_;
    rs.kernel = &kernels_[j.kernel];
    rs.options = spec_.kernel_options[j.kernel];
    rs.threads = j.threads;
    rs.placement = spec_.placement;
    rs.cpu_list = spec_.placement_cpus;
    rs.control = spec_.control;
    rs.seed = point_seed(spec_.seed, seed_label(j.kernel), j.threads, j.repeat);
    rs.cost_scale = j.cost_scale;
    rs.hot_lines = spec_.hot_lines;
    rs.check = spec_.check;
    rs.run_ahead = spec_.run_ahead;
    rs.cancel = &stop;
    rs.min_measured_ops = workload::kMinMeasuredOps;
    return workload::simulate(rs, w);
  }

 public:
  // One point for a worker rank: the job as rank 0 wrote it, the reply as rank 0 reads it.
  std::string serve(const std::string& text, std::atomic<bool>& stop) {
    const nlohmann::json j = nlohmann::json::parse(text);
    Job job{j.at("kernel").get<std::size_t>(), j.at("threads").get<std::uint32_t>(),
            j.at("repeat").get<std::uint32_t>(), j.at("cost_scale").get<double>(), std::nullopt};
    if (!j.at("user_time").is_null()) job.user_time = j.at("user_time").get<sim::Picos>();
    if (job.kernel >= spec_.kernels.size()) throw std::logic_error("a job for series " + std::to_string(job.kernel));
    try {
      auto w = make_workload(job.kernel);
      if (job.user_time && !w->set_user_time(*job.user_time)) {
        throw std::runtime_error("workload '" + spec_.workload + "' has no user time per operation to calibrate");
      }
      return nlohmann::json{{"run", point_to_json(run_point(job, *w, stop))}}.dump();
    } catch (const workload::RunCancelled&) {
      return nlohmann::json{{"cancelled", true}}.dump();
    } catch (...) {
      // The error as rank 0 would have made it, and whether it is an internal one.
      try {
        std::rethrow_exception(point_error(job, std::current_exception()));
      } catch (const std::logic_error& e) {
        return nlohmann::json{{"error", e.what()}, {"internal", true}}.dump();
      } catch (const std::exception& e) {
        return nlohmann::json{{"error", e.what()}, {"internal", false}}.dump();
      }
    }
  }

 private:
  // A point's name in the journal: everything that makes it the point it is.
  std::string job_key(const Job& j, const std::string& phase) const {
    return fmt::format("{}|{}|{}|{}|{:.17g}|{}", phase, spec_.kernels[j.kernel], j.threads, j.repeat, j.cost_scale,
                       j.user_time ? std::to_string(*j.user_time) : "-");
  }

 public:
  // The label a series' seeds come from: its kernel entry's (the same for every combination of the axes).
  const std::string& seed_label(std::size_t k) const {
    return spec_.entry_labels.size() == spec_.kernels.size() ? spec_.entry_labels[k] : spec_.kernels[k];
  }

 private:
  static std::string job_text(const Job& j) {
    return nlohmann::json{{"kernel", j.kernel},
                          {"threads", j.threads},
                          {"repeat", j.repeat},
                          {"cost_scale", j.cost_scale},
                          {"user_time", j.user_time ? nlohmann::json(*j.user_time) : nlohmann::json()}}
        .dump();
  }

  // Fills `out` with the points the journal already has; returns the indices left to simulate.
  std::vector<std::size_t> take_journalled(const std::vector<Job>& list, const std::string& phase,
                                           std::vector<workload::RunResult>& out) const {
    std::vector<std::size_t> todo;
    for (std::size_t i = 0; i < list.size(); ++i) {
      if (journal_) {
        if (auto r = journal_->find(job_key(list[i], phase))) {
          out[i] = std::move(*r);
          continue;
        }
      }
      todo.push_back(i);
    }
    return todo;
  }

  // The points on the remote workers: one job per worker at a time, the next to whichever frees up.
  std::vector<workload::RunResult> run_remote(const std::vector<Job>& list, const Progress& progress,
                                              std::atomic<bool>& stop, const std::string& phase) {
    std::vector<workload::RunResult> out(list.size());
    const std::vector<std::size_t> todo = take_journalled(list, phase, out);
    std::size_t next = 0, done = list.size() - todo.size();
    std::map<unsigned, std::size_t> running;  // worker -> index into list
    auto hand_out = [&](unsigned w) {
      if (next == todo.size() || stop.load()) return;
      const std::size_t i = todo[next++];
      remote_->send(w, job_text(list[i]));
      running[w] = i;
      if (progress) progress({true, done, list.size(), w, point_name(list[i]), phase, remote_->worker_name(w)});
    };
    for (unsigned w = 0; w < remote_->workers(); ++w) hand_out(w);
    while (!running.empty()) {
      const auto reply = remote_->receive(stop);
      if (!reply) {
        std::string where;
        for (const auto& [w, i] : running) {
          where += (where.empty() ? "" : "; ") + remote_->worker_name(w) + " was running " + point_name(list[i]);
        }
        throw InterruptedRemote(where);
      }
      const auto [w, text] = *reply;
      const auto it = running.find(w);
      if (it == running.end())
        throw std::logic_error("a reply from " + remote_->worker_name(w) + ", which runs nothing");
      const std::size_t i = it->second;
      running.erase(it);
      const nlohmann::json r = nlohmann::json::parse(text);
      if (r.contains("error")) {
        stop = true;
        const std::string what = remote_->worker_name(w) + ": " + r.at("error").get<std::string>();
        if (r.value("internal", false)) throw std::logic_error(what);
        throw std::runtime_error(what);
      }
      if (r.contains("cancelled")) {
        stop = true;
        continue;
      }
      out[i] = point_from_json(r.at("run"));
      if (journal_) journal_->record(job_key(list[i], phase), out[i]);
      ++done;
      if (progress) progress({false, done, list.size(), w, point_name(list[i]), phase, remote_->worker_name(w)});
      hand_out(w);
    }
    if (stop.load()) throw Interrupted();
    return out;
  }

  std::string point_name(const Job& j) const {
    return spec_.kernels[j.kernel] + " x" + std::to_string(j.threads) +
           (spec_.repeats > 1 ? " repeat " + std::to_string(j.repeat + 1) : "");
  }

  // The error of a point, with the point named and the kind kept (an internal error stays one).
  std::exception_ptr point_error(const Job& j, const std::exception_ptr& e) const {
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
    } catch (const std::bad_alloc&) {
      return std::make_exception_ptr(std::runtime_error(
          where +
          "out of memory while simulating it (the machine's caches, the file tree or the processes are too "
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
  std::map<std::size_t, machine::Machine> varied_;  // by series: machines with axis overrides
  std::vector<kernel::KernelSpec> kernels_;
  Journal* journal_;
  RemotePoints* remote_;
};

std::size_t kernel_index(const ExperimentSpec& s, const std::string& k) {
  return static_cast<std::size_t>(std::find(s.kernels.begin(), s.kernels.end(), k) - s.kernels.begin());
}

bool workload_is_seeded(const ExperimentSpec& spec) {
  if (spec.seeded) return true;  // an entry's parameters make it so (the loader found out)
  for (const auto& k : workload::workload_kinds()) {
    if (k.name == spec.workload) return k.seeded;
  }
  throw std::logic_error("workload vanished: " + spec.workload);
}

// The metric of one run, for the calibration fit (before rows exist).
double metric_of(const ExperimentSpec& spec, const workload::RunResult& r, const std::string& metric,
                 const std::string& calibrated = "") {
  const MetricDef* m = find_metric(metric);
  if (!m || !m->extract) throw std::logic_error("no per-run value for metric '" + metric + "'");
  return metric_value(*m, {spec, r, calibrated});
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

Spread aggregate(const MetricDef& m, const std::vector<double>& v) {
  if (m.aggregate == Aggregate::kMean) return spread_of(v);
  Spread s;
  s.n = v.size();
  for (double x : v) s.mean = m.aggregate == Aggregate::kSum ? s.mean + x : std::max(s.mean, x);
  s.min = s.max = s.mean;
  return s;
}

bool carried(const MetricDef& m, const std::string& calibrated) {
  return m.carried == Carried::kAlways || !calibrated.empty();
}

std::vector<Row> reduce(const ExperimentSpec& spec, const std::vector<PointResult>& points,
                        const std::string& calibrated) {
  const auto defs = metric_defs();
  std::vector<Row> rows;
  for (const auto& k : spec.kernels) {
    for (std::uint32_t t : spec.threads) {
      Row row;
      row.kernel = k;
      row.threads = t;
      std::vector<std::vector<double>> values(defs.size());
      for (const auto& p : points) {
        if (p.kernel != k || p.threads != t) continue;
        const auto& r = p.run;
        for (std::size_t c = 0; c < defs.size(); ++c) {
          if (defs[c].extract && carried(defs[c], calibrated))
            values[c].push_back(defs[c].extract({spec, r, calibrated}));
        }
        row.throughput_unit = r.reports_bytes ? "MB/s" : r.op_unit + "/s";
        row.op_unit = r.op_unit;
        row.walk += r.walk;
        if (p.repeat == 0) row.hot = r.hot;
      }
      if (values[0].empty()) continue;
      for (std::size_t c = 0; c < defs.size(); ++c) {
        if (defs[c].extract && carried(defs[c], calibrated)) row.metrics[defs[c].name] = aggregate(defs[c], values[c]);
      }
      rows.push_back(std::move(row));
    }
  }
  // Scaling against the smallest thread count of the same kernel (of the reported throughput and
  // of operations per second: they differ when throughput counts bytes, which each process's op
  // mix moves in different amounts). Each repeat is taken against the base's mean, so the spread
  // is the scaled metric's, scaled.
  for (auto& row : rows) {
    const Row* base = nullptr;
    for (const auto& other : rows) {
      if (other.kernel == row.kernel && (!base || other.threads < base->threads)) base = &other;
    }
    for (const auto& m : defs) {
      if (m.aggregate != Aggregate::kScaling) continue;
      const double b = base ? base->value(m.of) : 0;
      if (b <= 0) continue;
      const double f = 100.0 * base->threads / (static_cast<double>(row.threads) * b);
      const Spread& v = row.spread(m.of);
      // The mean as 100 N0 x / (N b), the order in which results were always computed.
      row.metrics[m.name] = {100.0 * v.mean * base->threads / (static_cast<double>(row.threads) * b), v.sd * f,
                             v.min * f, v.max * f, v.n};
    }
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

double Row::value(std::string_view metric) const { return spread(metric).mean; }

const Spread& Row::spread(std::string_view metric) const {
  const auto it = metrics.find(metric);
  if (it == metrics.end())
    throw std::logic_error("row " + kernel + " x" + std::to_string(threads) + " has no metric '" + std::string(metric) +
                           "'");
  return it->second;
}

double predicted(const ExperimentResult& r, const PublishedPoint& p) {
  for (const auto& row : r.rows) {
    if (row.kernel == p.kernel && row.threads == p.threads && row.has(p.metric)) return row.value(p.metric);
  }
  return std::numeric_limits<double>::quiet_NaN();
}

namespace {

// The declared calibration: fits its parameter by least squares and sets it in `res`.
void calibrate(const ExperimentSpec& spec, Context& ctx, unsigned jobs, std::uint32_t repeats, const Progress& progress,
               std::atomic<bool>& stop, ExperimentResult& res) {
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
  const auto runs = ctx.run(jobs_list, jobs, progress, stop, "calibration");
  const auto n = static_cast<Eigen::Index>(spec.calibrate->points.size());
  Eigen::MatrixXd a(n, 1);
  Eigen::VectorXd y(n);
  CalibrationResult cal;
  cal.parameter = spec.calibrate->parameter;
  for (Eigen::Index i = 0; i < n; ++i) {
    const auto& p = spec.published[spec.calibrate->points[static_cast<std::size_t>(i)]];
    const bool rate = find_metric(p.metric)->rate;
    auto as_time = [&](double v) { return rate ? 1.0 / v : v; };
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

}  // namespace

ExperimentResult run_experiment(const ExperimentSpec& spec, const std::string& config_root, unsigned jobs,
                                const Progress& progress, std::atomic<bool>* cancel, Journal* journal,
                                RemotePoints* remote) {
  const auto t0 = std::chrono::steady_clock::now();
  std::atomic<bool> own_stop{false};
  std::atomic<bool>& stop = cancel ? *cancel : own_stop;
  Context ctx(spec, config_root, journal, remote);
  ExperimentResult res;
  res.spec = spec;
  res.cost_scale = spec.cost_scale;
  res.seeded = workload_is_seeded(spec);
  // A workload that never draws a random number gives the same result for every seed: one run
  // per point is exact, and further repeats would only repeat it.
  const std::uint32_t repeats = res.seeded ? spec.repeats : 1;

  if (spec.calibrate) calibrate(spec, ctx, jobs, repeats, progress, stop, res);

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
                          point_seed(spec.seed, ctx.seed_label(j.kernel), j.threads, j.repeat), std::move(runs[i])});
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

void serve_points(const ExperimentSpec& spec, const std::string& config_root, PointServer& server,
                  std::atomic<bool>* cancel) {
  std::atomic<bool> own_stop{false};
  std::atomic<bool>& stop = cancel ? *cancel : own_stop;
  Context ctx(spec, config_root, nullptr);
  while (const auto job = server.next_job()) server.reply(ctx.serve(*job, stop));
}

}  // namespace walksim::experiment
