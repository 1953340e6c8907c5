// The queued spinlock of Linux 4.2+ (qspinlock), the MCS lock as the kernel uses it. The fast
// path is one cmpxchg and the release one plain store. A second contender sets a pending bit and
// spins on the lock word; further contenders queue with their CPU's MCS node: each spins on its
// own node's line, and only the head of the queue spins on the lock word. A hand-off therefore
// moves a constant number of lines however many CPUs wait, which is why it does not collapse.
#pragma once

#include <span>
#include <vector>

#include "models/sync/sync_primitive.hpp"

namespace walksim::sync {

// Follows kernel/locking/qspinlock.c of 4.2 (trylock-or-pending as a cmpxchg loop). Differences:
// xchg_tail is a load and a cmpxchg loop on the whole word (the kernel's variant for NR_CPUS >=
// 16K; the small-NR_CPUS one is a 16-bit xchg, one RMW either way), the bounded wait for a
// pending->locked hand-over is left out (such a contender queues at once), and there is one node
// per CPU (task context only; the kernel has four, for irq and NMI nesting).
class QueuedSpinlock final : public SyncPrimitive {
 public:
  // `nodes` has one line per CPU. A CPU uses its node only while it waits, so every queued lock
  // of a kernel may share the same node lines, as the kernel's per-CPU qnodes are shared.
  QueuedSpinlock(SyncWord lock, std::span<const LineId> nodes);

  std::string_view kind() const override { return "queued"; }
  bool supports(SyncAction a) const override { return a == SyncAction::kAcquire || a == SyncAction::kRelease; }

  // Lock word: bits 0..7 locked, 8..15 pending, 16.. the queue tail (CPU + 1, 0 when empty).
  static constexpr std::uint64_t kLocked = 1;
  static constexpr std::uint64_t kPending = 1 << 8;
  static constexpr std::uint64_t kLockedMask = 0xff;
  static constexpr std::uint64_t kLockedPendingMask = 0xffff;
  static constexpr unsigned kTailShift = 16;
  // Node word: bit 0 = this node is now the queue head, bit 1 = a successor linked itself in,
  // bits 32..63 = that successor's CPU.
  static constexpr std::uint64_t kGranted = 1;
  static constexpr std::uint64_t kHasNext = 2;
  static constexpr std::uint64_t kNextMask = 0xffffffff00000000ULL;

 protected:
  bool do_step(SyncAction action, CpuId cpu, SyncCall& call, std::uint64_t last, Op& out) override;

 private:
  SyncWord lock_;
  std::vector<LineId> nodes_;
};

}  // namespace walksim::sync
