// SSYNC's test-and-set acquire and release as ops; see tas_xchg_lock.hpp.
#include "models/sync/tas_xchg_lock.hpp"

namespace walksim::sync {

namespace {
enum Step : std::uint32_t { kXchg = 0, kResult, kPaused };
}  // namespace

bool TasXchgLock::do_step(SyncAction action, CpuId, SyncCall& call, std::uint64_t last, Op& out) {
  if (action == SyncAction::kRelease) {
    if (call.step == 0) {
      out = word_.store(0);
      call.step = 1;
      return true;
    }
    return false;
  }
  if (action != SyncAction::kAcquire) unsupported(action);
  switch (call.step) {
    case kXchg:
    case kPaused:
      out = word_.xchg(1);
      call.step = kResult;
      return true;
    default:
      if (last == 0) {
        ++stats_.acquisitions;
        stats_.contended += call.scratch;
        call.result = call.scratch;
        return false;
      }
      ++stats_.retries;
      call.scratch = 1;
      if (pause_ > 0) {
        out = Op::compute(pause_);
        call.step = kPaused;
        return true;
      }
      out = word_.xchg(1);
      call.step = kResult;
      return true;
  }
}

}  // namespace walksim::sync
