// Wires a run together and reduces what the processes, the executor and the memory system
// counted into one result.
#include "models/workload/simulate.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <stdexcept>

#include "models/coherence/memory_system.hpp"
#include "models/exec/executor.hpp"
#include "models/kernel/process_program.hpp"
#include "sim/simulation.hpp"

namespace walksim::workload {

using machine::LineId;

std::vector<CpuId> place(const machine::Machine& m, std::uint32_t threads, Placement p,
                         const std::vector<CpuId>& list) {
  if (threads == 0 || threads > m.cpus()) {
    throw std::invalid_argument("thread count " + std::to_string(threads) + " is outside 1.." +
                                std::to_string(m.cpus()) + " (the machine's CPUs)");
  }
  std::vector<CpuId> order;
  if (p == Placement::kList) {
    if (list.size() < threads) {
      throw std::invalid_argument("placement lists " + std::to_string(list.size()) + " CPUs for " +
                                  std::to_string(threads) + " threads");
    }
    order.assign(list.begin(), list.begin() + threads);
    std::vector<CpuId> sorted = order;
    std::sort(sorted.begin(), sorted.end());
    if (sorted.back() >= m.cpus() || std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end()) {
      throw std::invalid_argument("placement's CPUs must be distinct CPUs of the machine (0.." +
                                  std::to_string(m.cpus() - 1) + ")");
    }
    return order;
  }
  if (p == Placement::kCompact) {
    for (CpuId c = 0; c < m.cpus(); ++c) order.push_back(c);
  } else {
    for (std::uint32_t t = 0; t < m.spec().threads_per_core; ++t) {
      for (std::uint32_t core = 0; core < m.cores(); ++core) order.push_back(m.first_cpu_of(core) + t);
    }
  }
  order.resize(threads);
  return order;
}

namespace {

constexpr Picos kWatchSlice = 100'000'000'000;  // 100 ms

[[noreturn]] void throw_no_progress(Picos since, Picos now, const std::vector<HotLine>& hot) {
  const auto seconds = [](Picos t) {
    char text[32];
    std::snprintf(text, sizeof text, "%.3f s", static_cast<double>(t) / 1e12);
    return std::string(text);
  };
  std::string msg = "no process completed a system call from " + seconds(since) + " to " + seconds(now) +
                    " of simulated time: the processes are livelocked and the run would never end";
  if (!hot.empty()) {
    msg += " (hottest line: " + hot.front().object + ", " + hot.front().fields + ", " +
           std::to_string(hot.front().transfers) + " transfers)";
  }
  throw NoProgress(msg +
                   "; a line whose requests are never served is a defect of the model (or of a what-if "
                   "value it cannot handle): please report it with the experiment file");
}

// What the processes counted, summed.
struct ProcessSums {
  double window_sum = 0, call_sum = 0;  // each process's measured time per op (and less its user time)
  Picos first = sim::kNever, last = 0;  // the earliest and latest measured operation
  std::uint64_t bytes = 0, rmw = 0, loads = 0, stores = 0, locks = 0;
};

ProcessSums add_processes(Workload& workload, const std::vector<std::unique_ptr<kernel::ProcessProgram>>& programs,
                          const exec::Executor& ex, RunResult& r) {
  ProcessSums s;
  for (std::size_t i = 0; i < workload.process_count(); ++i) {
    const Measured& ms = workload.source(i).measured();
    const auto& ps = programs[i]->stats();
    const auto& ts = ex.stats(workload.process(i).cpu);
    r.ops += ms.ops;
    r.calls += ms.calls;
    r.failed += ms.failed;
    if (ms.ops) {
      s.first = std::min(s.first, ms.first);
      s.last = std::max(s.last, ms.last);
    }
    s.bytes += ms.bytes;
    if (ms.ops) {
      const double per_op = static_cast<double>(ms.last - ms.first) / static_cast<double>(ms.ops);
      s.window_sum += per_op;
      s.call_sum += per_op - static_cast<double>(ps.user_time) / static_cast<double>(ms.total_ops);
    }
    r.wall = std::max(r.wall, ts.finished);
    r.processes.push_back({workload.process(i).cpu, ts.finished - ts.started, ts.cpu_time(), ps.user_time, ts.spin,
                           ts.sleep, ms.total_ops});
    // Summed over processes: each thread's clock is checked, but 64 sums near its end are not.
    for (auto [sum, x] : {std::pair{&r.cpu, ts.cpu_time()},
                          {&r.user, ps.user_time},
                          {&r.spin, ts.spin},
                          {&r.sleep, ts.sleep},
                          {&r.memory_stall, ts.memory_stall},
                          {&r.compute, ts.compute}}) {
      if (__builtin_add_overflow(*sum, x, sum)) {
        throw std::runtime_error(
            "the processes' time added over the run passes the end of the simulated clock "
            "(9.2e18 ps); a time input (a latency, cost, user time, scale factor or run length) "
            "is too large");
      }
    }
    r.mem_ops += ts.loads + ts.stores + ts.atomics;
    s.rmw += ps.atomic_rmw;
    s.loads += ps.loads;
    s.stores += ps.stores;
    s.locks += ps.lock_acquires;
    r.walk += ps.walk;
  }
  r.sys = r.cpu - r.user;
  return s;
}

bool by_duration(const RunSpec& spec) { return spec.control.end != sim::kNever; }

// The measured operations, and the bytes of the calls, completed by the end of a run by duration,
// over all processes.
struct ByEnd {
  std::uint64_t ops = 0, bytes = 0;
};
ByEnd by_end(Workload& workload) {
  ByEnd n;
  for (std::size_t i = 0; i < workload.process_count(); ++i) {
    n.ops += workload.source(i).measured().ops_by_end;
    n.bytes += workload.source(i).measured().bytes_by_end;
  }
  return n;
}

// A run by operations needs enough of them in every process. A run by duration rests on all of its
// processes' operations in one window, as a benchmark that runs for a fixed time counts them: a
// process that an unfair lock starves is a result, not an error, so only the run's total is held to
// the same number per process.
void check_measured_enough(const RunSpec& spec, Workload& workload) {
  if (by_duration(spec)) {
    const std::uint64_t n = workload.process_count();
    const std::uint64_t in = by_end(workload).ops;
    if (in < spec.min_measured_ops * n) {
      throw TooFewOps("its " + std::to_string(n) + " process(es) measured " + std::to_string(in) +
                      " operation(s) between the end of the warm-up and the end of the run; at least " +
                      std::to_string(spec.min_measured_ops) + " per process (" +
                      std::to_string(spec.min_measured_ops * n) + ") are needed for a rate");
    }
    return;
  }
  for (std::size_t i = 0; i < workload.process_count(); ++i) {
    const Measured& ms = workload.source(i).measured();
    if (ms.ops < spec.min_measured_ops) {
      throw TooFewOps("the process on CPU " + std::to_string(workload.process(i).cpu) + " measured " +
                      std::to_string(ms.ops) + " operation(s) after its warm-up; at least " +
                      std::to_string(spec.min_measured_ops) + " are needed for a rate");
    }
  }
}

// Aggregate throughput over the window in which every process was measuring: operations
// completed in it over its length. In a run by duration every process measures from the warm-up's
// end to the run's end, whatever it completed (a fixed-time benchmark's rate, as the SSYNC stress
// tests and dbench report theirs). In a run by operations each process stops after its own count,
// so the window runs from the last warm-up end to the first process's last operation: summing each
// process's own rate would count processes that ran alone at the end (an unfair lock finishes some
// early) as if they had run together, and the union of the windows would count start-up skew as
// idle time. Without a common window, the union is used.
void set_rates(const RunSpec& spec, Workload& workload, const CommonWindow& window, const ProcessSums& s,
               RunResult& r) {
  if (by_duration(spec)) {
    const ByEnd in = by_end(workload);
    const double span = static_cast<double>(spec.control.end - spec.control.warmup_end) * 1e-12;
    r.ops_per_s = static_cast<double>(in.ops) / span;
    r.window_share = r.ops ? static_cast<double>(in.ops) / static_cast<double>(r.ops) : 0;
    r.bytes_per_s = static_cast<double>(in.bytes) / span;
    return;
  }
  if (const auto w = window.result(); w.common) {
    const double span = static_cast<double>(w.hi - w.lo) * 1e-12;
    r.ops_per_s = static_cast<double>(w.in) / span;
    r.window_share = r.ops ? static_cast<double>(w.in) / static_cast<double>(r.ops) : 0;
    r.bytes_per_s = static_cast<double>(s.bytes) * (static_cast<double>(w.in) / static_cast<double>(r.ops)) / span;
  } else if (s.last > s.first && r.ops) {
    const double span = static_cast<double>(s.last - s.first) * 1e-12;
    r.ops_per_s = static_cast<double>(r.ops) / span;
    r.bytes_per_s = static_cast<double>(s.bytes) / span;
  }
}

// Times per operation (means over processes) and counts per operation over the whole run
// (warm-up included: the mix is the same).
void set_per_op(Workload& workload, const ProcessSums& s, RunResult& r) {
  const std::size_t n = workload.process_count();
  r.ns_per_op = n ? s.window_sum / static_cast<double>(n) / 1000.0 : 0;
  r.call_ns_per_op = n ? s.call_sum / static_cast<double>(n) / 1000.0 : 0;
  r.cpu_utilisation = r.wall ? static_cast<double>(r.cpu) / (static_cast<double>(r.wall) * static_cast<double>(n)) : 0;
  std::uint64_t total_ops = 0;
  for (std::size_t i = 0; i < n; ++i) total_ops += workload.source(i).measured().total_ops;
  if (total_ops) {
    const double t = static_cast<double>(total_ops);
    r.atomic_rmw_per_op = static_cast<double>(s.rmw) / t;
    r.loads_per_op = static_cast<double>(s.loads) / t;
    r.stores_per_op = static_cast<double>(s.stores) / t;
    r.lock_acquires_per_op = static_cast<double>(s.locks) / t;
  }
}

// Per measured operation: each process's accesses since its warm-up ended, by where they were
// served, summed over processes and divided by their measured operations.
void set_memory_breakdown(Workload& workload, const exec::Executor& ex, const std::vector<exec::ThreadStats>& at_warm,
                          RunResult& r) {
  std::uint64_t ops = 0;
  std::array<std::uint64_t, coherence::kSources> n{};
  std::array<Picos, coherence::kSources> wait{};
  for (std::size_t i = 0; i < workload.process_count(); ++i) {
    ops += workload.source(i).measured().ops;
    const auto& end = ex.stats(workload.process(i).cpu);
    for (std::size_t k = 0; k < coherence::kSources; ++k) {
      n[k] += end.served[k] - at_warm[i].served[k];
      wait[k] += end.served_wait[k] - at_warm[i].served_wait[k];
    }
  }
  if (!ops) return;
  for (std::size_t k = 0; k < coherence::kSources; ++k) {
    r.mem_per_op[k] = static_cast<double>(n[k]) / static_cast<double>(ops);
    r.mem_ns_per_op[k] = sim::to_ns(wait[k]) / static_cast<double>(ops);
  }
}

// The hottest lines: the most time requesters waited on them first (ties by line id, so the
// order is deterministic); ownership transfers are reported beside it.
std::vector<HotLine> hottest_lines(const coherence::MemorySystem& mem, const kernel::Vfs& vfs,
                                   std::size_t keep_at_most) {
  std::vector<LineId> ids;
  for (LineId l = 0; l < mem.line_count(); ++l) {
    if (mem.line_stats(l).transactions) ids.push_back(l);
  }
  const std::size_t keep = std::min(keep_at_most, ids.size());
  std::partial_sort(ids.begin(), ids.begin() + static_cast<std::ptrdiff_t>(keep), ids.end(), [&](LineId a, LineId b) {
    const auto& x = mem.line_stats(a);
    const auto& y = mem.line_stats(b);
    if (x.stall != y.stall) return x.stall > y.stall;
    return a < b;
  });
  std::vector<HotLine> hot;
  for (std::size_t i = 0; i < keep; ++i) {
    const auto& st = mem.line_stats(ids[i]);
    const auto& label = vfs.label(ids[i]);
    hot.push_back({label.object.empty() ? "line " + std::to_string(ids[i]) : label.object, label.index, label.fields,
                   label.shared, st.transfers, st.transactions, st.stall, st.queued});
  }
  return hot;
}

}  // namespace

RunResult simulate(const RunSpec& spec, Workload& workload) {
  const auto host_start = std::chrono::steady_clock::now();
  const machine::Machine& m = *spec.machine;
  coherence::MemorySystem mem(m, spec.check);
  mem.set_floor_mode(spec.floor);
  kernel::Vfs vfs(mem, *spec.kernel);
  sim::Simulation sim(spec.seed);
  sim::Rng rng(spec.seed ^ 0x5eed);
  RunResult r;
  r.threads = spec.threads;
  r.cpus = place(m, spec.threads, spec.placement, spec.cpu_list);
  workload.build(vfs, r.cpus, spec.control, rng);
  kernel::KernelRuntime rt(vfs, spec.options, spec.cost_scale);
  exec::Executor ex(sim, mem);
  ex.reserve(mem.line_count(), vfs.word_count());
  ex.set_run_ahead(spec.run_ahead);
  CommonWindow window(workload.process_count());
  std::vector<std::unique_ptr<kernel::ProcessProgram>> programs;
  std::vector<exec::ThreadStats> at_warm(workload.process_count());
  for (std::size_t i = 0; i < workload.process_count(); ++i) {
    // A run by duration counts its own window (set_rates): the common window is not kept.
    workload.source(i).attach(by_duration(spec) ? nullptr : &window, i, spec.cancel);
    workload.source(i).on_warm([&ex, &at_warm, i, cpu = workload.process(i).cpu] { at_warm[i] = ex.stats(cpu); });
    programs.push_back(std::make_unique<kernel::ProcessProgram>(rt, workload.process(i), workload.source(i)));
    ex.start(workload.process(i).cpu, *programs.back());
  }
  r.smt_cores = ex.smt_cores();
  const auto host_built = std::chrono::steady_clock::now();
  // Checked every 100 ms of simulated time: Ctrl-C (a process stuck inside one call never reaches
  // the next, where its source looks), and a run that stopped getting anywhere.
  std::uint64_t calls_seen = 0, ops_then = 0;
  const auto ops_executed = [&] {
    std::uint64_t ops = 0;
    for (std::size_t i = 0; i < workload.process_count(); ++i) ops += ex.stats(workload.process(i).cpu).ops;
    return ops;
  };
  Picos quiet_since = 0;
  ex.run(
      [&](Picos now) {
        if (spec.cancel && spec.cancel->load(std::memory_order_relaxed)) throw RunCancelled();
        std::uint64_t calls = 0;
        for (std::size_t i = 0; i < workload.process_count(); ++i) calls += workload.source(i).calls_done();
        if (calls != calls_seen) {
          calls_seen = calls;
          quiet_since = now;
          ops_then = ops_executed();
        } else if (now - quiet_since >= spec.no_progress_limit && ops_executed() - ops_then >= spec.no_progress_ops) {
          throw_no_progress(quiet_since, now, hottest_lines(mem, vfs, 1));
        }
      },
      std::min(kWatchSlice, spec.no_progress_limit));
  r.host_setup_s = std::chrono::duration<double>(host_built - host_start).count();
  r.host_run_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - host_built).count();

  r.op_unit = workload.op_unit();
  r.reports_bytes = workload.reports_bytes();
  const ProcessSums sums = add_processes(workload, programs, ex, r);
  check_measured_enough(spec, workload);
  set_rates(spec, workload, window, sums, r);
  r.events = sim.events_run();
  r.lines = mem.line_count();
  // Simulator memory kept per line: coherence state, the executor's word and waiter list, the
  // VFS's owner id. (Cache arrays are per machine, objects and names per object.)
  r.bytes_per_line = mem.bytes_per_line() + exec::Executor::bytes_per_line() + kernel::Vfs::bytes_per_line();
  r.simulated = r.wall;
  set_per_op(workload, sums, r);
  set_memory_breakdown(workload, ex, at_warm, r);
  r.hot = hottest_lines(mem, vfs, spec.hot_lines);
  return r;
}

}  // namespace walksim::workload
