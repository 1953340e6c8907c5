// rwlock read and write paths as ops, following arch/x86/lib/rwlock_64.S (__read_lock_failed,
// __write_lock_failed) of 2.6.35.
#include "models/sync/rwlock.hpp"

namespace walksim::sync {

bool RwLock::do_step(SyncAction action, CpuId, SyncCall& call, std::uint64_t last, Op& out) {
  // scratch bit 0: this call has waited.
  switch (action) {
    case SyncAction::kReadAcquire:
      switch (call.step) {
        case 0:  // lock subl $1
          out = word_.rmw_add(1);
          call.step = 1;
          return true;
        case 1:
          if ((last & kWriterMask) == 0) {
            ++stats_.acquisitions;
            stats_.contended += call.scratch;
            call.result = call.scratch;
            return false;
          }
          call.scratch = 1;
          out = word_.rmw_add(~std::uint64_t{0});  // undo: lock incl
          call.step = 2;
          return true;
        case 2:  // wait until no writer holds or tries
          out = word_.spin_until(0, kWriterMask);
          call.step = 3;
          return true;
        default:  // retry: lock decl
          out = word_.rmw_add(1);
          call.step = 1;
          return true;
      }
    case SyncAction::kReadRelease:
      if (call.step == 0) {
        out = word_.rmw_add(~std::uint64_t{0});
        call.step = 1;
        return true;
      }
      return false;
    case SyncAction::kAcquire:
      switch (call.step) {
        case 0:  // lock subl $RW_LOCK_BIAS
          out = word_.rmw_add(kWriter);
          call.step = 1;
          return true;
        case 1:
          if (last == 0) {
            ++stats_.acquisitions;
            stats_.contended += call.scratch;
            call.result = call.scratch;
            return false;
          }
          call.scratch = 1;
          out = word_.rmw_add(std::uint64_t{0} - kWriter);  // undo: lock addl $RW_LOCK_BIAS
          call.step = 2;
          return true;
        case 2:  // wait until idle
          out = word_.spin_until(0);
          call.step = 3;
          return true;
        default:
          out = word_.rmw_add(kWriter);
          call.step = 1;
          return true;
      }
    case SyncAction::kRelease:
      if (call.step == 0) {  // lock addl $RW_LOCK_BIAS
        out = word_.rmw_add(std::uint64_t{0} - kWriter);
        call.step = 1;
        return true;
      }
      return false;
    default:
      unsupported(action);
  }
}

}  // namespace walksim::sync
