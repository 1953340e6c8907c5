// The RCU read side and call_rcu (TREE_RCU, !CONFIG_PREEMPT). rcu_read_lock/unlock compile to
// nothing, so they issue no op at all; call_rcu queues a callback on the calling CPU's own list:
// a little private work, and a free that happens later (counted, not simulated).
#pragma once

#include "models/sync/sync_primitive.hpp"

namespace walksim::sync {

class Rcu final : public SyncPrimitive {
 public:
  // `callback_cost`: the CPU time of one call_rcu (irq save, append to the per-CPU list).
  explicit Rcu(Picos callback_cost) : cost_(callback_cost) {}

  std::string_view kind() const override { return "rcu"; }
  bool steps_are_own() const override { return true; }
  bool supports(SyncAction a) const override {
    return a == SyncAction::kReadAcquire || a == SyncAction::kReadRelease || a == SyncAction::kCallRcu;
  }

 protected:
  bool do_step(SyncAction action, CpuId cpu, SyncCall& call, std::uint64_t last, Op& out) override;

 private:
  Picos cost_;
};

}  // namespace walksim::sync
