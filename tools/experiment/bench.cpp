// The scenarios are built in code (not YAML) so that figures stay comparable across versions.
#include "tools/experiment/bench.hpp"

#include <fmt/core.h>
#include <fmt/ostream.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <functional>
#include <stdexcept>

#include "models/config/strict_yaml.hpp"
#include "models/kernel/kernel_loader.hpp"
#include "models/machine/machine_loader.hpp"
#include "models/workload/simulate.hpp"
#include "models/workload/workload_registry.hpp"

namespace walksim::experiment {
namespace {

struct Scenario {
  std::string name;
  std::string machine;
  std::string kernel;
  std::string workload;
  std::string params;  // YAML mapping text
  std::uint32_t threads;
  std::uint64_t ops_per_process;
};

std::vector<Scenario> scenarios() {
  return {
      {"dbench-64-altix-2.6.35", "altix-32n64c", "linux-2.6.35", "dbench", "{statfs: false}", 64, 150},
      {"dbench-64-altix-store-free", "altix-32n64c", "vfs-scale-2010", "dbench", "{statfs: false}", 64, 1500},
      // Reference, not a target: the same number of dbench operations by one client, so that the
      // cost of interleaving 64 threads in global time order shows against the same work alone.
      {"dbench-1-altix-store-free", "altix-32n64c", "vfs-scale-2010", "dbench", "{statfs: false}", 1, 96000},
      {"stat-loop-64-2.6.38", "altix-32n64c", "linux-2.6.38", "stat-loop", "{path_components: 4}", 64, 3000},
      {"git-diff-20-preload-westmere", "westmere-ep-2s12c", "linux-2.6.38", "git-diff", "{preload: true}", 20, 0},
  };
}

workload::RunResult run_one(const Scenario& s, const std::string& root, bool floor, sim::Picos run_ahead) {
  machine::Machine m(machine::load_machine(s.machine, {root + "/machines"}));
  const auto k = kernel::load_kernel(s.kernel, {root + "/kernels"});
  const config::Node params = config::load_string(s.params, "bench scenario " + s.name);
  const config::Node at = config::load_string("x: 1", "bench");
  const auto& kind = workload::find_workload(s.workload, at);
  auto w = kind.make(&params);
  workload::RunSpec rs;
  rs.machine = &m;
  rs.kernel = &k;
  rs.threads = s.threads;
  rs.control.ops_per_process = s.ops_per_process;
  rs.floor = floor;
  rs.run_ahead = run_ahead;
  rs.hot_lines = 0;
  return workload::simulate(rs, *w);
}

// Runs `fn` in a child; returns its output line and the child's peak RSS in MB.
std::pair<std::string, double> in_child(const std::function<std::string()>& fn) {
  int fds[2];
  if (pipe(fds) != 0) throw std::runtime_error("pipe failed");
  const pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    close(fds[0]);
    std::string out;
    try {
      out = fn();
    } catch (const std::exception& e) {
      out = std::string("error ") + e.what();
    }
    const ssize_t n = write(fds[1], out.data(), out.size());
    (void)n;
    close(fds[1]);
    _exit(0);
  }
  close(fds[1]);
  std::string out;
  char buf[4096];
  for (ssize_t n; (n = read(fds[0], buf, sizeof buf)) > 0;) out.append(buf, static_cast<std::size_t>(n));
  close(fds[0]);
  int status = 0;
  struct rusage ru {};
  wait4(pid, &status, 0, &ru);
  return {out, static_cast<double>(ru.ru_maxrss) / 1024.0};
}

}  // namespace

std::vector<std::string> bench_scenarios() {
  std::vector<std::string> out;
  for (const auto& s : scenarios()) out.push_back(s.name);
  return out;
}

