// rcu_read_lock/unlock: no ops. call_rcu: private compute and a deferred-free count.
#include "models/sync/rcu.hpp"

namespace walksim::sync {

bool Rcu::do_step(SyncAction action, CpuId, SyncCall& call, std::uint64_t, Op& out) {
  switch (action) {
    case SyncAction::kReadAcquire:
    case SyncAction::kReadRelease:
      return false;
    case SyncAction::kCallRcu:
      if (call.step == 0 && cost_ > 0) {
        out = Op::compute(cost_);
        call.step = 1;
        return true;
      }
      ++stats_.deferred_frees;
      return false;
    default:
      unsupported(action);
  }
}

}  // namespace walksim::sync
