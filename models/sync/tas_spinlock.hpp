// The x86 spinlock before ticket locks (to 2.6.24): `lock decb` on the lock byte; if the lock was
// taken, spin reading it until it looks free, then try again; release is a plain store. Unfair:
// the releasing CPU, which still holds the line, usually wins the lock back, so the line moves
// between CPUs far less often than a ticket lock's does under contention.
#pragma once

#include "models/sync/sync_primitive.hpp"

namespace walksim::sync {

// The word holds 1 - slock (lines start at zero): 0 free, >= 1 taken (each failed decb adds one).
class TasSpinlock final : public SyncPrimitive {
 public:
  explicit TasSpinlock(SyncWord word) : word_(word) {}
  std::string_view kind() const override { return "decb"; }
  bool steps_are_own() const override { return true; }
  bool supports(SyncAction a) const override { return a == SyncAction::kAcquire || a == SyncAction::kRelease; }

 protected:
  bool do_step(SyncAction action, CpuId cpu, SyncCall& call, std::uint64_t last, Op& out) override;

 private:
  SyncWord word_;
};

}  // namespace walksim::sync