std::vector<BenchResult> run_bench(const std::string& root, const std::vector<std::string>& only, unsigned repeat,
                                   sim::Picos run_ahead) {
  std::vector<BenchResult> results;
  for (const auto& s : scenarios()) {
    if (!only.empty() && std::find(only.begin(), only.end(), s.name) == only.end()) continue;
    auto timed = [&](bool floor) {
      return in_child([&] {
        const auto t0 = std::chrono::steady_clock::now();
        const auto r = run_one(s, root, floor, run_ahead);
        const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        // The simulation loop alone, and everything before it (loading the configs, building the
        // file tree and the machine state).
        return fmt::format("{} {} {} {} {} {} {}", r.host_run_s, secs - r.host_run_s, r.mem_ops, r.events,
                           sim::to_ns(r.simulated), r.lines, r.bytes_per_line);
      });
    };
    // Every repetition simulates the same thing (runs are deterministic): keep the fastest
    // simulation and, separately, the fastest floor.
    BenchResult b;
    double sim_ns = 0;
    for (unsigned i = 0; i < repeat; ++i) {
      const auto [sim_out, rss] = timed(false);
      const auto [floor_out, floor_rss] = timed(true);
      (void)floor_rss;
      if (sim_out.rfind("error", 0) == 0) throw std::runtime_error("bench scenario " + s.name + ": " + sim_out);
      if (floor_out.rfind("error", 0) == 0) throw std::runtime_error("bench scenario " + s.name + ": " + floor_out);
      BenchResult t;
      double t_ns = 0;
      std::sscanf(sim_out.c_str(), "%lf %lf %lu %lu %lf %lu %zu", &t.host_s, &t.setup_s, &t.mem_ops, &t.events, &t_ns,
                  &t.lines, &t.bytes_per_line);
      std::sscanf(floor_out.c_str(), "%lf %*f %lu", &t.floor_host_s, &t.floor_mem_ops);  // its setup time is not used
      t.peak_rss_mb = rss;
      const double best_floor = i == 0 ? t.floor_host_s : std::min(b.floor_host_s, t.floor_host_s);
      if (i == 0 || t.host_s < b.host_s) {
        b = t;
        sim_ns = t_ns;
      }
      b.floor_host_s = best_floor;
    }
    b.name = s.name;
    b.mem_ops_per_s = static_cast<double>(b.mem_ops) / b.host_s;
    b.events_per_s = static_cast<double>(b.events) / b.host_s;
    b.simulated_per_host_s = sim_ns * 1e-9 / b.host_s;
    b.overhead = b.floor_host_s > 0 ? b.host_s / b.floor_host_s : 0;
    b.floor_mem_ops_per_s = b.floor_host_s > 0 ? static_cast<double>(b.floor_mem_ops) / b.floor_host_s : 0;
    results.push_back(b);
  }
  return results;
}

nlohmann::json bench_json(const std::vector<BenchResult>& r) {
  nlohmann::json j;
  j["scenarios"] = nlohmann::json::array();
  for (const auto& b : r) {
    j["scenarios"].push_back({{"name", b.name},
                              {"mem_ops", b.mem_ops},
                              {"events", b.events},
                              {"host_s", b.host_s},
                              {"setup_s", b.setup_s},
                              {"mem_ops_per_s", b.mem_ops_per_s},
                              {"events_per_s", b.events_per_s},
                              {"simulated_s_per_host_s", b.simulated_per_host_s},
                              {"floor_host_s", b.floor_host_s},
                              {"floor_mem_ops", b.floor_mem_ops},
                              {"floor_mem_ops_per_s", b.floor_mem_ops_per_s},
                              {"overhead", b.overhead},
                              {"peak_rss_mb", b.peak_rss_mb},
                              {"lines", b.lines},
                              {"bytes_per_line", b.bytes_per_line}});
  }
  return j;
}

void print_bench(const std::vector<BenchResult>& r, std::ostream& out) {
  fmt::print(out, "{:<30} {:>11} {:>8} {:>8} {:>11} {:>11} {:>13} {:>8} {:>11} {:>9} {:>8} {:>7}\n", "scenario",
             "mem ops", "setup s", "host s", "mem ops/s", "events/s", "sim us/host s", "floor s", "floor ops/s",
             "overhead", "peak MB", "B/line");
  for (const auto& b : r) {
    fmt::print(
        out,
        "{:<30} {:>11} {:>8.3f} {:>8.3f} {:>11.3g} {:>11.3g} {:>13.1f} {:>8.3f} {:>11.3g} {:>8.2f}x {:>8.1f} {:>7}\n",
        b.name, b.mem_ops, b.setup_s, b.host_s, b.mem_ops_per_s, b.events_per_s, b.simulated_per_host_s * 1e6,
        b.floor_host_s, b.floor_mem_ops_per_s, b.overhead, b.peak_rss_mb, b.bytes_per_line);
  }
  fmt::print(out,
             "host s, floor s: the simulation loop (the floor: the same operation streams, no timing or coherence,\n"
             "every access its thread's own to run ahead over;\n"
             "floor ops/s: about the most the scenario could reach if timing and coherence cost nothing);\n"
             "setup s: loading the configs and building the machine state and the workload's files, before it.\n");
}

}  // namespace walksim::experiment
