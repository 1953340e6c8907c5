// One simulation run: a machine, a kernel variant, a workload on N CPUs, until the run control
// says stop. Returns throughput, time accounting (wall, CPU, user, system, spin, sleep), atomic
// operation counts, rcu-walk fallbacks and the hottest cachelines with the objects they belong to.
#pragma once

#include <string>
#include <vector>

#include "models/exec/executor.hpp"
#include "models/kernel/kernel_spec.hpp"
#include "models/machine/machine.hpp"
#include "models/workload/workload.hpp"

namespace walksim::workload {

enum class Placement : std::uint8_t {
  kCoresFirst,  // one thread per physical core in core order, then the SMT siblings
  kCompact,     // CPUs in numbering order (SMT siblings first)
  kList,        // the CPUs the experiment names, thread i on the i-th (RunSpec::cpu_list)
};

struct RunSpec {
  const machine::Machine* machine = nullptr;
  const kernel::KernelSpec* kernel = nullptr;
  kernel::KernelOptions options;
  std::uint32_t threads = 1;
  Placement placement = Placement::kCoresFirst;
  std::vector<CpuId> cpu_list;  // kList's CPUs
  RunControl control;
  std::uint64_t seed = 1;
  double cost_scale = 1.0;     // the calibrated scale of the kernel's private CPU costs
  bool check = false;          // coherence invariants after every access (slow)
  std::size_t hot_lines = 10;  // how many of the hottest lines to report
  bool floor = false;          // generation floor: no timing or coherence (walksim bench)
  // Run-ahead (exec::Executor::set_run_ahead): kRunAheadExact (0, the default) runs ahead within
  // the machine's exact window, kRunAheadOff (-1) steps, a longer window is an approximation.
  Picos run_ahead = exec::Executor::kRunAheadExact;
  // Set from another thread (Ctrl-C) to stop the run at its next system call, or within 100 ms of
  // simulated time (RunCancelled).
  const std::atomic<bool>* cancel = nullptr;
  // Simulated time, and operations the threads executed in it, with no call completed in any
  // process, after which the run is livelocked (NoProgress); tests shorten them. Both must pass: a
  // run whose processes all wait (sleeping, parked, a long user time) executes few operations, a
  // livelocked one millions.
  Picos no_progress_limit = 5'000'000'000'000;
  std::uint64_t no_progress_ops = 1'000'000;
  // Fewer measured operations in a process than this is an error (TooFewOps); experiments ask
  // for kMinMeasuredOps, unit tests and tools that look at a few calls for none.
  std::uint64_t min_measured_ops = 0;
};

// A run that measured too few operations in some process to report a rate.
struct TooFewOps : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A run in which no process completed a call for RunSpec::no_progress_limit of simulated time
// while the simulation went on: its processes are livelocked (a what-if parameter can make a
// line's requests starve), and the run would never end. The default limit, 5 s: one call's own
// time is at most about 2 s (a workload's user time and lock hold are each at most 1 s,
// config::kMaxOperationTime), and while any process completes calls the run is getting somewhere.
struct NoProgress : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct HotLine {
  std::string object;
  std::uint32_t index = 0;
  std::string fields;
  bool shared = false;
  std::uint64_t transfers = 0;
  std::uint64_t transactions = 0;
  Picos stall = 0;
  Picos queued = 0;
};

// One process's own time accounting (ps) and operations over the whole run.
struct ProcessTimes {
  CpuId cpu = 0;
  Picos wall = 0, cpu_time = 0, user = 0, spin = 0, sleep = 0;
  std::uint64_t ops = 0;  // all operations, warm-up included
};

struct RunResult {
  std::uint32_t threads = 0;
  std::vector<CpuId> cpus;
  std::string op_unit;
  bool reports_bytes = false;
  std::uint64_t ops = 0;  // measured operations, all processes
  std::uint64_t calls = 0;
  std::uint64_t failed = 0;
  // Measured ops in the window common to every process, over its length (a run by duration: from
  // the warm-up's end to the run's end, for every process).
  double ops_per_s = 0;
  // Of the measured ops, the share completed in that common window: what the throughput rests on.
  // Low when the processes' measured phases hardly overlap (unequal speeds, a staggered start);
  // 0 when they do not overlap at all and the union of the windows was used instead.
  double window_share = 0;
  double bytes_per_s = 0;
  double ns_per_op = 0;  // mean over processes of (measured window / ops)
  // The same less each process's user time per operation: how long an operation spends in its
  // calls (for lock-loop, from the start of the acquire to the end of the release).
  double call_ns_per_op = 0;
  // Time accounting over the whole run, summed over processes (ps).
  Picos wall = 0;  // the last process's finish
  Picos cpu = 0, user = 0, sys = 0, spin = 0, sleep = 0, memory_stall = 0;
  Picos compute = 0;           // private work: the workload's user time and the kernel's CPU costs
  double cpu_utilisation = 0;  // cpu / (wall * threads)
  // Cores running more than one of the run's processes: their SMT siblings share the pipeline and
  // run private work and cache hits at the machine's smt_throughput. 0 = no SMT sharing in the run.
  std::uint32_t smt_cores = 0;
  // Per measured operation.
  double atomic_rmw_per_op = 0, loads_per_op = 0, stores_per_op = 0, lock_acquires_per_op = 0;
  // Per measured operation (warm-up left out), by where each memory access was served
  // (coherence::Source order): how many, and the ns the process waited for them.
  std::array<double, coherence::kSources> mem_per_op{}, mem_ns_per_op{};
  kernel::WalkStats walk;
  std::vector<ProcessTimes> processes;
  std::vector<HotLine> hot;
  std::uint64_t mem_ops = 0;  // simulated memory operations (all threads, whole run)
  std::uint64_t events = 0;
  std::uint64_t lines = 0;         // cachelines the memory system tracked
  std::size_t bytes_per_line = 0;  // simulator memory per tracked line: coherence, executor and VFS records
  Picos simulated = 0;             // simulated time of the run
  // Host seconds spent building the run (machine state, file tree, programs) and running it;
  // reported by `walksim bench`, never part of results.json (they are not deterministic).
  double host_setup_s = 0, host_run_s = 0;
};

// Runs one point. The workload must be freshly made (it is built here).
RunResult simulate(const RunSpec& spec, Workload& workload);

// The CPUs of the first `threads` threads. `list` is kList's CPUs (distinct, on the machine, at
// least `threads` of them); the other placements take none. Throws std::invalid_argument when the
// count or the list does not fit the machine.
std::vector<CpuId> place(const machine::Machine& m, std::uint32_t threads, Placement p,
                         const std::vector<CpuId>& list = {});

}  // namespace walksim::workload
