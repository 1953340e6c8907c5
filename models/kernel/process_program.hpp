// One simulated process (or thread): an exec::Program that takes system calls from its workload,
// expands each for the kernel variant and runs its operations, restarting a call in ref-walk when
// rcu-walk's seqcount check fails. An optional observer sees every operation with the kernel
// operation it belongs to (for `walksim trace`).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "models/kernel/kernel_runtime.hpp"

namespace walksim::kernel {

// Where a process's system calls come from (a workload, a trace file, a single call).
class SyscallSource {
 public:
  virtual ~SyscallSource() = default;
  virtual bool next(Syscall& out) = 0;
  // Called when the call returned (after any restart), with whether it failed and the time.
  virtual void completed(const Syscall&, bool /*failed*/, sim::Picos /*now*/) {}
};

class ProcessProgram final : public exec::Program {
 public:
  using Observer = std::function<void(const Expansion&, std::size_t kop_index, const exec::Op&)>;

  // Few expansions are kept by default: a loop over a handful of calls (stat loops, reads and
  // writes on one descriptor) reuses them, while a workload of thousands of distinct calls would
  // otherwise keep one of each, whose host memory and cache misses cost more than expanding again
  // (walksim bench, git-diff: 394 MB -> 123 MB and 1.4x faster with no cache than with unbounded).
  static constexpr std::size_t kCacheEntries = 16;
  // The reuse of a kept expansion at which it is compiled into runs of plain operations
  // (KOpRunner::compile; docs/performance.md, "Twenty-fifth step").
  static constexpr std::uint32_t kCompileAtReuse = 2;

  // `cache_entries`: how many expansions of unchanged calls the process keeps for reuse (0: none).
  // Reuse is invisible in the results; it only saves host time.
  ProcessProgram(KernelRuntime& rt, Process& p, SyscallSource& source, std::size_t cache_entries = kCacheEntries)
      : rt_(rt), p_(p), cpu_(p.cpu), source_(source), cache_entries_(cache_entries) {
    // Reserved up front: the running call's expansion lives in a slot, so the slots never move.
    cache_.reserve(cache_entries_);
  }

  bool next(std::uint64_t last_result, exec::Op& out) override;
  // Inside a call's expansion (not at a call's start or end, where the workload's counters and the
  // dentry tree are touched), in its own operations and its own primitives' steps (KOpRunner::next_is_own).
  bool next_is_own(std::uint64_t last_result) const override {
    return active_ && !user_phase_ && runner_.next_is_own(last_result);
  }

  const ProcessStats& stats() const { return stats_; }
  // System calls expanded (not reused from the cache of expansions), restarts included.
  std::uint64_t expansions() const { return expansions_; }
  void set_observer(Observer o) { observer_ = std::move(o); }

 private:
  // Expands the current call, reusing an earlier expansion of the same call when the call changes
  // nothing and no part of the dentry tree it read has changed since (a stat loop expands once).
  const Expansion& expand(bool force_ref);

  void make_key(bool force_ref);
  // The current call's user_before work as an op; false when it has none.
  bool emit_user_work(exec::Op& out);

  // One kept expansion. Slots are replaced in turn (first in, first out) and keep their storage:
  // once every slot has held a call, expanding into one allocates nothing (a slot's key and
  // operations reuse their capacity), where a map cleared when full freed and made them again.
  struct Cached {
    std::string key;
    std::size_t hash = 0;
    bool valid = false;        // false: expanded while the call changed the tree or its descriptors
    std::uint32_t reuses = 0;  // since it was expanded
    // What of the tree and of the process's descriptor table the expansion read, in which version.
    std::vector<Vfs::TreeRead> reads;
    Expansion exp;
    WalkStats delta;  // what expanding it added to the walk statistics
  };

  KernelRuntime& rt_;
  Process& p_;
  const CpuId cpu_;  // a process stays on its CPU; kept here to spare a read of the process per op
  SyscallSource& source_;
  Expansion exp_;
  const Expansion* active_exp_ = &exp_;
  std::vector<Cached> cache_;  // at most cache_entries_ slots, reserved (never moved)
  std::size_t next_victim_ = 0;
  std::string key_;
  std::size_t cache_entries_;
  KOpRunner runner_;
  Syscall current_;
  bool active_ = false;
  // The user-space accesses of the current call still to issue, and when the first was issued.
  std::uint8_t user_next_ = 0;
  bool user_phase_ = false;
  sim::Picos user_start_ = 0;
  ProcessStats stats_;
  std::uint64_t expansions_ = 0;
  Observer observer_;
};

}  // namespace walksim::kernel
