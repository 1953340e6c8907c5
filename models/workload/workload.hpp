// A workload builds its file tree and its processes on a VFS, and feeds each process system
// calls. Each workload is one class in one .cpp, registered by name in workload_registry.cpp,
// reading its own parameters from the experiment YAML (strictly: unknown keys are errors).
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "models/config/strict_yaml.hpp"
#include "models/kernel/process_program.hpp"
#include "models/workload/common_window.hpp"
#include "models/workload/params.hpp"
#include "sim/rng.hpp"

namespace walksim::workload {

using kernel::Syscall;
using machine::CpuId;
using sim::Picos;

// When to stop, shared by every process of a run. A process stops issuing operations once it has
// done `ops_per_process` operations (when non-zero) or once its clock passes `end` (when not kNever).
// Operations completing before `warmup_end` / within the first `warmup_ops` are not measured.
struct RunControl {
  std::uint64_t ops_per_process = 0;
  std::uint64_t warmup_ops = 0;
  Picos end = sim::kNever;
  Picos warmup_end = 0;
};

// What one process did inside the measured window.
struct Measured {
  std::uint64_t ops = 0;        // workload operations completed in the window
  std::uint64_t bytes = 0;      // bytes read + written in the window (for MB/s)
  std::uint64_t calls = 0;      // system calls completed in the window
  std::uint64_t failed = 0;     // of which returned an error
  Picos first = sim::kNever;    // window start for this process: the end of its warm-up
  Picos last = 0;               // completion of the last measured op
  std::uint64_t total_ops = 0;  // including warm-up
  Picos warm_at = 0;            // when the last warm-up op completed
  // A run by duration: the operations, and the bytes of the calls, completed by its end (`ops`
  // and `bytes` also count the ones in flight at the end, which finish after it).
  std::uint64_t ops_by_end = 0;
  std::uint64_t bytes_by_end = 0;
  // This process's measured throughput in operations per second.
  double ops_per_s() const {
    return last > first && ops ? static_cast<double>(ops) * 1e12 / static_cast<double>(last - first) : 0;
  }
  double bytes_per_s() const {
    return last > first ? static_cast<double>(bytes) * 1e12 / static_cast<double>(last - first) : 0;
  }
};

// Thrown out of a run whose cancel flag was set (Ctrl-C): the point stops at its next system call.
struct RunCancelled : std::runtime_error {
  RunCancelled() : std::runtime_error("the run was cancelled") {}
};

// Fewer measured operations than this per process give no rate worth reporting (a 200 us run at
// 32 threads measured about 2 per process): such a run is an error, not a result.
inline constexpr std::uint64_t kMinMeasuredOps = 50;

// The base of every workload's per-process source: counts operations and bytes against the run
// control, so workloads only say which call comes next.
class CountingSource : public kernel::SyscallSource {
 public:
  explicit CountingSource(const RunControl& control) : control_(control) {}
  bool next(Syscall& out) final;
  void completed(const Syscall& call, bool failed, Picos now) final;
  const Measured& measured() const { return measured_; }
  // Calls completed, warm-up included: whether the process is getting anywhere (simulate's watch).
  std::uint64_t calls_done() const { return calls_done_; }
  // Reports measured operations to the run's common window as process `index`, and stops the run
  // (RunCancelled) at the next call once `cancel` is set. Either may be null.
  void attach(CommonWindow* window, std::size_t index, const std::atomic<bool>* cancel) {
    window_ = window;
    index_ = index;
    cancel_ = cancel;
  }
  // Called once, at the call boundary from which every call is measured (the warm-up is over), so
  // that the run can count what the measured calls alone did (its memory breakdown).
  // Without a warm-up that moment is the start, before any call, and `f` is never called.
  void on_warm(std::function<void()> f) {
    on_warm_ = std::move(f);
    warm_noted_ = control_.warmup_ops == 0 && control_.warmup_end <= 0;
  }

 protected:
  // The next call of the workload; false when it has nothing more to do.
  virtual bool produce(Syscall& out) = 0;

 private:
  bool next_call(Syscall& out);

