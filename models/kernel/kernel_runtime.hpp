// Runs kernel operations on the executor: each KOp becomes exec Ops, lock KOps go through the
// synchronisation primitives of models/sync (one instance per lock word, made on first use), and
// a seqcount check that fails inside rcu-walk aborts the call, releases what it holds and
// restarts it in ref-walk, as the kernel does.
#pragma once

#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

#include "models/exec/executor.hpp"
#include "models/kernel/syscalls.hpp"
#include "models/sync/scheduler.hpp"
#include "models/sync/sync_primitive.hpp"
#include "models/sync/sync_registry.hpp"

namespace walksim::kernel {

// Per-process counts, summed by the experiment layer.
struct ProcessStats {
  std::uint64_t syscalls = 0;
  std::uint64_t failed = 0;      // calls that returned an error
  std::uint64_t atomic_rmw = 0;  // locked RMWs issued (xadd, xchg, cmpxchg), including lock traffic
  std::uint64_t loads = 0;
  std::uint64_t stores = 0;
  std::uint64_t lock_acquires = 0;  // spin, read, mutex acquisitions
  std::uint64_t seq_retries = 0;
  sim::Picos user_time = 0;  // CPU time of the user-space work issued between calls (slower on an SMT-shared core)
  WalkStats walk;
};

// The machine-wide kernel state shared by every process: the VFS, the expander, the lock
// instances and the per-CPU lines their queued variants need.
class KernelRuntime {
 public:
  KernelRuntime(Vfs& vfs, KernelOptions opts, double cost_scale = 1.0);
  ~KernelRuntime();

  Vfs& vfs() { return vfs_; }
  SyscallExpander& expander() { return expander_; }
  // The primitive guarding (line, word) for a lock KOp kind; made on first use.
  sync::SyncPrimitive& primitive(const KOp& k);

 private:
  std::vector<LineId> lock_lines(const sync::SyncKind& kind, const KOp& k);
  // The runqueues and the sleep and wake-up path of sleeping locks; made with the first of them,
  // so that a run without one allocates no runqueue lines.
  sync::Scheduler& scheduler();
  sync::FutexCosts futex_costs() const;

  Vfs& vfs_;
  SyscallExpander expander_;
  double cost_scale_;
  std::unique_ptr<sync::Scheduler> scheduler_;
  std::vector<LineId> qnode_lines_;  // per-CPU MCS/qspinlock nodes, shared by every queued lock
  std::vector<LineId> task_lines_;   // per-CPU task-state lines sleepers wait on (the scheduler's)
  // The lock instances by line: lock_head_[line] is the first entry of that line's chain (lines
  // are dense ids, so this is a vector index rather than a hash lookup per lock operation).
  struct LockEntry {
    std::uint32_t word;
    std::uint32_t next;  // the next entry on the same line, or kNoEntry
    std::unique_ptr<sync::SyncPrimitive> prim;
  };
  static constexpr std::uint32_t kNoEntry = UINT32_MAX;
  std::vector<std::uint32_t> lock_head_;
  std::vector<LockEntry> locks_;
};

// Executes one expansion's KOps as exec Ops, in order.
class KOpRunner {
 public:
  enum class Status : std::uint8_t { kOp, kDone, kRestart };

  void begin(const Expansion& exp);
  // Produces the next exec Op (kOp), or says the call is complete (kDone) or must restart
  // (kRestart: every lock it held has been released by the Ops already produced).
  // A KOp that is one plain Op (most KOps of an expansion) is made here, inline; the rest (locks,
  // multi-op KOps, the call's end, a restart) in next_in_loop, whose frame would cost every Op.
  Status next(KernelRuntime& rt, CpuId cpu, std::uint64_t last, exec::Op& out, ProcessStats& stats) {
    if (prim_ == nullptr && phase_ == Phase::kNotStarted && !aborting_ && index_ < exp_->ops.size() &&
        plain_op(exp_->ops[index_], out, stats)) {
      current_ = index_++;
      return Status::kOp;
    }
    return next_in_loop(rt, cpu, last, out, stats);
  }
  // True when next(..., last, ...) will make its Op from the expansion, the runner's own state and
  // primitives whose steps are their own (SyncPrimitive::steps_are_own) alone: not at the call's
  // end, not where a seqcount check fails and unwinds (ProcessProgram::next_is_own).
  bool next_is_own(std::uint64_t last) const {
    // A KOp not yet started that is not a lock makes its Op at once (own_from): the common case, inline.
    if (prim_ == nullptr && phase_ == Phase::kNotStarted && !aborting_ && exp_ != nullptr &&
        index_ < exp_->ops.size() && own_kind(exp_->ops[index_].kind)) {
      return true;
    }
    return next_is_own_beyond_start(last);
  }
  // The KOp the last produced Op belongs to (for traces).
  std::size_t current() const { return current_; }
  // Compiles `exp` for replay (Expansion::plain, run_end, counts), reusing its vectors' storage.
  static void compile(Expansion& exp);
  static bool compiled(const Expansion& exp) { return exp.run_end.size() == exp.ops.size() + 1; }
  // After next() handed out an Op: the Ops of the plain KOps that come next, handed out now, when
  // the next next() would make them from the compiled expansion alone whatever the results (no
  // primitive's or multi-op KOp's step in progress, not unwinding): they are counted and the
  // runner moves past them. Empty when there are none or the expansion is not compiled.
  exec::Program::Run take_plain_run(ProcessStats& stats) {
    if (!runs_ || prim_ != nullptr || phase_ != Phase::kNotStarted || aborting_) {
      return {};
    }
    const std::uint32_t begin = static_cast<std::uint32_t>(index_);
    const std::uint32_t end = exp_->run_end[begin];
    if (end == begin) return {};
    const PlainCounts& a = exp_->counts[begin];
    const PlainCounts& b = exp_->counts[end];
    stats.loads += b.loads - a.loads;
    stats.stores += b.stores - a.stores;
    stats.atomic_rmw += b.rmw - a.rmw;
    index_ = end;
    current_ = end - 1;
    return {exp_->plain.data() + begin, exp_->plain.data() + end};
  }

