// Formats and files. JSON is built with nlohmann-json, never stitched by hand.
#include "tools/experiment/writers.hpp"

#include <fmt/core.h>
#include <fmt/ostream.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <random>

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

void write_file(const std::string& path, const std::string& text) {
  std::ofstream f(path);
  f << text;
  if (!f) throw std::runtime_error("cannot write " + path);
}

nlohmann::json walk_json(const kernel::WalkStats& w) {
  return {{"rcu_lookups", w.rcu_lookups}, {"ref_lookups", w.ref_lookups}, {"restart", w.restarts},
          {"nodentry", w.nodentry},       {"permission", w.permission},   {"link", w.link},
          {"reval", w.reval}};
}

std::string hot_name(const workload::HotLine& h) {
  return h.object + ", line " + std::to_string(h.index) + (h.fields.empty() ? "" : ": " + h.fields);
}

}  // namespace

void print_summary(const ExperimentResult& r, std::ostream& out) {
  const auto& s = r.spec;
  fmt::print(out, "{} — {} on {}, workload {}\n", s.name, s.description, s.machine, s.workload);
  if (r.calibration) {
    fmt::print(out, "calibrated {} = {:.4f}{} (fitted to {}; residual {:.2f}%)\n", r.calibration->parameter,
               r.calibration->value, r.user_time ? " us per operation" : "", r.calibration->fitted_to.front(),
               r.calibration->residual_pct);
  }
  fmt::print(out, "{:<24} {:>7} {:>12} {:<10} {:>10} {:>9} {:>9} {:>6} {:>10} {:>10}\n", "kernel", "threads",
             "throughput", "unit", "ns/op", "scaling%", "RMW/op", "cpu%", "wall s", "cpu s");
  for (const auto& row : r.rows) {
    fmt::print(out, "{:<24} {:>7} {:>12} {:<10} {:>10.1f} {:>9.1f} {:>9.2f} {:>6.0f} {:>10.4g} {:>10.4g}\n", row.kernel,
               row.threads, si(row.throughput), row.throughput_unit, row.ns_per_op, row.scaling_pct,
               row.atomic_rmw_per_op, 100 * row.cpu_utilisation, row.wall_s, row.cpu_s);
  }
  if (s.extrapolate_ops) {
    fmt::print(out, "\none process, extrapolated to {} operations (time(1) columns):\n", s.extrapolate_ops);
    fmt::print(out, "{:<24} {:>7} {:>10} {:>10} {:>10}\n", "kernel", "threads", "real s", "user s", "sys s");
    for (const auto& row : r.rows) {
      fmt::print(out, "{:<24} {:>7} {:>10.3f} {:>10.3f} {:>10.3f}\n", row.kernel, row.threads, row.real_s,
                 row.proc_user_s, row.proc_sys_s);
    }
  }
  // Why it does or does not scale: the hottest lines at the largest thread count of each kernel.
  for (const auto& k : s.kernels) {
    const Row* big = nullptr;
    for (const auto& row : r.rows) {
      if (row.kernel == k && (!big || row.threads > big->threads)) big = &row;
    }
    if (!big || big->hot.empty() || big->hot.front().transfers == 0) continue;  // nothing moved between cores
    fmt::print(out, "\nhot lines, {} x{} (ownership transfers and time requesters waited on each line):\n", k,
               big->threads);
    for (std::size_t i = 0; i < std::min<std::size_t>(5, big->hot.size()); ++i) {
      const auto& h = big->hot[i];
      fmt::print(out, "  {:>9} transfers {:>10.1f} us stall  {}{}\n", h.transfers, sim::to_ns(h.stall) / 1000.0,
                 hot_name(h), h.shared ? "" : "  (private)");
    }
  }
  bool any_rcu = false;
  for (const auto& row : r.rows) any_rcu |= row.walk.rcu_lookups > 0;
  if (any_rcu) {
    fmt::print(out, "\nrcu-walk fallbacks (as in Documentation/filesystems/path-lookup.txt):\n");
    fmt::print(out, "{:<24} {:>7} {:>12} {:>8} {:>10} {:>10} {:>8} {:>8}\n", "kernel", "threads", "rcu-lookups",
               "restart", "nodentry", "permission", "link", "reval");
    for (const auto& row : r.rows) {
      if (!row.walk.rcu_lookups) continue;
      const auto& w = row.walk;
      const double n = static_cast<double>(w.rcu_lookups);
      fmt::print(out, "{:<24} {:>7} {:>12} {:>8} {:>10} {:>10} {:>8} {:>8}\n", row.kernel, row.threads, w.rcu_lookups,
                 w.restarts, fmt::format("{} ({:.1f}%)", w.nodentry, 100.0 * static_cast<double>(w.nodentry) / n),
                 w.permission, w.link, w.reval);
    }
  }
}

