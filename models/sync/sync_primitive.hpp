// The interface every synchronisation primitive implements. An action (lock, unlock, a seqcount
// read, a counter increment) is a resumable step function that yields exec::Ops one at a time and
// keeps its progress in a caller-owned SyncCall, so a kernel model can run primitives inside its
// own exec::Program without allocating per operation and without any global state.
#pragma once

#include <cstdint>
#include <string_view>

#include "models/exec/op.hpp"
#include "models/machine/machine.hpp"

namespace walksim::sync {

using exec::Op;
using machine::CpuId;
using machine::LineId;
using sim::Picos;

// The word a primitive keeps its value in: a line, and which of the executor's words on it
// (exec::Op::on_word), so that several fields can share one cacheline (a dentry's d_lock and
// d_count). A plain LineId converts to the line's own word.
struct SyncWord {
  SyncWord(LineId l, std::uint32_t w = exec::kLineWord) : line(l), id(w) {}  // NOLINT: implicit on purpose
  LineId line;
  std::uint32_t id;

  Op load() const { return Op::load(line).on_word(id); }
  Op store(std::uint64_t v, std::uint64_t mask = ~std::uint64_t{0}) const {
    return Op::store(line, v, mask).on_word(id);
  }
  Op rmw_add(std::uint64_t v) const { return Op::rmw_add(line, v).on_word(id); }
  Op xchg(std::uint64_t v) const { return Op::xchg(line, v).on_word(id); }
  Op cas(std::uint64_t expect, std::uint64_t v) const { return Op::cas(line, expect, v).on_word(id); }
  Op spin_until(std::uint64_t expect, std::uint64_t mask = ~std::uint64_t{0}) const {
    return Op::spin_until(line, expect, mask).on_word(id);
  }
  Op sleep_until(std::uint64_t expect, Picos wakeup, std::uint64_t mask = ~std::uint64_t{0}) const {
    return Op::sleep_until(line, expect, wakeup, mask).on_word(id);
  }
};

// What a caller asks of a primitive. Each primitive supports a subset (supports()); the result of
// a finished action is in SyncCall::result, as listed here.
enum class SyncAction : std::uint8_t {
  kAcquire,           // spin_lock, write_lock, mutex_lock, br_write_lock. result: 1 if it had to wait
  kRelease,           // the matching unlock
  kReadAcquire,       // read_lock, br_read_lock, rcu_read_lock. result: 1 if it had to wait
  kReadRelease,       // the matching unlock
  kInc,               // atomic_inc
  kDec,               // atomic_dec
  kDecAndTest,        // atomic_dec_and_test. result: 1 if the count reached zero
  kAddUnless,         // atomic_add_unless(v, arg, arg2). result: 1 if it added (v was not arg2)
  kDecAndLock,        // atomic_dec_and_lock(v, lock). result: 1 if v reached zero; the lock is then held
  kRead,              // atomic_read; per-CPU counter: the sum over CPUs. result: the value
  kSeqReadBegin,      // read_seqcount_begin / read_seqbegin. result: the (even) sequence
  kSeqReadRetry,      // read_seqcount_retry(arg = the begin value). result: 1 if the read must be retried
  kWriteBegin,        // write_seqcount_begin; write_seqlock also takes the seqlock's spinlock
  kWriteEnd,          // write_seqcount_end; write_sequnlock also releases it
  kPercpuAdd,         // this_cpu_add(arg) on the calling CPU's counter
  kLocalLock,         // lg_local_lock: the calling CPU's lock. result: 1 if it had to wait
  kLocalUnlock,       // lg_local_unlock
  kLocalLockCpu,      // lg_local_lock_cpu(arg = cpu): another CPU's lock. result: 1 if it had to wait
  kLocalUnlockCpu,    // lg_local_unlock_cpu(arg = cpu)
  kGlobalLock,        // lg_global_lock: every CPU's lock, in CPU order. result: 1 if any had to wait
  kGlobalUnlock,      // lg_global_unlock
  kLockrefGet,        // lockref_get. result: the count afterwards
  kLockrefPut,        // lockref_put_or_lock. result: 1 if it decremented; 0 if the count was <= 1 and the
                      // embedded lock is now held by the caller (who releases it with kRelease)
  kLockrefPutReturn,  // fast_dput's lockref_put_return (3.13+): cmpxchg of count - 1 while the lock is
                      // free; else (lock held, count 0, or the retry limit) spin_lock, count--, unlock.
                      // result: the count afterwards
  kCallRcu,           // call_rcu: queue a deferred free
};
inline constexpr std::size_t kSyncActionCount = static_cast<std::size_t>(SyncAction::kCallRcu) + 1;

std::string_view action_name(SyncAction a);

// The state of one action in flight, owned by the caller (typically one per Program). Inputs are
// set before the first step; `result` is valid once step() returned false. The progress fields
// belong to the primitive: zero before the first step, and set back to zero after the last, so a
// SyncCall can be reused for the next action.
struct SyncCall {
  std::uint64_t arg = 0;     // input: kAddUnless amount, kPercpuAdd amount, kSeqReadRetry begin value, kLocal*Cpu cpu
  std::uint64_t arg2 = 0;    // input: kAddUnless "unless" value
  std::uint64_t result = 0;  // output; cleared when an action starts
  // Progress, private to the primitive. inner_* hold the progress of a call it makes on another
  // primitive (a seqlock's spinlock), so one level of nesting needs no storage of its own.
  std::uint32_t step = 0;
  std::uint32_t inner_step = 0;
  std::uint64_t scratch = 0;
  std::uint64_t inner_scratch = 0;
};

// Plain counters; every op is counted as it is handed out, including ops of nested calls (which the
// inner primitive counts as well).
struct SyncStats {
  std::uint64_t acquisitions = 0;    // lock-type actions completed (any kind of lock, read lock, seqlock write)
  std::uint64_t contended = 0;       // of those, the ones that found the lock taken and waited
  std::uint64_t rmws = 0;            // locked read-modify-writes issued (xadd, xchg, cmpxchg)
  std::uint64_t loads = 0;           // loads, including spin- and sleep-waits
  std::uint64_t stores = 0;          // plain stores
  std::uint64_t retries = 0;         // seqcount reads told to retry; failed cmpxchg attempts
  std::uint64_t fallbacks = 0;       // lockref operations that fell back to the spinlock
  std::uint64_t sleeps = 0;          // mutex waiters that went to sleep
  std::uint64_t deferred_frees = 0;  // call_rcu callbacks queued
};

class SyncPrimitive {
 public:
  virtual ~SyncPrimitive() = default;
  virtual std::string_view kind() const = 0;
  virtual bool supports(SyncAction action) const = 0;
  // True when each step makes its op from the SyncCall, the previous result and the primitive's
  // fixed words alone, so that the op may be made early (the executor's run-ahead; the
  // executor still runs ahead only over accesses nobody else holds). A primitive with other shared
  // state (a scheduler's run queues, a futex's waiters, MCS/CLH nodes passed between CPUs) says no,
  // the default.
  virtual bool steps_are_own() const { return false; }

  // Produces the next op of `action` by `cpu` into `out`, given the result of the previous op
  // (ignored on the first step), and returns true; returns false when the action is complete, with
  // its outcome in call.result. An action may complete without issuing any op (rcu_read_lock).
  // Throws std::logic_error for an action the primitive does not support.
  bool step(SyncAction action, CpuId cpu, SyncCall& call, std::uint64_t last_result, Op& out);

  const SyncStats& stats() const { return stats_; }

 protected:
  virtual bool do_step(SyncAction action, CpuId cpu, SyncCall& call, std::uint64_t last_result, Op& out) = 0;

  // Advances `action` on `inner` as a call nested in `call`, keeping its state in call.inner_*.
  // Returns like step(); on completion stores the inner result in *result when given.
  static bool step_nested(SyncPrimitive& inner, SyncAction action, CpuId cpu, SyncCall& call, std::uint64_t last_result,
                          Op& out, std::uint64_t* result = nullptr);

  [[noreturn]] void unsupported(SyncAction action) const;

  SyncStats stats_;
};

}  // namespace walksim::sync
