// The MCS queue lock (Mellor-Crummey and Scott 1991) as the SSYNC study ran it (libslock `mcs.c`):
// the lock word holds the queue's tail; acquire swaps itself in as the tail and, with a
// predecessor, links its node to it and spins on its own node; release hands the lock to the
// successor by a store to the successor's node, or, with none, swings the tail back to empty with
// a cmpxchg (waiting for a successor that is linking itself in when that fails). Each waiter spins
// on its own line, so a hand-off moves a constant number of lines however many wait.
#pragma once

#include <span>
#include <vector>

#include "models/sync/sync_primitive.hpp"

namespace walksim::sync {

// One node line per CPU, for this lock alone (libslock allocates a node per thread and lock, on the
// thread's node): a CPU's node stays in the queue from its acquire to its release, so two MCS locks
// held at once cannot share nodes the way the kernel's qspinlocks share their per-CPU nodes.
// Not modelled: the Opteron build's PREFETCHW and pause_rep(23) between the waiter's re-reads.
class McsLock final : public SyncPrimitive {
 public:
  McsLock(SyncWord lock, std::span<const LineId> nodes);
  std::string_view kind() const override { return "mcs"; }
  bool supports(SyncAction a) const override { return a == SyncAction::kAcquire || a == SyncAction::kRelease; }

  // Lock word: 0 free, else the tail's CPU + 1. Node word: bit 0 `waiting`, bit 1 a successor has
  // linked itself in, bits 32..63 that successor's CPU.
  static constexpr std::uint64_t kWaiting = 1;
  static constexpr std::uint64_t kHasNext = 2;
  static constexpr std::uint64_t kNextMask = 0xffffffff00000000ULL;

 protected:
  bool do_step(SyncAction action, CpuId cpu, SyncCall& call, std::uint64_t last, Op& out) override;

 private:
  SyncWord lock_;
  std::vector<LineId> nodes_;
};

}  // namespace walksim::sync