 private:
  struct Held {
    sync::SyncPrimitive* prim;
    sync::SyncAction release;
  };
  // Where the current KOp is.
  enum class Phase : std::uint8_t {
    kNotStarted,        // its first Op is yet to be made
    kFirstOpOut,        // its first Op was handed out; `last` is that Op's result
    kLaterOpOut,        // a later Op was handed out (a cmpxchg retry, the store after a load)
    kLockrefDecrement,  // lockref_put_or_lock kept the lock at a count of 1: the count's load is out
    kLockrefUnlock,     // ... its decrement is out; the unlock comes next
  };
  // What a multi-op KOp does with its previous Op's result.
  enum class Step : std::uint8_t { kIssued, kFinished, kAborting };

  Status next_in_loop(KernelRuntime& rt, CpuId cpu, std::uint64_t last, exec::Op& out, ProcessStats& stats);
  // The Op of a KOp that is one exec Op whose result nothing reads (true), counted; false for any
  // other kind.
  static bool plain_op(const KOp& k, exec::Op& out, ProcessStats& stats) {
    switch (k.kind) {
      case KOpKind::kLoad:
        out = exec::Op::load(k.line).on_word(k.word);
        ++stats.loads;
        return true;
      case KOpKind::kStore:
        out = exec::Op::store(k.line, 0).on_word(k.word);
        ++stats.stores;
        return true;
      case KOpKind::kAtomic:
        out = exec::Op::rmw_add(k.line, static_cast<std::uint64_t>(k.delta)).on_word(k.word);
        ++stats.atomic_rmw;
        return true;
      case KOpKind::kXchg:
        out = exec::Op::xchg(k.line, static_cast<std::uint64_t>(k.delta)).on_word(k.word);
        ++stats.atomic_rmw;
        return true;
      case KOpKind::kCasOnce: {
        const auto v = static_cast<std::uint64_t>(k.delta);
        out = exec::Op::cas(k.line, v ^ 1, v).on_word(k.word);
        ++stats.atomic_rmw;
        return true;
      }
      case KOpKind::kPrefetch:
        out = exec::Op::prefetch(k.line);
        return true;
      case KOpKind::kCompute:
        out = exec::Op::compute(k.ps);
        return true;
      case KOpKind::kFence:
        out = exec::Op::fence();
        return true;
      default:
        return false;
    }
  }
  bool start_kop(KernelRuntime& rt, CpuId cpu, const KOp& k, exec::Op& out, ProcessStats& stats);
  bool sync_step(CpuId cpu, std::uint64_t last, exec::Op& out, ProcessStats& stats);
  bool next_is_own_beyond_start(std::uint64_t last) const;
  // The KOps whose Ops are made from the expansion and the runner's own state alone: every kind but
  // the lock KOps, whose steps read and change their primitive's shared state.
  static bool own_kind(KOpKind k) {
    switch (k) {
      case KOpKind::kSpinLock:
      case KOpKind::kSpinUnlock:
      case KOpKind::kReadLock:
      case KOpKind::kReadUnlock:
      case KOpKind::kMutexLock:
      case KOpKind::kMutexUnlock:
      case KOpKind::kLockrefGet:
      case KOpKind::kLockrefPut:
      case KOpKind::kLockrefPutReturn:
        return false;
      default:
        return true;
    }
  }
  // Whether the KOps from `i` on make their next Op without shared state (next_is_own).
  bool own_from(std::size_t i) const;
  // Whether seqcount check `k` finds `last` changed from its begin's value (rcu-walk must restart).
  bool seq_check_fails(const KOp& k, std::uint64_t last) const;
  Step continue_kop(const KOp& k, std::uint64_t last, exec::Op& out, ProcessStats& stats);
  // A lock primitive's next Op (true), or its action ended: then the KOp moves on, or a lockref
  // put goes on under its lock.
  bool lock_step(CpuId cpu, std::uint64_t last, exec::Op& out, ProcessStats& stats);

  const Expansion* exp_ = nullptr;
  bool runs_ = false;  // exp_ is compiled (begin): its runs are handed out
  std::size_t index_ = 0;
  std::size_t current_ = 0;  // the KOp of the last Op handed out
  Phase phase_ = Phase::kNotStarted;
  sync::SyncPrimitive* prim_ = nullptr;
  sync::SyncPrimitive* lockref_tail_ = nullptr;  // a lockref put that must finish under its lock
  sync::SyncAction action_{};
  sync::SyncCall call_;
  std::uint64_t scratch_ = 0;
  std::vector<Held> held_;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> seq_seen_;  // (line<<32|word) -> value at begin
  bool aborting_ = false;
};

}  // namespace walksim::kernel
