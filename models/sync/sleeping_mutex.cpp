// mutex_lock / mutex_unlock as ops, following kernel/mutex.c (__mutex_lock_common,
// __mutex_unlock_common_slowpath) and arch/x86/include/asm/mutex_64.h of 2.6.35.
#include "models/sync/sleeping_mutex.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace walksim::sync {

namespace {
constexpr std::uint64_t kMinusOne = ~std::uint64_t{0};
enum LockStep : std::uint32_t {
  kFast = 0,       // lock decl
  kFastResult,     // -> acquired, or take wait_lock
  kQueue,          // set our task state, join the wait list
  kXchg,           // atomic_xchg(count, -1)
  kXchgResult,     // -> got it (atomic_set(count, 0) if the list is now empty), or drop wait_lock
  kDropAndReturn,  // spin_unlock(wait_lock), then done
  kSleep,          // schedule(), asleep, woken and scheduled back in (Scheduler::sleep)
  kSleeping,       // the scheduler's steps; then spin_lock(wait_lock) and go round again
  kDone,
  // 2.6.30+ optimistic spinning (spin_on_owner), between a failed fast path and wait_lock:
  kSpinOwnerResult,  // no owner: try the cmpxchg; owner off its CPU: sleep; else read its rq->curr
  kSpinWait,         // spin while it holds the lock
  kSpinCas,          // atomic_cmpxchg(&lock->count, 1, 0)
  kSpinCasResult,    // got it, or read the owner again
};
// kUWaking: wake_up_process(first waiter), the scheduler's try_to_wake_up steps, under wait_lock.
// kUClearOwner (spin_on_owner only): mutex_clear_owner's store comes before the `lock incl`.
enum UnlockStep : std::uint32_t { kUClearOwner = 0, kUFast, kUFastResult, kUSetOne, kUWake, kUWaking, kUDrop, kUDone };
// spin_lock(&lock->wait_lock), shared by both paths; call.scratch holds the step to go on with.
enum WaitLockStep : std::uint32_t { kWaitLockTake = 100, kWaitLockResult };
// The count lives in the word's low bits, wait_lock in one high bit of the same word: both are on
// the mutex's line (struct mutex: count, wait_lock, wait_list), and keeping them in one word lets
// the count's RMWs and the lock's xchg touch only their own bits.
constexpr std::uint64_t kWaitBit = std::uint64_t{1} << 62;
constexpr std::uint64_t kCountMask = kWaitBit - 1;
}  // namespace

SleepingMutex::SleepingMutex(SyncWord word, Scheduler& scheduler, bool spin_on_owner)
    : word_(word), sched_(scheduler), spin_on_owner_(spin_on_owner) {
  waiters_.reserve(sched_.cpus());
}

void SleepingMutex::remove_waiter(CpuId cpu) {
  auto it = std::find(waiters_.begin(), waiters_.end(), cpu);
  if (it != waiters_.end()) waiters_.erase(it);
}

