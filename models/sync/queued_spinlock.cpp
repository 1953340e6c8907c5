// queued_spin_lock / queued_spin_unlock as ops; see queued_spinlock.hpp.
#include "models/sync/queued_spinlock.hpp"

#include <stdexcept>
#include <string>

namespace walksim::sync {

namespace {
enum Step : std::uint32_t {
  kFast = 0,       // cmpxchg(0 -> locked)
  kFastResult,     // -> done, or trylock-or-pending with the value seen
  kPendingResult,  // the trylock-or-pending cmpxchg came back
  kPendingLocked,  // pending is ours and the owner has left: clear pending, set locked (a store)
  kQueue,          // reset our node
  kReadTail,       // xchg_tail, first the read
  kTailResult,     // the tail cmpxchg came back
  kWaitNode,       // we have a predecessor: wait on our own node
  kWaitHead,       // we are the head: wait until locked and pending are clear
  kHeadResult,     // the head's cmpxchg (take the lock and empty the queue) came back
  kWaitNext,       // set_locked done: wait for our successor to link in
  kHandOff,        // make the successor the head
  kDone,
};
}  // namespace

QueuedSpinlock::QueuedSpinlock(SyncWord lock, std::span<const LineId> nodes)
    : lock_(lock), nodes_(nodes.begin(), nodes.end()) {
  if (nodes_.empty()) throw std::invalid_argument("queued lock needs one node line per CPU");
}

bool QueuedSpinlock::do_step(SyncAction action, CpuId cpu, SyncCall& call, std::uint64_t last, Op& out) {
  if (cpu >= nodes_.size()) throw std::out_of_range("queued lock has no node for cpu " + std::to_string(cpu));
  if (action == SyncAction::kRelease) {
    if (call.step == 0) {
      out = lock_.store(0, kLockedMask);  // smp_store_release(&lock->locked, 0)
      call.step = kDone;
      return true;
    }
    return false;
  }
  if (action != SyncAction::kAcquire) unsupported(action);

  const std::uint64_t me = std::uint64_t{cpu} + 1;
  const LineId node = nodes_[cpu];
  const auto acquired = [&](std::uint64_t waited) {
    ++stats_.acquisitions;
    stats_.contended += waited;
    call.result = waited;
    return false;
  };
  // Trylock or pending (4.2): with nobody else waiting, take a free lock or set pending on a held
  // one; with any other contention, queue. scratch = the value the cmpxchg expects.
  const auto trylock_or_pending = [&](std::uint64_t val) {
    if (val & ~kLockedMask) {
      out = Op::store(node, 0);  // node->locked = 0; node->next = NULL
      call.step = kReadTail;
      return true;
    }
    call.scratch = val;
    out = lock_.cas(val, val == 0 ? kLocked : kLocked | kPending);
    call.step = kPendingResult;
    return true;
  };
  // The queue head once locked and pending are clear: if nobody queued behind, take the lock and
  // empty the queue in one cmpxchg; otherwise set the locked byte and hand the head role on.
  const auto head_take = [&](std::uint64_t val) {
    if ((val >> kTailShift) == me) {
      call.scratch = val;
      out = lock_.cas(val, kLocked);
      call.step = kHeadResult;
    } else {
      out = lock_.store(kLocked, kLockedMask);  // set_locked
      call.step = kWaitNext;
    }
    return true;
  };

  switch (call.step) {
    case kFast:
      out = lock_.cas(0, kLocked);
      call.step = kFastResult;
      return true;
    case kFastResult:
      if (last == 0) return acquired(0);
      return trylock_or_pending(last);
    case kPendingResult:
      if (last != call.scratch) {
        ++stats_.retries;
        return trylock_or_pending(last);
      }
      if (call.scratch == 0) return acquired(0);  // the trylock won
      out = lock_.spin_until(0, kLockedMask);     // pending is ours: wait for the owner
      call.step = kPendingLocked;
      return true;
    case kPendingLocked:
      out = lock_.store(kLocked, kLockedPendingMask);  // clear_pending_set_locked
      call.step = kDone;
      return true;
    case kReadTail:
      // xchg_tail: one xchg of the 16-bit tail field (x86 kernels with fewer than 16K CPUs).
      out = Op::xchg(lock_.line, me << kTailShift, ~kLockedPendingMask).on_word(lock_.id);
      call.step = kTailResult;
      return true;
    case kTailResult: {
      const std::uint64_t prev = last >> kTailShift;
      if (prev != 0) {  // prev->next = node
        out = Op::store(nodes_.at(static_cast<std::size_t>(prev - 1)), kHasNext | (std::uint64_t{cpu} << 32),
                        kHasNext | kNextMask);
        call.step = kWaitNode;
        return true;
      }
      out = lock_.spin_until(0, kLockedPendingMask);
      call.step = kHeadResult;
      call.scratch = ~std::uint64_t{0};
      return true;
    }
    case kWaitNode:
      out = Op::spin_until(node, kGranted, kGranted);
      call.step = kWaitHead;
      return true;
    case kWaitHead:
      out = lock_.spin_until(0, kLockedPendingMask);
      call.step = kHeadResult;
      call.scratch = ~std::uint64_t{0};
      return true;
    case kHeadResult:
      if (call.scratch != ~std::uint64_t{0}) {  // the head's cmpxchg came back
        if (last == call.scratch) return acquired(1);
        ++stats_.retries;  // someone queued behind us meanwhile
      }
      return head_take(last);
    case kWaitNext:
      out = Op::spin_until(node, kHasNext, kHasNext);
      call.step = kHandOff;
      return true;
    case kHandOff:
      out = Op::store(nodes_.at(static_cast<std::size_t>(last >> 32)), kGranted, kGranted);
      call.step = kDone;
      return true;
    default:
      return acquired(1);
  }
}

}  // namespace walksim::sync
