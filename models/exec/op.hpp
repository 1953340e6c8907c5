// The operations a simulated hardware thread issues: memory accesses on cachelines, private
// compute time, fences, and spin-waits. Spin-waits are not simulated spin by spin: the waiter
// parks on the line and is woken by the write that changes it, then re-reads it.
#pragma once

#include <cstdint>

#include "models/exec/core_speed.hpp"
#include "models/machine/cache.hpp"
#include "sim/time.hpp"

namespace walksim::exec {

using machine::LineId;
using sim::Picos;

enum class OpKind : std::uint8_t {
  kLoad,        // result: the line's word
  kStore,       // word = (word & ~mask) | (value & mask); the thread goes on (store buffer)
  kRmwAdd,      // locked xadd: word += value; result: the old word
  kRmwXchg,     // locked xchg of the masked field: word = (word & ~mask) | (value & mask); result: the old word
  kCas,         // locked cmpxchg: if word == expect then word = value; result: the old word
  kPrefetch,    // start fetching the line; the thread does not wait
  kPrefetchW,   // start fetching the line for writing
  kCompute,     // private CPU work of `ps`
  kFence,       // full fence: drain the store buffer
  kSpinUntil,   // re-read the line until (word & mask) == expect; burns CPU while waiting
  kSleepUntil,  // as kSpinUntil, but the thread sleeps (no CPU time) and pays `ps` of wake-up latency
  kIdle,        // the thread is off the CPU for `ps` (a woken task's interrupt on its way): no CPU time
};

// Several fields share one cacheline (a dentry's d_lock and d_count), so values are kept per
// *word*: by default the line's own word; `on_word(w)` names a separate word id (its own id
// space) that still lives on `line` for coherence.
constexpr std::uint32_t kLineWord = UINT32_MAX;

struct Op {
  OpKind kind = OpKind::kCompute;
  LineId line = 0;
  std::uint64_t value = 0;
  std::uint64_t mask = ~std::uint64_t{0};
  std::uint64_t expect = 0;
  Picos ps = 0;
  std::uint32_t word = kLineWord;

  Op& on_word(std::uint32_t w) {
    word = w;
    return *this;
  }

  static Op load(LineId l) { return {OpKind::kLoad, l}; }
  static Op store(LineId l, std::uint64_t v, std::uint64_t mask = ~std::uint64_t{0}) {
    return {OpKind::kStore, l, v, mask};
  }
  static Op rmw_add(LineId l, std::uint64_t v) { return {OpKind::kRmwAdd, l, v}; }
  static Op xchg(LineId l, std::uint64_t v, std::uint64_t mask = ~std::uint64_t{0}) {
    return {OpKind::kRmwXchg, l, v, mask};
  }
  static Op cas(LineId l, std::uint64_t expect, std::uint64_t v) {
    return {OpKind::kCas, l, v, ~std::uint64_t{0}, expect};
  }
  static Op prefetch(LineId l) { return {OpKind::kPrefetch, l}; }
  static Op prefetch_w(LineId l) { return {OpKind::kPrefetchW, l}; }
  static Op compute(Picos ps) { return {OpKind::kCompute, 0, 0, 0, 0, ps}; }
  static Op idle(Picos ps) { return {OpKind::kIdle, 0, 0, 0, 0, ps}; }
  // Private work that starts once this thread's own earlier stores are visible (expect = 1): a
  // benchmark's pause that is sized to let its last store reach the other cores first.
  static Op compute_after_own_stores(Picos ps) { return {OpKind::kCompute, 0, 0, 0, 1, ps}; }
  static Op fence() { return {OpKind::kFence}; }
  static Op spin_until(LineId l, std::uint64_t expect, std::uint64_t mask = ~std::uint64_t{0}) {
    return {OpKind::kSpinUntil, l, 0, mask, expect};
  }
  static Op sleep_until(LineId l, std::uint64_t expect, Picos wakeup, std::uint64_t mask = ~std::uint64_t{0}) {
    return {OpKind::kSleepUntil, l, 0, mask, expect, wakeup};
  }
};

// A program run by one hardware thread. next() is given the result of the previous operation
// (the word read, or the old word of an atomic) and returns the next operation, or false when
// the program is finished.
class Program {
 public:
  virtual ~Program() = default;
  virtual bool next(std::uint64_t last_result, Op& out) = 0;
  // True when the next next(last_result, ...) would only hand out an operation of the program's own: no shared
  // model state (a lock's queues, the dentry tree, a workload's counters) is read or changed in
  // making it (it may depend on the previous operation's result: that one is done). The executor's
  // run-ahead (Executor::set_run_ahead) asks for an operation early only then. The default says
  // no, which keeps a program out of run-ahead.
  virtual bool next_is_own(std::uint64_t /*last_result*/) const { return false; }

  // Operations handed out together with the one the last next() returned, to run right after it,
  // in order, before next() is called again: a program may hand out a run of operations that it
  // would make next whatever their results (a system call's plain loads, stores and private work
  // read from its compiled expansion), which spares the executor a call per operation. The
  // executor takes the run at once (take_run empties it); the operations stay valid until next()
  // is called again. The clock the program sees (now()) is not updated within a run, nor is
  // next_is_own asked: a program hands out a run only where neither would be read.
  struct Run {
    const Op* begin = nullptr;
    const Op* end = nullptr;
  };
  Run take_run() {
    const Run r = run_;
    run_ = {};
    return r;
  }

  // The thread's own clock when next() is called (set by the executor just before): the time at
  // which the previous operation completed, for programs that timestamp their own progress.
  Picos now() const { return now_; }
  void set_now(Picos t) { now_ = t; }

  // How fast the thread runs its own work (its core shared with SMT siblings or not), set by the
  // executor when this program or a sibling's starts: a program that counts its own CPU time
  // (user time) converts single-thread work with it, as the executor charges it.
  const CoreSpeed& core_speed() const { return core_speed_; }
  void set_core_speed(CoreSpeed s) { core_speed_ = s; }

 protected:
  // Called by next() with the operations that follow the one it returns (see take_run).
  void hand_out_run(const Op* begin, const Op* end) { run_ = {begin, end}; }

 private:
  Picos now_ = 0;
  CoreSpeed core_speed_;
  Run run_;
};

}  // namespace walksim::exec
