// The sleeping mutex of Linux 2.6.35 (i_mutex): the fast paths are one locked RMW each (`lock
// decl` to lock, `lock incl` to unlock). A contended locker queues itself, marks itself asleep
// and sleeps: it burns no CPU, and when the unlocker wakes the first waiter it pays the
// scheduler's wake-up latency before it can retry (the lock may be stolen meanwhile).
#pragma once

#include <span>
#include <vector>

#include "models/sync/sync_primitive.hpp"

namespace walksim::sync {

// Modelled: the count word and its RMWs, the wait_lock's traffic on the mutex line (one RMW to
// take it, one store to drop it), the sleeper's store to its own task line, the waker's store to
// the first waiter's task line. Not modelled: contention on wait_lock itself (the wait list is
// updated atomically by the simulator), the 2.6.30+ optimistic spinning on a running owner
// (CONFIG_MUTEX_SPIN_ON_OWNER), and the waker's own CPU cost in try_to_wake_up.
class SleepingMutex final : public SyncPrimitive {
 public:
  // `task_lines` has one line per CPU, standing for the task's state word; a task sleeps on one
  // thing at a time, so all mutexes of a kernel may share them.
  SleepingMutex(SyncWord word, std::span<const LineId> task_lines, Picos wakeup_latency);

  std::string_view kind() const override { return "mutex"; }
  bool supports(SyncAction a) const override { return a == SyncAction::kAcquire || a == SyncAction::kRelease; }

  std::size_t waiters() const { return waiters_.size(); }

  // The word is 1 - count: 0 unlocked, 1 locked, 2 locked with possible waiters. (Every line
  // starts as zero, and an unlocked mutex has count 1.)
  static constexpr std::uint64_t kUnlocked = 0, kLocked = 1, kContended = 2;

 protected:
  bool do_step(SyncAction action, CpuId cpu, SyncCall& call, std::uint64_t last, Op& out) override;

 private:
  void remove_waiter(CpuId cpu);

  SyncWord word_;
  std::vector<LineId> tasks_;
  Picos wakeup_;
  std::vector<CpuId> waiters_;  // the wait list, FIFO; capacity reserved for every CPU
};

}  // namespace walksim::sync
