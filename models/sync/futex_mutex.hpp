// A user-space pthread mutex of the default type (PTHREAD_MUTEX_TIMED_NP: no spinning) on glibc's
// x86-64 low-level lock and the kernel's futex, as SSYNC's "mutex" lock test ran it (libslock's
// lock_if.h: pthread_mutex_init(lock, NULL)). The sequences are docs/reference/pthread-futex.md:
//
//   lock:    read the mutex's kind; `lock cmpxchg 0 -> 1`; on failure __lll_lock_wait: unless the
//            word was already 2, `xchg 2`, and while that returns non-zero, futex(FUTEX_WAIT, 2)
//            and `xchg 2` again. Then the owner field (a store on the mutex line).
//   unlock:  the owner field; `lock decl`; if the word was 2 (someone may wait), __lll_unlock_wake:
//            a store of 0 and futex(FUTEX_WAKE, 1).
//   FUTEX_WAIT (kernel/futex.c of 2.6.35): the system call's entry and exit and its own work, the
//            hash bucket's spinlock, the futex word read under it; if the word is no longer 2, back
//            to user space; else the task state (set_current_state, an xchg), the futex_q queued on
//            the bucket, the bucket unlocked, and schedule() unless a waker already took the futex_q
//            off the list; once running, the futex_q's lock_ptr read (a waker cleared it) and back.
//   FUTEX_WAKE: the system call, the bucket's lock (always, even with nobody queued), the first
//            waiter's futex_q taken off the list, get_task_struct, lock_ptr cleared, try_to_wake_up
//            (the Scheduler's steps), put_task_struct, the bucket unlocked.
//
// Lines: the mutex's own (the futex word, its kind and owner fields), the futex hash bucket's (its
// spinlock and chain; a static array in the kernel image, homed with the lock here), and one futex_q
// line per CPU on its node (the futex_q lives on the waiter's kernel stack). The bucket lock is
// the x86 ticket spinlock of 2.6.25-4.1 (TicketSpinlock, on the bucket line's word; the chain is a
// field of the same line). Woken waiters are not handed the lock: they `xchg 2` again and may find it stolen.
#pragma once

#include <span>
#include <vector>

#include "models/sync/scheduler.hpp"
#include "models/sync/sync_primitive.hpp"
#include "models/sync/ticket_spinlock.hpp"

namespace walksim::sync {

struct FutexCosts {
  Picos syscall = 0;  // a system call's entry, dispatch and exit (the kernel's cpu_costs.syscall)
  Picos futex = 0;    // futex_wait's or futex_wake's own work beyond its modelled accesses (cpu_costs.futex)
};

class FutexMutex final : public SyncPrimitive {
 public:
  // `bucket`: the futex hash bucket's line; `qnodes`: one futex_q line per CPU.
  FutexMutex(SyncWord word, LineId bucket, std::span<const LineId> qnodes, Scheduler& scheduler, FutexCosts costs);

  std::string_view kind() const override { return "pthread-mutex"; }
  bool supports(SyncAction a) const override { return a == SyncAction::kAcquire || a == SyncAction::kRelease; }

  // Tasks queued on the bucket for this futex (FUTEX_WAIT, not yet taken off by a FUTEX_WAKE).
  std::size_t waiters() const { return waiters_.size(); }
  std::uint64_t futex_calls() const { return futex_calls_; }

  // The futex word as glibc keeps it: 0 unlocked, 1 locked, 2 locked and maybe waited for.
  static constexpr std::uint64_t kUnlocked = 0, kLocked = 1, kContended = 2;

 protected:
  bool do_step(SyncAction action, CpuId cpu, SyncCall& call, std::uint64_t last, Op& out) override;

 private:
  bool queued(CpuId cpu) const;
  void dequeue(CpuId cpu);

  SyncWord word_;
  LineId bucket_;
  TicketSpinlock bucket_lock_;  // hb->lock: the bucket word's ticket lock (2.6.25-4.1)
  std::vector<LineId> qnodes_;
  Scheduler& sched_;
  FutexCosts costs_;
  std::vector<CpuId> waiters_;  // the bucket's chain for this futex, FIFO (one priority)
  std::uint64_t futex_calls_ = 0;
};

}  // namespace walksim::sync
