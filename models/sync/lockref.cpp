// lockref_get and lockref_put_or_lock as ops, following lib/lockref.c (CMPXCHG_LOOP).
#include "models/sync/lockref.hpp"

namespace walksim::sync {

namespace {
enum Step : std::uint32_t {
  kLoad = 0,   // READ_ONCE(lockref->lock_count)
  kLoaded,     // decide: cmpxchg or fall back
  kCasResult,  // the cmpxchg came back
  kLock,       // spin_lock(&lockref->lock), then read the count
  kLocked,     // update the count under the lock
  kUnlock,     // spin_unlock
};
}  // namespace

bool Lockref::do_step(SyncAction action, CpuId cpu, SyncCall& call, std::uint64_t last, Op& out) {
  if (action == SyncAction::kAcquire || action == SyncAction::kRelease) {
    std::uint64_t waited = 0;
    if (step_nested(lock_, action, cpu, call, last, out, &waited)) return true;
    if (action == SyncAction::kAcquire) {
      ++stats_.acquisitions;
      stats_.contended += waited;
      call.result = waited;
    }
    return false;
  }
  if (action == SyncAction::kLockrefPutReturn) return put_return(cpu, call, last, out);
  if (action != SyncAction::kLockrefGet && action != SyncAction::kLockrefPut) unsupported(action);
  const bool get = action == SyncAction::kLockrefGet;
  const auto count = [](std::uint64_t w) { return w & kCountMask; };
  const auto with_count = [](std::uint64_t w, std::uint64_t c) { return (w & ~kCountMask) | (c & kCountMask); };

  // scratch: the word the cmpxchg expects, then the count to report; result: failed attempts so far.
  switch (call.step) {
    case kLoad:
      out = word_.load();
      call.step = kLoaded;
      return true;
    case kCasResult:
      if (last == call.scratch) {
        call.result = get ? count(last) + 1 : 1;
        return false;
      }
      ++stats_.retries;
      ++call.result;
      [[fallthrough]];
    case kLoaded: {
      const std::uint64_t v = last;
      const bool lock_path = !lock_.is_unlocked(v) || (!get && count(v) <= 1) || call.result >= kRetryLimit;
      if (!lock_path) {
        call.scratch = v;
        out = word_.cas(v, with_count(v, get ? count(v) + 1 : count(v) - 1));
        call.step = kCasResult;
        return true;
      }
      ++stats_.fallbacks;
      call.step = kLock;
      last = 0;
      [[fallthrough]];
    }
    case kLock:
      if (step_nested(lock_, SyncAction::kAcquire, cpu, call, last, out)) return true;
      out = word_.load();  // lockref->count, a hit: the xadd or the spin just read the line
      call.step = kLocked;
      return true;
    case kLocked: {
      const std::uint64_t c = count(last);
      if (!get && c <= 1) {  // put_or_lock: return with the lock held, count untouched
        call.result = 0;
        return false;
      }
      call.scratch = get ? c + 1 : 1;
      out = word_.store(get ? c + 1 : c - 1, kCountMask);
      call.step = kUnlock;
      return true;
    }
    default:
      if (step_nested(lock_, SyncAction::kRelease, cpu, call, last, out)) return true;
      call.result = call.scratch;
      return false;
  }
}

// fast_dput (fs/dcache.c, 3.13+): ret = lockref_put_return(); if (ret < 0) { spin_lock;
// count--; ... spin_unlock; }. lockref_put_return is CMPXCHG_LOOP(new.count--; if (old.count <= 0)
// return -1;) and returns -1 too when the lock is held or the loop gave up.
bool Lockref::put_return(CpuId cpu, SyncCall& call, std::uint64_t last, Op& out) {
  enum : std::uint32_t { kPLoad = 0, kPLoaded, kPCas, kPLock, kPLocked, kPUnlock };
  const auto count = [](std::uint64_t w) { return w & kCountMask; };
  // scratch: the word the cmpxchg expects, then the count to report; result: failed attempts so far.
  switch (call.step) {
    case kPLoad:
      out = word_.load();
      call.step = kPLoaded;
      return true;
    case kPCas:
      if (last == call.scratch) {
        call.result = count(last) - 1;
        return false;
      }
      ++stats_.retries;
      ++call.result;
      [[fallthrough]];
    case kPLoaded: {
      const std::uint64_t v = last;
      if (lock_.is_unlocked(v) && count(v) > 0 && call.result < kRetryLimit) {
        call.scratch = v;
        out = word_.cas(v, (v & ~kCountMask) | (count(v) - 1));
        call.step = kPCas;
        return true;
      }
      ++stats_.fallbacks;
      call.step = kPLock;
      last = 0;
      [[fallthrough]];
    }
    case kPLock:
      if (step_nested(lock_, SyncAction::kAcquire, cpu, call, last, out)) return true;
      out = word_.load();  // the count, a hit: the lock's RMW just took the line
      call.step = kPLocked;
      return true;
    case kPLocked: {
      const std::uint64_t c = count(last);
      call.scratch = c > 0 ? c - 1 : 0;
      out = word_.store(call.scratch, kCountMask);
      call.step = kPUnlock;
      return true;
    }
    default:
      if (step_nested(lock_, SyncAction::kRelease, cpu, call, last, out)) return true;
      call.result = call.scratch;
      return false;
  }
}

}  // namespace walksim::sync
