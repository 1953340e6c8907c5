// seqcount reads (loads only) and writes (two stores); see seqcount.hpp.
#include "models/sync/seqcount.hpp"

namespace walksim::sync {

namespace seq {

bool read_begin(const SyncWord& word, SyncCall& call, std::uint64_t last, Op& out) {
  if (call.step == 0) {
    out = word.spin_until(0, 1);  // wait for an even sequence
    call.step = 1;
    return true;
  }
  call.result = last & Seqcount::kSeqMask;
  return false;
}

bool read_retry(const SyncWord& word, SyncCall& call, std::uint64_t last, Op& out, SyncStats& stats) {
  if (call.step == 0) {
    out = word.load();  // smp_rmb() is a compiler barrier on x86
    call.step = 1;
    return true;
  }
  call.result = (last & Seqcount::kSeqMask) != (call.arg & Seqcount::kSeqMask) ? 1 : 0;
  stats.retries += call.result;
  return false;
}

}  // namespace seq

bool Seqcount::do_step(SyncAction action, CpuId, SyncCall& call, std::uint64_t last, Op& out) {
  switch (action) {
    case SyncAction::kSeqReadBegin:
      return seq::read_begin(word_, call, last, out);
    case SyncAction::kSeqReadRetry:
      return seq::read_retry(word_, call, last, out, stats_);
    case SyncAction::kWriteBegin:
    case SyncAction::kWriteEnd:
      if (call.step == 0) {
        seq_ = (seq_ + 1) & kSeqMask;
        out = word_.store(seq_, kSeqMask);
        call.step = 1;
        return true;
      }
      call.result = seq_;
      return false;
    default:
      unsupported(action);
  }
}

}  // namespace walksim::sync
