// Shared helpers of the workload tests: a run of a workload on a repository machine and kernel,
// a workload made from YAML parameters as the experiment layer makes it, and one call's trace.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "models/coherence/memory_system.hpp"
#include "models/config/strict_yaml.hpp"
#include "models/kernel/kernel_loader.hpp"
#include "models/kernel/trace.hpp"
#include "models/machine/machine_loader.hpp"
#include "models/workload/simulate.hpp"
#include "models/workload/workload_registry.hpp"

namespace walksim::workload::testing {

inline std::vector<std::string> config_dir(const char* d) {
  return {std::string(WALKSIM_SOURCE_DIR) + "/configs/" + d};
}

struct RunArgs {
  std::string machine = "barcelona-2s8c";
  std::string kernel = "linux-2.6.35";
  std::uint32_t threads = 1;
  RunControl control;
  kernel::KernelOptions options;
  std::uint64_t seed = 1;
  bool check = false;                                     // coherence invariants after every access
  sim::Picos run_ahead = exec::Executor::kRunAheadExact;  // RunSpec::run_ahead
  std::vector<CpuId> cpus;                                // non-empty: Placement::kList on these
  sim::Picos no_progress_limit = RunSpec{}.no_progress_limit;
  std::uint64_t no_progress_ops = RunSpec{}.no_progress_ops;
  std::optional<sim::Picos> home_occupancy;  // set: the machine's coherence.home_occupancy replaced (a what-if)
};

inline RunResult run(const RunArgs& a, Workload& w) {
  machine::MachineSpec machine_spec = machine::load_machine(a.machine, config_dir("machines"));
  if (a.home_occupancy) machine_spec.home_occupancy = *a.home_occupancy;
  machine::Machine m(machine_spec);
  const auto k = kernel::load_kernel(a.kernel, config_dir("kernels"));
  RunSpec spec;
  spec.machine = &m;
  spec.kernel = &k;
  spec.threads = a.threads;
  spec.control = a.control;
  spec.options = a.options;
  spec.seed = a.seed;
  spec.check = a.check;
  spec.run_ahead = a.run_ahead;
  spec.no_progress_limit = a.no_progress_limit;
  spec.no_progress_ops = a.no_progress_ops;
  if (!a.cpus.empty()) {
    spec.placement = Placement::kList;
    spec.cpu_list = a.cpus;
  }
  return simulate(spec, w);
}

// Makes `kind` from YAML parameters ("loops: 10") and rejects keys the workload did not read.
inline std::unique_ptr<Workload> make(const WorkloadKind& kind, const std::string& yaml) {
  if (yaml.empty()) return kind.make(nullptr);
  const config::Node params = config::load_string(yaml, "params.yaml");
  auto w = kind.make(&params);
  params.finish();
  return w;
}

// `kind` made from YAML parameters and run with `threads` processes of `ops` operations each on
// barcelona-2s8c under `kernel` (the loop workloads' tests).
inline RunResult run_kind(const WorkloadKind& kind, const std::string& kernel, std::uint32_t threads, std::uint64_t ops,
                          const std::string& params = "") {
  auto w = make(kind, params);
  RunArgs a;
  a.kernel = kernel;
  a.threads = threads;
  a.control.ops_per_process = ops;
  return run(a, *w);
}

// A workload built on a VFS without running it, to look at its tree and processes (the VFS of
// a simulate() run is gone when it returns).
struct Built {
  machine::Machine m;
  kernel::KernelSpec k;
  coherence::MemorySystem mem;
  kernel::Vfs vfs;
  RunControl control;
  sim::Rng rng{1};
  Built(const std::string& machine_name, const std::string& kernel_name)
      : m(machine::load_machine(machine_name, config_dir("machines"))),
        k(kernel::load_kernel(kernel_name, config_dir("kernels"))),
        mem(m, false),
        vfs(mem, k) {}
  void build(Workload& w, std::uint32_t threads) {
    w.build(vfs, place(m, threads, Placement::kCoresFirst), control, rng);
  }
};

// The locked RMWs of one call on an otherwise idle machine (`walksim trace`).
inline std::uint64_t call_rmw(const std::string& kernel, const std::string& call, const std::string& cwd = "/home/user",
                              const std::string& machine = "barcelona-2s8c") {
  machine::Machine m(machine::load_machine(machine, config_dir("machines")));
  const auto k = kernel::load_kernel(kernel, config_dir("kernels"));
  kernel::TraceRequest req;
  req.syscall = call;
  req.cwd = cwd;
  return kernel::trace_syscall(m, k, req).totals.atomic_rmw;
}

}  // namespace walksim::workload::testing