  const RunControl& control_;
  Measured measured_;
  std::uint64_t calls_done_ = 0;
  Picos now_ = 0;
  CommonWindow* window_ = nullptr;
  std::size_t index_ = 0;
  const std::atomic<bool>* cancel_ = nullptr;
  std::function<void()> on_warm_;
  bool warm_noted_ = false;
};

class Workload {
 public:
  virtual ~Workload() = default;
  // Builds the tree and one process per entry of `cpus` (processes, or threads sharing one
  // fs_struct, as the workload says).
  virtual void build(kernel::Vfs& vfs, const std::vector<CpuId>& cpus, const RunControl& control, sim::Rng& rng) = 0;
  virtual std::size_t process_count() const = 0;
  virtual kernel::Process& process(std::size_t i) = 0;
  virtual CountingSource& source(std::size_t i) = 0;
  // The unit of one operation ("stat", "dbench op", "open/write/close loop").
  virtual std::string op_unit() const = 0;
  // Whether throughput is reported in MB/s from bytes read and written (dbench) rather than ops/s.
  virtual bool reports_bytes() const { return false; }
  // Sets the user-space time per operation (before build()), for a calibration that fits it;
  // false when the workload has no such parameter.
  virtual bool set_user_time(Picos) { return false; }
  // Checks, before any run (on a workload made but not built), that it can run `threads` processes
  // on a machine with `nodes` NUMA nodes and `cpus` CPUs. Throws config::ConfigError at the
  // workload's own input (a trace's FILE:LINE:COL) when that input cannot fit the machine whatever
  // the thread count; returns a non-empty message when it is the thread count that does not fit,
  // for the caller to report at its `threads` key. build() makes the same checks.
  virtual std::string check_run(std::uint32_t /*threads*/, std::uint32_t /*nodes*/, std::uint32_t /*cpus*/) const {
    return {};
  }
  // Checks, before any run, that the workload's parameters can be modelled on kernel `k`; a
  // non-empty message says why not, for the caller to report at the kernel's entry.
  virtual std::string check_kernel(const kernel::KernelSpec& /*k*/) const { return {}; }
  // Whether this workload, with the parameters it was made with, can depend on the seed, and can
  // sleep on a mutex; nullopt: what its kind claims (WorkloadKind::seeded, may_sleep), which holds
  // for every parameter of most workloads. lock-loop says so for several locks, or a mutex.
  virtual std::optional<bool> seeded_by_params() const { return std::nullopt; }
  virtual std::optional<bool> may_sleep_by_params() const { return std::nullopt; }
  // Every parameter as this workload resolved it, defaults included, in its kind's table order
  // (results.json records them).
  virtual ResolvedParams params() const = 0;
};

// The common shape of a workload: one process and one source per CPU, in CPU order.
class PerProcessWorkload : public Workload {
 public:
  std::size_t process_count() const override { return procs_.size(); }
  kernel::Process& process(std::size_t i) override { return *procs_[i]; }
  CountingSource& source(std::size_t i) override { return *sources_[i]; }

 protected:
  void add(kernel::Process& p, std::unique_ptr<CountingSource> source) {
    procs_.push_back(&p);
    sources_.push_back(std::move(source));
  }

 private:
  std::vector<kernel::Process*> procs_;
  std::vector<std::unique_ptr<CountingSource>> sources_;
};

struct WorkloadKind {
  std::string_view name;
  std::string_view summary;
  // Reads the workload's parameters from `params` (a mapping; may be absent -> defaults) and
  // makes the workload. Throws config::ConfigError for bad parameters.
  std::unique_ptr<Workload> (*make)(const config::Node* params);
  // The parameters, their defaults and doc strings, from the workload's table (params.hpp).
  std::vector<ParamDoc> (*describe)();
  // Whether the run's seed reaches the workload (random names, random op mixes): only then can
  // repeats differ. A workload that never draws a random number is exact in one run
  // (workload_contract_test checks both claims).
  bool seeded = false;
  // Whether a process can sleep on a sleeping lock (i_mutex of a directory it creates in, ...):
  // only then does an experiment need os.wakeup_latency. A run without one that does sleep stops
  // with exec::NoWakeupLatency (workload_contract_test checks the claim).
  bool may_sleep = true;
};

const std::vector<WorkloadKind>& workload_kinds();
// The claims of a made workload: its own where its parameters decide, else its kind's.
inline bool is_seeded(const WorkloadKind& k, const Workload& w) { return w.seeded_by_params().value_or(k.seeded); }
inline bool can_sleep(const WorkloadKind& k, const Workload& w) {
  return w.may_sleep_by_params().value_or(k.may_sleep);
}
// Throws config::ConfigError at `at` naming the valid workloads when `name` is unknown.
const WorkloadKind& find_workload(const std::string& name, const config::Node& at);

}  // namespace walksim::workload
