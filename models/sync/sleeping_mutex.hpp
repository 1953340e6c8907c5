// The sleeping mutex of Linux 2.6.16-2.6.29 (i_mutex; without the 2.6.30+ spinning on a running
// owner): the fast paths are one locked RMW each (`lock decl` to lock, `lock incl` to unlock). A
// contended locker queues itself, marks itself asleep and sleeps through the scheduler: schedule()
// out, no CPU while asleep, the wake-up's flight, schedule() back in; the unlocker wakes the first
// waiter with try_to_wake_up under wait_lock (scheduler.hpp), and the woken task retries: the lock
// may have been stolen meanwhile (no hand-off).
#pragma once

#include <span>
#include <vector>

#include "models/sync/scheduler.hpp"
#include "models/sync/sync_primitive.hpp"

namespace walksim::sync {

// Modelled: the count word and its RMWs; wait_lock as a test-and-set spinlock on the mutex line
// (an xchg to take it, spinning while it is held, a store to drop it), which orders the sleeper's
// joining the wait list and marking itself asleep before any waker can look at the list; the
// sleeper's store to its own task line and its schedule(), the waker's try_to_wake_up, both as the
// Scheduler's ops. With `spin_on_owner` (2.6.30+, CONFIG_MUTEX_SPIN_ON_OWNER; the loop is
// docs/reference/wakeup-path.md §4): the holder records itself in lock->owner (a store on the
// mutex line after it takes it, another before it releases it), and a locker whose fast path
// failed reads the owner and, while the owner's task is on its CPU (its runqueue's curr line), spins
// until the count says unlocked and tries a cmpxchg, before it takes the sleeping path. Simplified:
// the spinner waits for the release rather than re-reading the owner's rq->curr every iteration,
// so it does not notice an owner that goes to sleep while it spins (in the modelled calls an
// i_mutex holder sleeps only in a cross-directory rename), nor need_resched (no preemption). The 2.6.35 wait_lock is a
// ticket lock, 2.6.20's `lock decb`; test-and-set stands for both (one holder at a time is what the wake-up order
// needs).
class SleepingMutex final : public SyncPrimitive {
 public:
  // `scheduler` holds each CPU's task state line and runqueue; a task sleeps on one thing at a
  // time, so all mutexes of a kernel share one.
  // `spin_on_owner`: 2.6.30+'s CONFIG_MUTEX_SPIN_ON_OWNER (below).
  SleepingMutex(SyncWord word, Scheduler& scheduler, bool spin_on_owner = false);

  std::string_view kind() const override { return spin_on_owner_ ? "mutex-spin" : "mutex"; }
  bool supports(SyncAction a) const override { return a == SyncAction::kAcquire || a == SyncAction::kRelease; }

  std::size_t waiters() const { return waiters_.size(); }

  // The word's low bits are 1 - count: 0 unlocked, 1 locked, 2 locked with possible waiters. (Every
  // line starts as zero, and an unlocked mutex has count 1.) Bit 62 is wait_lock.
  static constexpr std::uint64_t kUnlocked = 0, kLocked = 1, kContended = 2;

 protected:
  bool do_step(SyncAction action, CpuId cpu, SyncCall& call, std::uint64_t last, Op& out) override;

 private:
  void remove_waiter(CpuId cpu);

  static constexpr CpuId kNoOwner = ~CpuId{0};

  SyncWord word_;
  Scheduler& sched_;
  bool spin_on_owner_;
  CpuId owner_ = kNoOwner;      // lock->owner (2.6.30+): the CPU whose task holds it
  std::vector<CpuId> waiters_;  // the wait list, FIFO; capacity reserved for every CPU
};

}  // namespace walksim::sync
