// mcs_acquire / mcs_release as ops; see mcs_lock.hpp.
#include "models/sync/mcs_lock.hpp"

#include <stdexcept>
#include <string>

namespace walksim::sync {

namespace {
enum AcquireStep : std::uint32_t { kClearNext = 0, kSwap, kSwapped, kFence, kLink, kWait, kGranted };
enum ReleaseStep : std::uint32_t { kReadNode = 0, kNodeRead, kSwing, kWaitNext, kHandOff, kReleased };
}  // namespace

McsLock::McsLock(SyncWord lock, std::span<const LineId> nodes) : lock_(lock), nodes_(nodes.begin(), nodes.end()) {
  if (nodes_.empty()) throw std::invalid_argument("mcs lock needs one node line per CPU");
}

bool McsLock::do_step(SyncAction action, CpuId cpu, SyncCall& call, std::uint64_t last, Op& out) {
  if (cpu >= nodes_.size()) throw std::out_of_range("mcs lock has no node for cpu " + std::to_string(cpu));
  const std::uint64_t me = std::uint64_t{cpu} + 1;
  const LineId node = nodes_[cpu];
  const auto hand_off = [&](std::uint64_t node_word) {
    out = Op::store(nodes_.at(static_cast<std::size_t>(node_word >> 32)), 0, kWaiting);  // succ->waiting = 0
    call.step = kReleased;
    return true;
  };
  if (action == SyncAction::kAcquire) {
    switch (call.step) {
      case kClearNext:
        out = Op::store(node, 0, kHasNext | kNextMask);  // I->next = NULL
        call.step = kSwap;
        return true;
      case kSwap:
        out = lock_.xchg(me);  // pred = SWAP_PTR(L, I)
        call.step = kSwapped;
        return true;
      case kSwapped:
        if (last == 0) {  // the lock was free
          ++stats_.acquisitions;
          call.result = 0;
          return false;
        }
        call.scratch = last;                        // the predecessor's CPU + 1
        out = Op::store(node, kWaiting, kWaiting);  // I->waiting = 1
        call.step = kFence;
        return true;
      case kFence:  // MEM_BARRIER: libslock's mcs_acquire fences before it links itself in
        out = Op::fence();
        call.step = kLink;
        return true;
      case kLink:  // pred->next = I
        out = Op::store(nodes_.at(static_cast<std::size_t>(call.scratch - 1)), kHasNext | (std::uint64_t{cpu} << 32),
                        kHasNext | kNextMask);
        call.step = kWait;
        return true;
      case kWait:
        out = Op::spin_until(node, 0, kWaiting);  // while (I->waiting != 0)
        call.step = kGranted;
        return true;
      default:
        ++stats_.acquisitions;
        ++stats_.contended;
        call.result = 1;
        return false;
    }
  }
  if (action != SyncAction::kRelease) unsupported(action);
  switch (call.step) {
    case kReadNode:
      out = Op::load(node);  // succ = I->next
      call.step = kNodeRead;
      return true;
    case kNodeRead:
      if (last & kHasNext) return hand_off(last);
      out = lock_.cas(me, 0);  // no successor yet: try to empty the queue
      call.step = kSwing;
      return true;
    case kSwing:
      if (last == me) return false;  // nobody queued: the lock is free
      ++stats_.retries;              // someone swapped itself in: wait until it has linked itself to us
      out = Op::spin_until(node, kHasNext, kHasNext);
      call.step = kWaitNext;
      return true;
    case kWaitNext:
      return hand_off(last);
    default:
      return false;
  }
}

}  // namespace walksim::sync
