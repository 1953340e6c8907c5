// pthread_mutex_lock / pthread_mutex_unlock of a default mutex as ops: glibc's x86-64 lowlevellock
// and the kernel's FUTEX_WAIT / FUTEX_WAKE (futex_mutex.hpp; docs/reference/pthread-futex.md).
#include "models/sync/futex_mutex.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace walksim::sync {

namespace {
constexpr std::uint64_t kMinusOne = ~std::uint64_t{0};
constexpr std::uint64_t kNoBits = 0;  // a store to a field that shares the word's line but not its bits

enum LockStep : std::uint32_t {
  kKind = 0,         // PTHREAD_MUTEX_TYPE(mutex): a read of the mutex line
  kCas,              // lll_lock: lock cmpxchg 0 -> 1
  kCasResult,        // taken; or __lll_lock_wait (straight to the futex if the word was already 2)
  kXchg,             // xchg 2
  kXchgResult,       // was 0: taken (the word stays 2), then the owner field; else FUTEX_WAIT: the
                     // system call's entry and futex_wait's own work
  kWaitLockPtr,      // queue_lock: q->lock_ptr = &hb->lock (the waiter's futex_q)
  kWaitRead,         // get_futex_value_locked under the bucket lock
  kWaitCheck,        // not 2 any more: -EWOULDBLOCK, back to the xchg; else set_current_state
  kWaitQueue,        // queue_me: plist_add on the bucket's chain
  kWaitUnlock,       // spin_unlock(&hb->lock)
  kWaitListCheck,    // plist_node_empty(&q->list): a waker may have taken it off already
  kWaitDecide,       // sleep, or (already woken) __set_current_state(TASK_RUNNING)
  kSleeping,         // schedule(): the Scheduler's steps
  kWaitLockPtrRead,  // unqueue_me: q->lock_ptr, cleared by the waker
  kWaitAfter,        // still queued (not woken by a FUTEX_WAKE): unqueue and wait again; else the xchg
  kUnqueue,          // unqueue_me under the bucket lock: plist_del
  kUnqueueUnlock,    // and the bucket unlocked; then futex_wait_setup again
  kDone,
};
enum UnlockStep : std::uint32_t {
  kUKind = 0,   // PTHREAD_MUTEX_TYPE(mutex)
  kUOwner,      // mutex->__data.__owner = 0
  kUDec,        // lll_unlock: lock decl
  kUDecResult,  // was 1: done; was 2: __lll_unlock_wake
  kUWakeEnter,  // movl $0 was issued; the system call's entry, futex_wake's own work
  kUScan,       // the bucket's chain, under its lock
  kUPick,       // nobody: unlock; else the first waiter of this futex: get_task_struct
  kUDel,        // plist_del
  kULockPtr,    // q->lock_ptr = NULL
  kUWaking,     // wake_up_state: the Scheduler's try_to_wake_up steps
  kUPut,        // put_task_struct
  kUDrop,       // spin_unlock(&hb->lock)
  kUDone,
};
// spin_lock(&hb->lock) and spin_unlock, shared by both paths; call.scratch holds the step to go on with.
enum BucketStep : std::uint32_t { kBucketLock = 100, kBucketUnlock };
}  // namespace

FutexMutex::FutexMutex(SyncWord word, LineId bucket, std::span<const LineId> qnodes, Scheduler& scheduler,
                       FutexCosts costs)
    : word_(word),
      bucket_(bucket),
      bucket_lock_(SyncWord(bucket)),
      qnodes_(qnodes.begin(), qnodes.end()),
      sched_(scheduler),
      costs_(costs) {
  if (qnodes_.size() != sched_.cpus()) {
    throw std::invalid_argument("a futex mutex needs one futex_q line per CPU of its scheduler");
  }
  waiters_.reserve(sched_.cpus());
}

bool FutexMutex::queued(CpuId cpu) const { return std::find(waiters_.begin(), waiters_.end(), cpu) != waiters_.end(); }

void FutexMutex::dequeue(CpuId cpu) {
  auto it = std::find(waiters_.begin(), waiters_.end(), cpu);
  if (it != waiters_.end()) waiters_.erase(it);
}

