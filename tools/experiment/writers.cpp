// Formats and files. JSON is built with nlohmann-json, never stitched by hand; CSV fields are
// quoted as RFC 4180 says; every file is written through write_checked.
#include "tools/experiment/writers.hpp"

#include <fmt/core.h>
#include <fmt/ostream.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <ctime>
#include <type_traits>
#include <variant>

#include "tools/experiment/plots.hpp"

namespace walksim::experiment {
namespace fs = std::filesystem;

namespace {

std::string si(double v) {
  if (v == 0) return "0";
  const double a = std::abs(v);
  if (a >= 1e9) return fmt::format("{:.3g}G", v / 1e9);
  if (a >= 1e6) return fmt::format("{:.3g}M", v / 1e6);
  if (a >= 1e4) return fmt::format("{:.3g}k", v / 1e3);
  return fmt::format("{:.4g}", v);
}

// A CSV field: quoted when it holds a comma, a quote or a line break (RFC 4180).
std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

// Every number of the results is finite and none is negative (none of the metrics can be): a
// value that is not is a defect of the model or of an overflow check, never a result.
void check_numbers(const nlohmann::json& j, const std::string& at) {
  if (j.is_object()) {
    for (const auto& [k, v] : j.items()) check_numbers(v, at.empty() ? k : at + "." + k);
  } else if (j.is_array()) {
    for (std::size_t i = 0; i < j.size(); ++i) check_numbers(j[i], at + "[" + std::to_string(i) + "]");
  } else if (j.is_number_float()) {
    const double v = j.get<double>();
    if (!std::isfinite(v) || v < 0) {
      throw std::logic_error("the results hold " + fmt::format("{}", v) + " at " + at +
                             ": a time or count overflowed; nothing was written");
    }
  } else if (j.is_number_integer() && !j.is_number_unsigned() && j.get<std::int64_t>() < 0) {
    throw std::logic_error("the results hold " + std::to_string(j.get<std::int64_t>()) + " at " + at +
                           ": a time or count overflowed; nothing was written");
  }
}

nlohmann::json spread_json(const Spread& s) {
  return {{"mean", s.mean}, {"sd", s.sd}, {"min", s.min}, {"max", s.max}, {"n", s.n}};
}

// "±3.1%": the sample standard deviation relative to the mean, as `perf stat -r` shows it.
std::string pm(const Spread& s, bool seeded) {
  if (!seeded) return "±0%";
  if (s.n < 2) return "n=1";
  if (s.mean == 0) return "±0%";
  return fmt::format("±{:.1f}%", 100.0 * s.sd / std::abs(s.mean));
}

std::string hot_name(const workload::HotLine& h) {
  return h.object + ", line " + std::to_string(h.index) + (h.fields.empty() ? "" : ": " + h.fields);
}

}  // namespace

namespace {

// The width of the tables' first column: the longest series label, at least 24.
int label_width(const ExperimentResult& r) {
  std::size_t w = 24;
  for (const auto& k : r.spec.kernels) w = std::max(w, k.size());
  return static_cast<int>(w);
}

// Which marks the rows table used, so that each is explained once below it.
struct RowFlags {
  bool disagree = false, smt = false, bytes_over = false, short_window = false;
};

// Below this share of its measured operations in the common window, a row's throughput rests on a
// short stretch of the run and is marked (`w`).
constexpr double kShortWindowShare = 0.3;

// One line per row: throughput with its spread, ns/op, scaling, RMW/op, CPU use, times, marks.
RowFlags print_rows(const ExperimentResult& r, std::ostream& out) {
  const int lw = label_width(r);
  fmt::print(out, "{:<{}} {:>7} {:>12} {:>7} {:<10} {:>10} {:>9} {:>9} {:>6} {:>10} {:>10}\n", "kernel", lw, "threads",
             "throughput", "±", "unit", "ns/op", "scaling%", "RMW/op", "cpu%", "wall s", "cpu s");
  RowFlags f;
  for (const auto& row : r.rows) {
    const Spread& t = row.spread("throughput");
    const bool disagree = t.disagrees();
    const bool bytes_over = row.throughput_unit == "MB/s" && row.value("scaling_pct") > 100.0 + 0.5;
    f.disagree |= disagree;
    f.smt |= row.value("smt_cores") > 0;
    f.bytes_over |= bytes_over;
    const bool short_window = row.value("window_share") < kShortWindowShare;
    f.short_window |= short_window;
    std::string flags;
    if (disagree) flags += " !";
    if (row.value("smt_cores") > 0) flags += " S";
    if (bytes_over) flags += " b";
    if (short_window) flags += " w";
    fmt::print(out, "{:<{}} {:>7} {:>12} {:>7} {:<10} {:>10.1f} {:>9.1f} {:>9.2f} {:>6.0f} {:>10.4g} {:>10.4g}{}\n",
               row.kernel, lw, row.threads, si(t.mean), pm(t, r.seeded), row.throughput_unit, row.value("ns_per_op"),
               row.value("scaling_pct"), row.value("atomic_rmw_per_op"), 100 * row.value("cpu_utilisation"),
               row.value("wall_s"), row.value("cpu_s"), flags);
  }
  return f;
}

// What the ± column means for this experiment.
void print_spread_note(const ExperimentResult& r, std::ostream& out) {
  const auto& s = r.spec;
  if (!r.seeded) {
    fmt::print(out, "± is 0: {} never draws a random number, so every point is exact for the model in one run{}\n",
               s.workload,
               s.repeats > 1 ? fmt::format(" (repeats: {} would repeat it; each point ran once)", s.repeats) : "");
  } else if (s.repeats > 1) {
    fmt::print(out,
               "±: sample standard deviation of throughput over {} repeats (seeds from seed {}, the kernel's label, "
               "threads and repeat); min and max of every metric in results.csv\n",
               s.repeats, s.seed);
  } else {
    fmt::print(out,
               "n=1: one run per point of a workload that depends on its seed, so the spread is unknown; set "
               "repeats: 5 to see it\n");
  }
}

void print_flag_notes(const ExperimentResult& r, const RowFlags& f, std::ostream& out) {
  if (f.disagree) {
    fmt::print(out,
               "!  the repeats of this point disagree by more than 10% (max - min over the mean): the model is "
               "sensitive here; read the mean with its spread\n");
  }
  if (f.short_window) {
    fmt::print(out,
               "w  under {:.0f}% of the measured operations fall in the window in which every process was measuring, "
               "over which throughput is counted (window_share in results.csv; 0: there was no such window, and the "
               "throughput is the union's, every measured operation over the whole measured span): the processes "
               "ran at unequal speeds (SMT siblings; an unfair lock, which lets some finish their operations early) "
               "or started staggered, so the throughput is not that of all of them running together and can move "
               "far more than the cost per operation; read ns/op beside it, and for a staggered start lengthen the "
               "run (ops_per_process), for an unfair lock run it by duration (run.duration: every process then "
               "measures until the end)\n",
               100 * kShortWindowShare);
  }
  if (f.smt) {
    fmt::print(out,
               "S  some cores run two of the point's processes on SMT siblings (hardware threads of one core): their "
               "private work and cache hits run at the machine's smt_throughput (smt_cores in results.csv)\n");
  }
  if (f.bytes_over) {
    fmt::print(out,
               "b  scaling above 100% of a throughput in MB/s: each process's operation mix moves different "
               "bytes; per operation it is");
    for (const auto& row : r.rows) {
      if (row.throughput_unit == "MB/s" && row.value("scaling_pct") > 100.5) {
        fmt::print(out, " {} x{} {:.1f}%", row.kernel, row.threads, row.value("op_scaling_pct"));
      }
    }
    fmt::print(out, " (op_scaling_pct in results.csv)\n");
  }
}

// One process's real/user/sys, as time(1) reports them, when the experiment extrapolates.
void print_time1(const ExperimentResult& r, std::ostream& out) {
  const auto& s = r.spec;
  const int lw = label_width(r);
  if (s.extrapolate_ops) {
    fmt::print(out, "\none process, extrapolated to {} operations (time(1) columns):\n", s.extrapolate_ops);
    fmt::print(out, "{:<{}} {:>7} {:>10} {:>10} {:>10}\n", "kernel", lw, "threads", "real s", "user s", "sys s");
    for (const auto& row : r.rows) {
      fmt::print(out, "{:<{}} {:>7} {:>10.3f} {:>10.3f} {:>10.3f}\n", row.kernel, lw, row.threads,
                 row.value("process_real_s"), row.value("process_user_s"), row.value("process_sys_s"));
    }
  }
}

// Why it does or does not scale: the hottest lines at the largest thread count of each kernel.
void print_hot_lines(const ExperimentResult& r, std::ostream& out) {
  const auto& s = r.spec;
  for (const auto& k : s.kernels) {
    const Row* big = nullptr;
    for (const auto& row : r.rows) {
      if (row.kernel == k && (!big || row.threads > big->threads)) big = &row;
    }
    if (!big || big->hot.empty() || big->hot.front().transfers == 0) continue;  // nothing moved between cores
    fmt::print(out,
               "\nhot lines, {} x{}{} (ownership transfers and time requesters waited on each line, over the whole "
               "run, warm-up included):\n",
               k, big->threads, r.seeded && s.repeats > 1 ? ", first repeat" : "");
    for (std::size_t i = 0; i < std::min<std::size_t>(5, big->hot.size()); ++i) {
      const auto& h = big->hot[i];
      fmt::print(out, "  {:>9} transfers {:>10.1f} us stall  {}{}\n", h.transfers, sim::to_ns(h.stall) / 1000.0,
                 hot_name(h), h.shared ? "" : "  (private)");
    }
  }
}

void print_fallbacks(const ExperimentResult& r, std::ostream& out) {
  const int lw = label_width(r);
  bool any_rcu = false;
  for (const auto& row : r.rows) any_rcu |= row.walk.rcu_lookups > 0;
  if (any_rcu) {
    fmt::print(out, "\nrcu-walk fallbacks (as in Documentation/filesystems/path-lookup.txt):\n");
    fmt::print(out, "{:<{}} {:>7} {:>12} {:>8} {:>10} {:>10} {:>8} {:>8}\n", "kernel", lw, "threads", "rcu-lookups",
               "restart", "nodentry", "permission", "link", "reval");
    for (const auto& row : r.rows) {
      if (!row.walk.rcu_lookups) continue;
      const auto& w = row.walk;
      const double n = static_cast<double>(w.rcu_lookups);
      fmt::print(out, "{:<{}} {:>7} {:>12} {:>8} {:>10} {:>10} {:>8} {:>8}\n", row.kernel, lw, row.threads,
                 w.rcu_lookups, w.restarts,
                 fmt::format("{} ({:.1f}%)", w.nodentry, 100.0 * static_cast<double>(w.nodentry) / n), w.permission,
                 w.link, w.reval);
    }
  }
}

}  // namespace

void print_summary(const ExperimentResult& r, std::ostream& out) {
  const auto& s = r.spec;
  fmt::print(out, "{} — {} on {}, workload {}\n", s.name, s.description, s.machine, s.workload);
  if (s.run_ahead > 0) {
    fmt::print(out,
               "APPROXIMATE: run-ahead {:g} ns (--run-ahead): a thread's own hits and private work may take effect up "
               "to that long before other cores' earlier accesses; see docs/performance.md, \"Run-ahead\"\n",
               sim::to_ns(s.run_ahead));
  }
  if (r.calibration) {
    fmt::print(out, "calibrated {} = {:.4f}{} (fitted to {}; residual {:.2f}%)\n", r.calibration->parameter,
               r.calibration->value, r.user_time ? " us per operation" : "", r.calibration->fitted_to.front(),
               r.calibration->residual_pct);
  }
  const RowFlags f = print_rows(r, out);
  print_spread_note(r, out);
  print_flag_notes(r, f, out);
  print_time1(r, out);
  print_hot_lines(r, out);
  print_fallbacks(r, out);
}

namespace {

// Resolved workload parameters as a JSON object: null for an input left out, else the value as the
// YAML writes it (a time or size with its unit, as text).
nlohmann::json params_json(const workload::ResolvedParams& params) {
  nlohmann::json out = nlohmann::json::object();
  for (const auto& p : params) {
    std::visit(
        [&](const auto& v) {
          if constexpr (std::is_same_v<std::decay_t<decltype(v)>, std::monostate>) {
            out[std::string(p.key)] = nullptr;
          } else {
            out[std::string(p.key)] = v;
          }
        },
        p.value);
  }
  return out;
}

// The series (index into spec.kernels) of a row's label.
std::size_t series_of(const ExperimentSpec& s, const std::string& label) {
  for (std::size_t k = 0; k < s.kernels.size(); ++k) {
    if (s.kernels[k] == label) return k;
  }
  throw std::logic_error("a row of an unknown series: " + label);
}

// A series' axis values by key (vary:).
nlohmann::json axes_json(const ExperimentSpec& s, std::size_t series) {
  nlohmann::json a = nlohmann::json::object();
  for (std::size_t i = 0; i < s.axes.size(); ++i) a[s.axes[i].key] = s.axis_values[series][i];
  return a;
}

// What ran: the resolved configuration (defaults included) and the fitted parameter.
nlohmann::json config_json(const ExperimentResult& r) {
  const auto& s = r.spec;
  nlohmann::json cfg;
  cfg["name"] = s.name;
  cfg["description"] = s.description;
  cfg["file"] = s.file;
  cfg["machine"] = s.machine;
  cfg["kernels"] = nlohmann::json::array();
  for (std::size_t k = 0; k < s.kernels.size(); ++k) {
    const auto& o = s.kernel_options[k];
    cfg["kernels"].push_back(
        {{"label", s.kernels[k]},
         {"kernel", s.kernel_variants[k]},
         {"options", {{"prefetch", o.prefetch}, {"posix_acl", o.posix_acl}, {"caller_is_owner", o.caller_is_owner}}},
         {"params", params_json(s.kernel_resolved[k])}});
  }
  if (!s.axes.empty()) {
    cfg["vary"] = nlohmann::json::array();
    for (const auto& a : s.axes) {
      nlohmann::json values = nlohmann::json::array();
      for (const auto& v : a.values) values.push_back(v.label);
      cfg["vary"].push_back({{"key", a.key}, {"values", values}});
    }
    for (std::size_t k = 0; k < s.kernels.size(); ++k) {
      cfg["kernels"][k]["entry"] = s.entry_labels[k];
      cfg["kernels"][k]["axes"] = axes_json(s, k);
    }
  }
  cfg["workload"] = s.workload;
  cfg["workload_params"] = params_json(s.workload_resolved);
  cfg["threads"] = s.threads;
  if (s.placement == workload::Placement::kList) {
    cfg["placement"] = {{"cpus", s.placement_cpus}};
  } else {
    cfg["placement"] = s.placement == workload::Placement::kCoresFirst ? "cores-first" : "compact";
  }
  cfg["run"] = {
      {"ops_per_process", s.control.ops_per_process},
      {"warmup_ops", s.control.warmup_ops},
      {"duration_ns", s.control.end == sim::kNever ? nlohmann::json() : nlohmann::json(sim::to_ns(s.control.end))},
      {"warmup_ns", sim::to_ns(s.control.warmup_end)},
      {"extrapolate_to_ops", s.extrapolate_ops}};
  cfg["seed"] = s.seed;
  cfg["repeats"] = s.repeats;
  cfg["seeded"] = r.seeded;  // false: the workload never draws a random number; each point ran once
  cfg["cpu_cost_scale"] = r.cost_scale;
  if (r.user_time) cfg["calibrated_user_time_ns"] = sim::to_ns(*r.user_time);
  return cfg;
}

// One row: every metric of the table it carries (counts as integers), the path-walk counts, the
// spreads and the hot lines of its first repeat.
nlohmann::json row_json(const Row& row) {
  nlohmann::json x{{"kernel", row.kernel},
                   {"threads", row.threads},
                   {"throughput_unit", row.throughput_unit},
                   {"op_unit", row.op_unit},
                   {"repeats_disagree", row.spread("throughput").disagrees()}};
  nlohmann::json sp;
  for (const auto& m : metric_defs()) {
    const auto it = row.metrics.find(m.name);
    if (it == row.metrics.end()) continue;
    if (m.aggregate == Aggregate::kSum || m.aggregate == Aggregate::kMax) {
      x[m.name] = static_cast<std::uint64_t>(std::llround(it->second.mean));  // a count
    } else {
      x[m.name] = it->second.mean;
      sp[m.name] = spread_json(it->second);
    }
  }
  for (const auto& f : kernel::kWalkStatsFields) x[f.name] = row.walk.*f.value;
  x["spread"] = sp;
  x["hot_lines"] = nlohmann::json::array();
  for (const auto& h : row.hot) {
    x["hot_lines"].push_back({{"object", h.object},
                              {"line", h.index},
                              {"fields", h.fields},
                              {"shared", h.shared},
                              {"transfers", h.transfers},
                              {"transactions", h.transactions},
                              {"stall_ns", sim::to_ns(h.stall)},
                              {"queued_ns", sim::to_ns(h.queued)}});
  }
  return x;
}

// One repeat of one point, with its three hottest lines: where repeats disagree, these say which
// line one seed collapsed on and another did not.
nlohmann::json point_json(const PointResult& p) {
  nlohmann::json x{{"kernel", p.kernel},
                   {"threads", p.threads},
                   {"repeat", p.repeat},
                   {"seed", p.seed},
                   {"throughput", p.run.reports_bytes ? p.run.bytes_per_s / 1e6 : p.run.ops_per_s},
                   {"ns_per_op", p.run.ns_per_op},
                   {"cpus", p.run.cpus},
                   {"ops", p.run.ops},
                   {"calls", p.run.calls},
                   {"failed_calls", p.run.failed},
                   {"mem_ops", p.run.mem_ops},
                   {"events", p.run.events}};
  auto& hot = x["hot_lines"] = nlohmann::json::array();
  for (std::size_t i = 0; i < std::min<std::size_t>(3, p.run.hot.size()); ++i) {
    const auto& h = p.run.hot[i];
    hot.push_back({{"object", h.object},
                   {"line", h.index},
                   {"fields", h.fields},
                   {"transfers", h.transfers},
                   {"stall_ns", sim::to_ns(h.stall)}});
  }
  return x;
}

}  // namespace

nlohmann::json results_json(const ExperimentResult& r, const std::string& version) {
  nlohmann::json j;
  j["walksim_version"] = version;
  j["config"] = config_json(r);
  // Only an approximate run says so: an exact run's file is what it was before the option existed.
  if (r.spec.run_ahead > 0) j["approximation"] = {{"run_ahead_ps", r.spec.run_ahead}};
  if (r.calibration) {
    j["calibration"] = {{"parameter", r.calibration->parameter},
                        {"value", r.calibration->value},
                        {"fitted_to", r.calibration->fitted_to},
                        {"residual_pct", r.calibration->residual_pct}};
  }
  j["rows"] = nlohmann::json::array();
  for (const auto& row : r.rows) {
    j["rows"].push_back(row_json(row));
    if (!r.spec.axes.empty()) j["rows"].back()["axes"] = axes_json(r.spec, series_of(r.spec, row.kernel));
  }
  j["points"] = nlohmann::json::array();
  for (const auto& p : r.points) j["points"].push_back(point_json(p));
  check_numbers(j, "");
  return j;
}

std::string write_outputs(const ExperimentResult& r, const OutputDir& dir, const std::string& version,
                          const std::string& command_line) {
  // results.json: deterministic (no times, no host).
  write_checked(dir.file("results.json"), results_json(r, version).dump(2) + "\n");
  // meta.json: what differs between two runs of the same experiment.
  const auto now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  char stamp[64];
  std::strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  char host[256] = "";
  gethostname(host, sizeof host - 1);
  nlohmann::json meta{{"finished", stamp},
                      {"host", host},
                      {"host_seconds", r.host_seconds},
                      {"command", command_line},
                      {"walksim_version", version}};
  write_checked(dir.file("meta.json"), meta.dump(2) + "\n");
  // results.csv: long format, a metric per line with its spread over the repeats.
  // With vary:, one column per axis after the kernel's label: the series' value of that axis.
  std::string axis_header;
  for (const auto& a : r.spec.axes) axis_header += "," + csv_field(a.key);
  std::string csv = "kernel" + axis_header + ",threads,metric,value,unit,sd,min,max,n\n";
  for (const auto& row : r.rows) {
    std::string axis_cells;
    if (!r.spec.axes.empty()) {
      for (const auto& v : r.spec.axis_values[series_of(r.spec, row.kernel)]) axis_cells += "," + csv_field(v);
    }
    auto add = [&](const char* metric, double v, const std::string& unit, const Spread* sp) {
      const std::string spread = sp ? fmt::format("{},{},{},{}", sp->sd, sp->min, sp->max, sp->n) : ",,,";
      csv += fmt::format("{}{},{},{},{},{},{}\n", csv_field(row.kernel), axis_cells, row.threads, metric, v,
                         csv_field(unit), spread);
    };
    for (const auto& m : metric_defs()) {
      const auto it = row.metrics.find(m.name);
      if (it == row.metrics.end()) continue;
      const bool has_spread = m.aggregate == Aggregate::kMean || m.aggregate == Aggregate::kScaling;
      add(m.name, it->second.mean, unit_text(m.unit, row.throughput_unit, row.op_unit),
          has_spread ? &it->second : nullptr);
    }
    for (const auto& f : kernel::kWalkStatsFields)
      add(f.name, static_cast<double>(row.walk.*f.value), "count", nullptr);
  }
  write_checked(dir.file("results.csv"), csv);
  // hotlines.csv
  std::string hot = "kernel,threads,rank,object,line,fields,shared,transfers,transactions,stall_ns,queued_ns\n";
  for (const auto& row : r.rows) {
    for (std::size_t i = 0; i < row.hot.size(); ++i) {
      const auto& h = row.hot[i];
      hot += fmt::format("{},{},{},{},{},{},{},{},{},{},{}\n", csv_field(row.kernel), row.threads, i + 1,
                         csv_field(h.object), h.index, csv_field(h.fields), h.shared ? 1 : 0, h.transfers,
                         h.transactions, sim::to_ns(h.stall), sim::to_ns(h.queued));
    }
  }
  write_checked(dir.file("hotlines.csv"), hot);
  // Plots: data and script always; the images when gnuplot is installed.
  write_checked(dir.file("plot.dat"), plot_data(r));
  if (!r.spec.axes.empty()) write_checked(dir.file("heat.dat"), heat_data(r));
  write_checked(dir.file("plot.gp"), plot_script(r));
  return run_gnuplot(dir.tmp(), plot_files(r));
}

}  // namespace walksim::experiment
