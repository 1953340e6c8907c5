// The run-control bookkeeping every workload shares.
#include "models/workload/workload.hpp"

namespace walksim::workload {

bool CountingSource::next(Syscall& out) {
  if (cancel_ && cancel_->load(std::memory_order_relaxed)) throw RunCancelled();
  if (next_call(out)) return true;
  if (window_) window_->finished(index_);
  return false;
}

bool CountingSource::next_call(Syscall& out) {
  if (control_.ops_per_process && measured_.total_ops >= control_.ops_per_process) return false;
  if (now_ >= control_.end) return false;
  return produce(out);
}

void CountingSource::completed(const Syscall& call, bool failed, Picos now) {
  now_ = now;
  ++calls_done_;
  const bool warm = measured_.total_ops >= control_.warmup_ops && now >= control_.warmup_end;
  if (warm && !warm_noted_) {
    // A warm-up that ends by time ends inside this call, which is measured: its own accesses
    // before this point are left out of the breakdown (one call per process).
    warm_noted_ = true;
    if (on_warm_) on_warm_();
  }
  if (warm) {
    if (measured_.first == sim::kNever) measured_.first = control_.warmup_ops ? measured_.warm_at : control_.warmup_end;
    ++measured_.calls;
    if (failed) ++measured_.failed;
    if (call.sys == kernel::Sys::kRead || call.sys == kernel::Sys::kPread || call.sys == kernel::Sys::kWrite ||
        call.sys == kernel::Sys::kPwrite) {
      measured_.bytes += call.bytes;
      if (now <= control_.end) measured_.bytes_by_end += call.bytes;
    }
  }
  if (call.ends_op) {
    ++measured_.total_ops;
    if (measured_.total_ops == control_.warmup_ops) measured_.warm_at = now;
    if (!warm_noted_ && measured_.total_ops >= control_.warmup_ops && now >= control_.warmup_end) {
      warm_noted_ = true;  // the next call is the first measured one
      if (on_warm_) on_warm_();
    }
    if (warm) {
      ++measured_.ops;
      if (now <= control_.end) ++measured_.ops_by_end;
      measured_.last = now;
      if (window_) window_->op(index_, now, measured_.first);
    }
  }
}

}  // namespace walksim::workload
