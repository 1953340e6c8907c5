// Counter operations as ops; atomic_dec_and_lock follows lib/dec_and_lock.c of 2.6.35.
#include "models/sync/atomic_counter.hpp"

#include <stdexcept>

namespace walksim::sync {

namespace {
constexpr std::uint64_t kMinusOne = ~std::uint64_t{0};
}

bool AtomicCounter::supports(SyncAction a) const {
  switch (a) {
    case SyncAction::kInc:
    case SyncAction::kDec:
    case SyncAction::kDecAndTest:
    case SyncAction::kAddUnless:
    case SyncAction::kRead:
      return true;
    case SyncAction::kDecAndLock:
      return lock_ != nullptr;
    default:
      return false;
  }
}

// Steps 0 (load) and 1 (cmpxchg, repeated with the value it returned). Leaves call.result = 1 if
// it added; scratch holds the value the cmpxchg expects.
bool AtomicCounter::add_unless(SyncCall& call, std::uint64_t amount, std::uint64_t unless, std::uint64_t last,
                               Op& out) {
  if (call.step == 0) {
    out = word_.load();
    call.step = 1;
    return true;
  }
  if (call.step == 2) {  // a cmpxchg came back
    if (last == call.scratch) {
      call.result = 1;
      return false;
    }
    ++stats_.retries;  // c = old; retry without reloading
  }
  const std::uint64_t c = last;
  if (c == unless) {
    call.result = 0;
    return false;
  }
  call.scratch = c;
  out = word_.cas(c, c + amount);
  call.step = 2;
  return true;
}

bool AtomicCounter::do_step(SyncAction action, CpuId cpu, SyncCall& call, std::uint64_t last, Op& out) {
  switch (action) {
    case SyncAction::kInc:
    case SyncAction::kDec:
    case SyncAction::kDecAndTest:
      if (call.step == 0) {
        out = word_.rmw_add(action == SyncAction::kInc ? 1 : kMinusOne);
        call.step = 1;
        return true;
      }
      call.result = action == SyncAction::kDecAndTest ? (last == 1 ? 1 : 0) : 0;
      return false;
    case SyncAction::kRead:
      if (call.step == 0) {
        out = word_.load();
        call.step = 1;
        return true;
      }
      call.result = last;
      return false;
    case SyncAction::kAddUnless:
      return add_unless(call, call.arg, call.arg2, last, out);
    case SyncAction::kDecAndLock:
      if (!lock_) unsupported(action);
      // Steps 0-2: add_unless(-1, 1). Step 3: spin_lock. Step 4: dec_and_test. Step 5: unlock if not zero.
      if (call.step < 3) {
        if (add_unless(call, kMinusOne, 1, last, out)) return true;
        if (call.result == 1) {  // decremented a count above one: no lock taken
          call.result = 0;
          return false;
        }
        call.step = 3;
        last = 0;
      }
      if (call.step == 3) {
        if (step_nested(*lock_, SyncAction::kAcquire, cpu, call, last, out)) return true;
        out = word_.rmw_add(kMinusOne);
        call.step = 4;
        return true;
      }
      if (call.step == 4) {
        if (last == 1) {  // reached zero: return with the lock held
          call.result = 1;
          return false;
        }
        call.step = 5;
        last = 0;
      }
      if (step_nested(*lock_, SyncAction::kRelease, cpu, call, last, out)) return true;
      call.result = 0;
      return false;
    default:
      unsupported(action);
  }
}

}  // namespace walksim::sync