bool SleepingMutex::do_step(SyncAction action, CpuId cpu, SyncCall& call, std::uint64_t last, Op& out) {
  if (cpu >= sched_.cpus()) throw std::out_of_range("mutex has no task line for cpu " + std::to_string(cpu));
  // wait_lock is a real test-and-set spinlock: the waker must not find the wait list while a sleeper
  // is between joining it and marking itself asleep (a lost wake-up otherwise).
  const auto take_wait_lock = [&](std::uint32_t then) {
    call.scratch = then;
    out = Op::xchg(word_.line, kWaitBit, kWaitBit).on_word(word_.id);
    call.step = kWaitLockResult;
  };
  const auto drop_wait_lock = [&] { out = word_.store(0, kWaitBit); };
  if (call.step == kWaitLockTake) {
    take_wait_lock(static_cast<std::uint32_t>(call.scratch));
    return true;
  }
  if (call.step == kWaitLockResult) {
    if (last & kWaitBit) {  // held: wait until it is dropped, then try again
      out = word_.spin_until(0, kWaitBit);
      call.step = kWaitLockTake;
      return true;
    }
    call.step = static_cast<std::uint32_t>(call.scratch);
    return do_step(action, cpu, call, last, out);
  }
  const std::uint64_t raw = last;  // a cmpxchg fails when wait_lock's bit is set too
  last &= kCountMask;              // the count's results, without wait_lock's bit
  // The holder is known; with spin_on_owner it also writes lock->owner (no value of its own here:
  // a store on the mutex line that changes no bit of the count).
  const auto acquired = [&](std::uint64_t waited) {
    ++stats_.acquisitions;
    if (waited) ++stats_.contended;
    call.result = waited;
    owner_ = cpu;
  };
  if (action == SyncAction::kAcquire) {
    switch (call.step) {
      case kFast:
        out = word_.rmw_add(1);
        call.step = kFastResult;
        return true;
      case kFastResult:
        if (last == kUnlocked) {
          acquired(0);
          if (!spin_on_owner_) return false;
          out = word_.store(0, 0);  // mutex_set_owner
          call.step = kDone;
          return true;
        }
        if (spin_on_owner_) {
          out = word_.load();  // owner = ACCESS_ONCE(lock->owner)
          call.step = kSpinOwnerResult;
          return true;
        }
        take_wait_lock(kQueue);
        return true;
      case kSpinOwnerResult:
        if (owner_ == kNoOwner) {
          out = Op::cas(word_.line, kUnlocked, kLocked).on_word(word_.id);
          call.step = kSpinCasResult;
          return true;
        }
        if (!sched_.on_cpu(owner_)) {  // mutex_spin_on_owner: the owner is not running, so sleep
          take_wait_lock(kQueue);
          return true;
        }
        out = Op::load(sched_.curr_line(owner_));  // task_thread_info(rq->curr) == owner
        call.step = kSpinWait;
        return true;
      case kSpinWait:
        out = word_.spin_until(kUnlocked, kCountMask);
        call.step = kSpinCas;
        return true;
      case kSpinCas:
        out = Op::cas(word_.line, kUnlocked, kLocked).on_word(word_.id);
        call.step = kSpinCasResult;
        return true;
      case kSpinCasResult:
        if (raw == kUnlocked) {
          acquired(1);
          out = word_.store(0, 0);  // mutex_set_owner
          call.step = kDone;
          return true;
        }
        out = word_.load();
        call.step = kSpinOwnerResult;
        return true;
      case kQueue:
        // The task marks itself asleep before it can be found on the list, so a wake-up that
        // comes before it sleeps is not lost (the kernel gets this from holding wait_lock).
        if (std::find(waiters_.begin(), waiters_.end(), cpu) == waiters_.end()) waiters_.push_back(cpu);
        out = Op::store(sched_.task_line(cpu), 0);
        call.step = kXchg;
        return true;
      case kXchg:
        out = Op::xchg(word_.line, kContended, kCountMask).on_word(word_.id);
        call.step = kXchgResult;
        return true;
      case kXchgResult:
        if (last == kUnlocked) {
          remove_waiter(cpu);
          acquired(1);
          if (waiters_.empty()) {
            out = word_.store(kLocked, kCountMask);
            call.step = kDropAndReturn;
            return true;
          }
          drop_wait_lock();
          call.step = kDone;
          return true;
        }
        drop_wait_lock();
        call.step = kSleep;
        return true;
      case kDropAndReturn:
        drop_wait_lock();
        call.step = kDone;
        return true;
      case kSleep:
        ++stats_.sleeps;
        call.inner_step = 0;
        call.inner_scratch = 0;
        call.step = kSleeping;
        [[fallthrough]];
      case kSleeping:
        if (sched_.sleep(cpu, call.inner_step, call.inner_scratch, last, out)) return true;
        take_wait_lock(kQueue);  // woken and running again: retry under wait_lock
        return true;
      default:
        return false;
    }
  }
  if (action == SyncAction::kRelease) {
    switch (call.step) {
      case kUClearOwner:
        owner_ = kNoOwner;
        if (spin_on_owner_) {
          out = word_.store(0, 0);  // mutex_clear_owner, before the `lock incl`
          call.step = kUFast;
          return true;
        }
        [[fallthrough]];
      case kUFast:
        out = word_.rmw_add(kMinusOne);
        call.step = kUFastResult;
        return true;
      case kUFastResult:
        if (last <= kLocked) return false;  // count went back to 1: nobody waits
        take_wait_lock(kUSetOne);
        return true;
      case kUSetOne:
        out = word_.store(kUnlocked, kCountMask);
        call.step = kUWake;
        return true;
      case kUWake:
        if (waiters_.empty()) {
          drop_wait_lock();
          call.step = kUDone;
          return true;
        }
        // wake_up_process(first waiter): it stays on the list until it has the mutex.
        call.scratch = waiters_.front();
        call.inner_step = 0;
        call.inner_scratch = 0;
        call.step = kUWaking;
        [[fallthrough]];
      case kUWaking:
        if (sched_.wake(cpu, static_cast<CpuId>(call.scratch), call.inner_step, call.inner_scratch, last, out)) {
          return true;
        }
        [[fallthrough]];
      case kUDrop:
        drop_wait_lock();
        call.step = kUDone;
        return true;
      default:
        return false;
    }
  }
  unsupported(action);
}

}  // namespace walksim::sync
