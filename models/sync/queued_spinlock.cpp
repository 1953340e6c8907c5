// MCS acquire and release as ops; see queued_spinlock.hpp.
#include "models/sync/queued_spinlock.hpp"

#include <stdexcept>
#include <string>

namespace walksim::sync {

QueuedSpinlock::QueuedSpinlock(LineId tail, std::span<const LineId> nodes) : tail_(tail), nodes_(nodes.begin(), nodes.end()) {
  if (nodes_.empty()) throw std::invalid_argument("mcs lock needs one node line per CPU");
}

bool QueuedSpinlock::do_step(SyncAction action, CpuId cpu, SyncCall& call, std::uint64_t last, Op& out) {
  if (cpu >= nodes_.size()) throw std::out_of_range("mcs lock has no node for cpu " + std::to_string(cpu));
  const std::uint64_t me = std::uint64_t{cpu} + 1;
  auto grant_successor = [&](std::uint64_t node_word) {
    const auto next = static_cast<std::size_t>(node_word >> 32);
    out = Op::store(nodes_.at(next), kGranted, kGranted);
  };
  switch (action) {
    case SyncAction::kAcquire:
      switch (call.step) {
        case 0:  // node->locked = 0; node->next = NULL
          out = Op::store(nodes_[cpu], 0);
          call.step = 1;
          return true;
        case 1:  // prev = xchg(tail, node)
          out = Op::xchg(tail_, me);
          call.step = 2;
          return true;
        case 2:
          if (last == 0) {
            ++stats_.acquisitions;
            call.result = 0;
            return false;
          }
          ++stats_.contended;
          // prev->next = node
          out = Op::store(nodes_.at(static_cast<std::size_t>(last - 1)), kHasNext | (std::uint64_t{cpu} << 32),
                          kHasNext | kNextMask);
          call.step = 3;
          return true;
        case 3:
          out = Op::spin_until(nodes_[cpu], kGranted, kGranted);
          call.step = 4;
          return true;
        default:
          ++stats_.acquisitions;
          call.result = 1;
          return false;
      }
    case SyncAction::kRelease:
      switch (call.step) {
        case 0:
          out = Op::load(nodes_[cpu]);
          call.step = 1;
          return true;
        case 1:
          if (last & kHasNext) {
            grant_successor(last);
            call.step = 4;
            return true;
          }
          // No successor yet: try to swing the tail back to empty.
          out = Op::cas(tail_, me, 0);
          call.step = 2;
          return true;
        case 2:
          if (last == me) return false;
          // A successor swapped itself in but has not linked yet: wait for it.
          out = Op::spin_until(nodes_[cpu], kHasNext, kHasNext);
          call.step = 3;
          return true;
        case 3:
          grant_successor(last);
          call.step = 4;
          return true;
        default:
          return false;
      }
    default:
      unsupported(action);
  }
}

}  // namespace walksim::sync
