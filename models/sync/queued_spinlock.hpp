// The MCS queued spinlock (the queueing core of Linux's qspinlock, 4.2+): a waiter swaps itself
// into the tail with one xchg, links itself into its predecessor's node, and spins on its own
// node's line; the release writes only the successor's node. A hand-off therefore moves a
// constant number of lines however many CPUs wait, which is why it does not collapse.
#pragma once

#include <span>
#include <vector>

#include "models/sync/sync_primitive.hpp"

namespace walksim::sync {

// Not modelled: qspinlock's locked/pending bytes (its fast path is one cmpxchg, the uncontended
// release one store, where classic MCS takes an xchg and a cmpxchg) and its per-CPU node array
// shared by all locks. Here each lock has its node lines; they may be shared between locks only
// when no CPU ever holds two of those locks at once (a holder's node stays in use until release).
class QueuedSpinlock final : public SyncPrimitive {
 public:
  // `tail` holds the last waiter (CPU + 1, 0 when free); `nodes` has one line per CPU.
  QueuedSpinlock(LineId tail, std::span<const LineId> nodes);

  std::string_view kind() const override { return "mcs"; }
  bool supports(SyncAction a) const override { return a == SyncAction::kAcquire || a == SyncAction::kRelease; }

  // Node word: bit 0 = the lock was handed to this node, bit 1 = a successor linked itself in,
  // bits 32..63 = that successor's CPU.
  static constexpr std::uint64_t kGranted = 1;
  static constexpr std::uint64_t kHasNext = 2;
  static constexpr std::uint64_t kNextMask = 0xffffffff00000000ULL;

 protected:
  bool do_step(SyncAction action, CpuId cpu, SyncCall& call, std::uint64_t last, Op& out) override;

 private:
  LineId tail_;
  std::vector<LineId> nodes_;
};

}  // namespace walksim::sync