bool FutexMutex::do_step(SyncAction action, CpuId cpu, SyncCall& call, std::uint64_t last, Op& out) {
  if (cpu >= qnodes_.size()) throw std::out_of_range("futex mutex has no futex_q line for cpu " + std::to_string(cpu));
  // spin_lock / spin_unlock(&hb->lock) as a nested call on the bucket's ticket lock, then on with `then`.
  const auto bucket = [&](std::uint32_t lock_or_unlock, std::uint32_t then) {
    call.step = lock_or_unlock;
    call.scratch = then;
    call.inner_step = 0;
    call.inner_scratch = 0;
    return do_step(action, cpu, call, last, out);
  };
  if (call.step == kBucketLock || call.step == kBucketUnlock) {
    const SyncAction a = call.step == kBucketLock ? SyncAction::kAcquire : SyncAction::kRelease;
    if (step_nested(bucket_lock_, a, cpu, call, last, out)) return true;
    call.step = static_cast<std::uint32_t>(call.scratch);
    return do_step(action, cpu, call, last, out);
  }
  const auto syscall = [&] {
    ++futex_calls_;
    out = Op::compute(costs_.syscall + costs_.futex);
  };
  const auto acquired = [&](std::uint64_t waited) {
    ++stats_.acquisitions;
    if (waited) ++stats_.contended;
    call.result = waited;
    out = word_.store(0, kNoBits);  // the owner field
    call.step = kDone;
  };
  if (action == SyncAction::kAcquire) {
    switch (call.step) {
      case kKind:
        out = word_.load();
        call.step = kCas;
        return true;
      case kCas:
        out = word_.cas(kUnlocked, kLocked);
        call.step = kCasResult;
        return true;
      case kCasResult:
        if (last == kUnlocked) {
          acquired(0);
          return true;
        }
        if (last == kContended) {
          syscall();
          call.step = kWaitLockPtr;
          return true;
        }
        [[fallthrough]];
      case kXchg:
        out = word_.xchg(kContended);
        call.step = kXchgResult;
        return true;
      case kXchgResult:
        if (last == kUnlocked) {
          acquired(1);
          return true;
        }
        syscall();
        call.step = kWaitLockPtr;
        return true;
      case kWaitLockPtr:
        out = Op::store(qnodes_[cpu], 1);
        call.step = kBucketLock;
        call.scratch = kWaitRead;
        call.inner_step = 0;
        call.inner_scratch = 0;
        return true;
      case kWaitRead:
        out = word_.load();
        call.step = kWaitCheck;
        return true;
      case kWaitCheck:
        // The word changed: -EWOULDBLOCK, and __lll_lock_wait's xchg again.
        if (last != kContended) return bucket(kBucketUnlock, kXchg);
        // The task is marked asleep before the bucket lock is dropped, so a FUTEX_WAKE that finds it
        // on the chain always finds it asleep or about to be (no lost wake-up).
        out = Op::xchg(sched_.task_line(cpu), 0);
        call.step = kWaitQueue;
        return true;
      case kWaitQueue:
        waiters_.push_back(cpu);
        out = Op::store(bucket_, 0, kNoBits);
        call.step = kWaitUnlock;
        return true;
      case kWaitUnlock:
        return bucket(kBucketUnlock, kWaitListCheck);
      case kWaitListCheck:
        out = Op::load(qnodes_[cpu]);
        call.step = kWaitDecide;
        return true;
      case kWaitDecide:
        if (!queued(cpu)) {  // a waker took it off the chain before it slept: no schedule()
          out = Op::store(sched_.task_line(cpu), 1);
          call.step = kWaitLockPtrRead;
          return true;
        }
        ++stats_.sleeps;
        call.inner_step = 0;
        call.inner_scratch = 0;
        call.step = kSleeping;
        [[fallthrough]];
      case kSleeping:
        if (sched_.sleep(cpu, call.inner_step, call.inner_scratch, last, out)) return true;
        [[fallthrough]];
      case kWaitLockPtrRead:
        out = Op::load(qnodes_[cpu]);
        call.step = kWaitAfter;
        return true;
      case kWaitAfter:
        // Still queued (woken by something else): unqueue_me, then futex_wait_setup again.
        if (queued(cpu)) return bucket(kBucketLock, kUnqueue);
        out = word_.xchg(kContended);
        call.step = kXchgResult;
        return true;
      case kUnqueue:
        dequeue(cpu);
        out = Op::store(bucket_, 0, kNoBits);
        call.step = kUnqueueUnlock;
        return true;
      case kUnqueueUnlock:
        return bucket(kBucketUnlock, kWaitLockPtr);
      default:
        return false;
    }
  }
  if (action == SyncAction::kRelease) {
    switch (call.step) {
      case kUKind:
        out = word_.load();
        call.step = kUOwner;
        return true;
      case kUOwner:
        out = word_.store(0, kNoBits);
        call.step = kUDec;
        return true;
      case kUDec:
        out = word_.rmw_add(kMinusOne);
        call.step = kUDecResult;
        return true;
      case kUDecResult:
        if (last == kLocked) return false;  // nobody waited
        out = word_.store(kUnlocked);       // __lll_unlock_wake: movl $0
        call.step = kUWakeEnter;
        return true;
      case kUWakeEnter:
        syscall();
        call.step = kBucketLock;
        call.scratch = kUScan;
        call.inner_step = 0;
        call.inner_scratch = 0;
        return true;
      case kUScan:
        out = Op::load(bucket_);
        call.step = kUPick;
        return true;
      case kUPick:
        if (waiters_.empty()) return bucket(kBucketUnlock, kUDone);
        call.scratch = waiters_.front();
        waiters_.erase(waiters_.begin());
        out = Op::rmw_add(sched_.task_line(static_cast<CpuId>(call.scratch)), 0);  // get_task_struct
        call.step = kUDel;
        return true;
      case kUDel:
        out = Op::store(bucket_, 0, kNoBits);
        call.step = kULockPtr;
        return true;
      case kULockPtr:
        out = Op::store(qnodes_[call.scratch], 0);
        call.inner_step = 0;
        call.inner_scratch = 0;
        call.step = kUWaking;
        return true;
      case kUWaking:
        if (sched_.wake(cpu, static_cast<CpuId>(call.scratch), call.inner_step, call.inner_scratch, last, out)) {
          return true;
        }
        [[fallthrough]];
      case kUPut:
        out = Op::rmw_add(sched_.task_line(static_cast<CpuId>(call.scratch)), 0);
        call.step = kUDrop;
        return true;
      case kUDrop:
        return bucket(kBucketUnlock, kUDone);
      default:
        return false;
    }
  }
  unsupported(action);
}

}  // namespace walksim::sync