nlohmann::json results_json(const ExperimentResult& r, const std::string& version) {
  const auto& s = r.spec;
  nlohmann::json j;
  j["walksim_version"] = version;
  nlohmann::json cfg;
  cfg["name"] = s.name;
  cfg["description"] = s.description;
  cfg["file"] = s.file;
  cfg["machine"] = s.machine;
  cfg["kernels"] = nlohmann::json::array();
  for (std::size_t k = 0; k < s.kernels.size(); ++k) {
    const auto& o = s.kernel_options[k];
    cfg["kernels"].push_back({{"label", s.kernels[k]},
                              {"kernel", s.kernel_variants[k]},
                              {"options", {{"prefetch", o.prefetch},
                                           {"posix_acl", o.posix_acl},
                                           {"caller_is_owner", o.caller_is_owner}}}});
  }
  cfg["workload"] = s.workload;
  cfg["threads"] = s.threads;
  cfg["placement"] = s.placement == workload::Placement::kCoresFirst ? "cores-first" : "compact";
  cfg["run"] = {{"ops_per_process", s.control.ops_per_process},
                {"warmup_ops", s.control.warmup_ops},
                {"duration_ns", s.control.end == sim::kNever ? -1.0 : sim::to_ns(s.control.end)},
                {"warmup_ns", sim::to_ns(s.control.warmup_end)},
                {"extrapolate_to_ops", s.extrapolate_ops}};
  cfg["seed"] = s.seed;
  cfg["repeats"] = s.repeats;
  cfg["os"] = {{"wakeup_latency_ns", sim::to_ns(s.wakeup_latency)}, {"source", s.wakeup_source}};
  cfg["cpu_cost_scale"] = r.cost_scale;
  if (r.user_time) cfg["calibrated_user_time_ns"] = sim::to_ns(*r.user_time);
  j["config"] = cfg;
  if (r.calibration) {
    j["calibration"] = {{"parameter", r.calibration->parameter},
                        {"value", r.calibration->value},
                        {"fitted_to", r.calibration->fitted_to},
                        {"residual_pct", r.calibration->residual_pct}};
  }
  j["rows"] = nlohmann::json::array();
  for (const auto& row : r.rows) {
    nlohmann::json x{{"kernel", row.kernel},
                     {"threads", row.threads},
                     {"throughput", row.throughput},
                     {"throughput_unit", row.throughput_unit},
                     {"ns_per_op", row.ns_per_op},
                     {"scaling_pct", row.scaling_pct},
                     {"atomic_rmw_per_op", row.atomic_rmw_per_op},
                     {"cpu_utilisation", row.cpu_utilisation},
                     {"wall_s", row.wall_s},
                     {"cpu_s", row.cpu_s},
                     {"user_s", row.user_s},
                     {"sys_s", row.sys_s},
                     {"spin_s", row.spin_s},
                     {"sleep_s", row.sleep_s},
                     {"process_real_s", row.real_s},
                     {"process_user_s", row.proc_user_s},
                     {"process_sys_s", row.proc_sys_s},
                     {"fallbacks", walk_json(row.walk)}};
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
    j["rows"].push_back(x);
  }
  j["points"] = nlohmann::json::array();
  for (const auto& p : r.points) {
    j["points"].push_back({{"kernel", p.kernel},
                           {"threads", p.threads},
                           {"repeat", p.repeat},
                           {"cpus", p.run.cpus},
                           {"ops", p.run.ops},
                           {"calls", p.run.calls},
                           {"failed_calls", p.run.failed},
                           {"mem_ops", p.run.mem_ops},
                           {"events", p.run.events}});
  }
  return j;
}

OutputDir::OutputDir(std::string final_path) : final_(std::move(final_path)) {
  const fs::path parent = fs::absolute(fs::path(final_)).parent_path();
  fs::create_directories(parent);
  std::random_device rd;
  for (int attempt = 0; attempt < 100; ++attempt) {
    const fs::path p = parent / fmt::format(".{}.tmp-{:08x}", fs::path(final_).filename().string(), rd());
    if (fs::create_directory(p)) {
      tmp_ = p.string();
      return;
    }
  }
  throw std::runtime_error("cannot create a temporary directory beside " + final_);
}

OutputDir::~OutputDir() {
  if (!committed_) {
    std::error_code ec;
    fs::remove_all(tmp_, ec);
  }
}

void OutputDir::commit() {
  std::error_code ec;
  const fs::path old = fs::path(tmp_).string() + ".old";
  const bool had = fs::exists(final_);
  if (had) fs::rename(final_, old);
  fs::rename(tmp_, final_);
  if (had) fs::remove_all(old, ec);
  committed_ = true;
}

