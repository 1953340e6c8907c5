// Test-and-set acquire and release as ops; see tas_spinlock.hpp.
#include "models/sync/tas_spinlock.hpp"

namespace walksim::sync {

bool TasSpinlock::do_step(SyncAction action, CpuId, SyncCall& call, std::uint64_t last, Op& out) {
  if (action != SyncAction::kAcquire && action != SyncAction::kRelease) unsupported(action);
  if (action == SyncAction::kRelease) {
    if (call.step == 0) {
      out = word_.store(0);  // movb $1, slock
      call.step = 1;
      return true;
    }
    call.step = 0;
    return false;
  }
  switch (call.step) {
    case 0:
    case 2:  // lock decb
      out = word_.rmw_add(1);
      call.step = 1;
      return true;
    case 1:
      if (last == 0) {  // it was free: ours
        ++stats_.acquisitions;
        if (call.scratch) ++stats_.contended;
        call.result = call.scratch ? 1 : 0;
        call.step = 0;
        call.scratch = 0;
        return false;
      }
      call.scratch = 1;
      out = word_.spin_until(0);  // rep;nop; cmpb $0, slock; jle
      call.step = 2;
      return true;
  }
  call.step = 0;
  return false;
}

}  // namespace walksim::sync
