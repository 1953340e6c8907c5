// seqcount_t: readers load the sequence before and after their reads and retry when it changed or
// was odd; they store nothing, so any number of readers share the line. A writer (serialised by a
// lock of its own, such as d_lock for d_seq) stores seq+1 before and after its update, and each of
// those stores makes every concurrent reader's copy stale.
#pragma once

#include "models/sync/sync_primitive.hpp"

namespace walksim::sync {

class Seqcount final : public SyncPrimitive {
 public:
  explicit Seqcount(SyncWord word) : word_(word) {}

  std::string_view kind() const override { return "seqcount"; }
  bool steps_are_own() const override { return true; }
  bool supports(SyncAction a) const override {
    return a == SyncAction::kSeqReadBegin || a == SyncAction::kSeqReadRetry || a == SyncAction::kWriteBegin ||
           a == SyncAction::kWriteEnd;
  }

  // The sequence lives in the low 32 bits (an `unsigned`); the rest of the word is left alone.
  static constexpr std::uint64_t kSeqMask = 0xffffffffULL;

 protected:
  bool do_step(SyncAction action, CpuId cpu, SyncCall& call, std::uint64_t last, Op& out) override;

 private:
  SyncWord word_;
  // Writers are serialised, so the primitive knows the sequence and a write is one store (the
  // kernel's non-atomic `s->sequence++` costs one ownership request, not a read and then a write).
  std::uint64_t seq_ = 0;
};

// The reader and writer steps shared by Seqcount and Seqlock.
namespace seq {
// read_seqcount_begin: spin while odd (a loop of loads). Returns true with an op, false when done.
bool read_begin(const SyncWord& word, SyncCall& call, std::uint64_t last, Op& out);
// read_seqcount_retry(arg): one load and a compare; result 1 means retry.
bool read_retry(const SyncWord& word, SyncCall& call, std::uint64_t last, Op& out, SyncStats& stats);
}  // namespace seq

}  // namespace walksim::sync