std::string write_outputs(const ExperimentResult& r, const OutputDir& dir, const std::string& version,
                          const std::string& command_line) {
  // results.json: deterministic (no times, no host).
  write_file(dir.file("results.json"), results_json(r, version).dump(2) + "\n");
  // meta.json: what differs between two runs of the same experiment.
  const auto now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  char stamp[64];
  std::strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  char host[256] = "";
  gethostname(host, sizeof host - 1);
  nlohmann::json meta{{"finished", stamp}, {"host", host}, {"host_seconds", r.host_seconds},
                      {"command", command_line}, {"walksim_version", version}};
  write_file(dir.file("meta.json"), meta.dump(2) + "\n");
  // results.csv: long format.
  std::string csv = "kernel,threads,metric,value,unit\n";
  auto add = [&](const Row& row, const char* metric, double v, const std::string& unit) {
    csv += fmt::format("{},{},{},{},{}\n", row.kernel, row.threads, metric, v, unit);
  };
  for (const auto& row : r.rows) {
    add(row, "throughput", row.throughput, row.throughput_unit);
    add(row, "ns_per_op", row.ns_per_op, "ns");
    add(row, "scaling_pct", row.scaling_pct, "%");
    add(row, "atomic_rmw_per_op", row.atomic_rmw_per_op, "count");
    add(row, "cpu_utilisation", row.cpu_utilisation, "fraction");
    add(row, "wall_time", row.wall_s, "s");
    add(row, "cpu_time", row.cpu_s, "s");
    add(row, "user_time", row.user_s, "s");
    add(row, "sys_time", row.sys_s, "s");
    add(row, "spin_time", row.spin_s, "s");
    add(row, "sleep_time", row.sleep_s, "s");
    if (r.spec.extrapolate_ops) {
      add(row, "process_real", row.real_s, "s");
      add(row, "process_user", row.proc_user_s, "s");
      add(row, "process_sys", row.proc_sys_s, "s");
    }
    add(row, "rcu_lookups", static_cast<double>(row.walk.rcu_lookups), "count");
    add(row, "fallback_restart", static_cast<double>(row.walk.restarts), "count");
    add(row, "fallback_nodentry", static_cast<double>(row.walk.nodentry), "count");
    add(row, "fallback_permission", static_cast<double>(row.walk.permission), "count");
    add(row, "fallback_link", static_cast<double>(row.walk.link), "count");
    add(row, "fallback_reval", static_cast<double>(row.walk.reval), "count");
  }
  write_file(dir.file("results.csv"), csv);
  // hotlines.csv
  std::string hot = "kernel,threads,rank,object,line,fields,shared,transfers,transactions,stall_ns,queued_ns\n";
  for (const auto& row : r.rows) {
    for (std::size_t i = 0; i < row.hot.size(); ++i) {
      const auto& h = row.hot[i];
      hot += fmt::format("{},{},{},\"{}\",{},\"{}\",{},{},{},{},{}\n", row.kernel, row.threads, i + 1, h.object, h.index,
                         h.fields, h.shared ? 1 : 0, h.transfers, h.transactions, sim::to_ns(h.stall),
                         sim::to_ns(h.queued));
    }
  }
  write_file(dir.file("hotlines.csv"), hot);
  // Plots.
  std::string data;
  for (const auto& k : r.spec.kernels) {
    data += "# " + k + "\n";
    for (const auto& row : r.rows) {
      if (row.kernel == k) data += fmt::format("{} {} {} {}\n", row.threads, row.throughput, row.scaling_pct, row.ns_per_op);
    }
    data += "\n\n";
  }
  write_file(dir.file("plot.dat"), data);
  const std::string unit = r.rows.empty() ? "" : r.rows.front().throughput_unit;
  std::string script;
  for (const char* term : {"svg", "png"}) {
    const std::string set_term = std::string(term) == "svg" ? "set terminal svg size 800,500 dynamic" : "set terminal png size 800,500";
    struct Plot {
      const char* file;
      const char* ylabel;
      int column;
    };
    for (const Plot& p : {Plot{"throughput", nullptr, 2}, Plot{"scaling", "scaling % (throughput(N) / (N x throughput(1)))", 3},
                          Plot{"ns_per_op", "ns per operation", 4}}) {
      script += set_term + "\n";
      script += fmt::format("set output '{}.{}'\n", p.file, term);
      script += fmt::format("set title \"{} on {} ({})\" noenhanced\n", r.spec.name, r.spec.machine, r.spec.workload);
      script += "set xlabel 'threads'\nset key left top noenhanced\nset grid\nset logscale x 2\n";
      script += fmt::format("set ylabel \"{}\" noenhanced\n", p.ylabel ? p.ylabel : ("throughput (" + unit + ")").c_str());
      script += "plot ";
      for (std::size_t k = 0; k < r.spec.kernels.size(); ++k) {
        script += fmt::format("{}'plot.dat' index {} using 1:{} with linespoints title '{}'", k ? ", " : "", k,
                              p.column, r.spec.kernels[k]);
      }
      script += "\nunset output\n";
    }
  }
  write_file(dir.file("plot.gp"), script);
  if (std::system("command -v gnuplot >/dev/null 2>&1") != 0) {
    return "gnuplot is not installed: plots skipped (apt-get install gnuplot-nox); plot.gp and plot.dat are written";
  }
  // The script uses relative names, so it can be re-run from the results directory.
  const std::string cmd = "cd '" + dir.tmp() + "' && gnuplot plot.gp 2>gnuplot.log";
  if (std::system(cmd.c_str()) != 0) return "gnuplot failed: see gnuplot.log; the data is in plot.dat";
  return "plots: throughput, scaling and ns_per_op (.svg and .png)";
}

}  // namespace walksim::experiment
