// write_seqlock = spin_lock + seq++; write_sequnlock = seq++ + spin_unlock; reads as seqcount.
#include "models/sync/seqlock.hpp"

namespace walksim::sync {

Seqlock::Seqlock(SyncWord word) : word_(word), lock_(word, TicketLayout{32, 16}) {}

bool Seqlock::do_step(SyncAction action, CpuId cpu, SyncCall& call, std::uint64_t last, Op& out) {
  switch (action) {
    case SyncAction::kSeqReadBegin:
      return seq::read_begin(word_, call, last, out);
    case SyncAction::kSeqReadRetry:
      return seq::read_retry(word_, call, last, out, stats_);
    case SyncAction::kWriteBegin:
      if (call.step == 0) {
        std::uint64_t waited = 0;
        if (step_nested(lock_, SyncAction::kAcquire, cpu, call, last, out, &waited)) return true;
        ++stats_.acquisitions;
        stats_.contended += waited;
        seq_ = (seq_ + 1) & Seqcount::kSeqMask;
        out = word_.store(seq_, Seqcount::kSeqMask);
        call.step = 1;
        return true;
      }
      call.result = seq_;
      return false;
    case SyncAction::kWriteEnd:
      if (call.step == 0) {
        seq_ = (seq_ + 1) & Seqcount::kSeqMask;
        out = word_.store(seq_, Seqcount::kSeqMask);
        call.step = 1;
        return true;
      }
      if (call.step == 1) {
        if (step_nested(lock_, SyncAction::kRelease, cpu, call, last, out)) return true;
      }
      call.result = seq_;
      return false;
    default:
      unsupported(action);
  }
}

}  // namespace walksim::sync
