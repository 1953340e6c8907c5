// seqlock_t (rename_lock, and fs_struct in 2.6.38): a seqcount whose writers take an embedded
// ticket spinlock. Both live in one word of one line, as the kernel's 8-byte struct does, so a
// writer's xadd on the spinlock also disturbs readers spinning on the sequence.
#pragma once

#include "models/sync/seqcount.hpp"
#include "models/sync/ticket_spinlock.hpp"

namespace walksim::sync {

class Seqlock final : public SyncPrimitive {
 public:
  explicit Seqlock(SyncWord word);

  std::string_view kind() const override { return "seqlock"; }
  bool steps_are_own() const override { return true; }
  bool supports(SyncAction a) const override {
    return a == SyncAction::kSeqReadBegin || a == SyncAction::kSeqReadRetry || a == SyncAction::kWriteBegin ||
           a == SyncAction::kWriteEnd;
  }

  const TicketSpinlock& lock() const { return lock_; }

 protected:
  bool do_step(SyncAction action, CpuId cpu, SyncCall& call, std::uint64_t last, Op& out) override;

 private:
  SyncWord word_;
  TicketSpinlock lock_;  // head in bits 32..47, tail in 48..63; the sequence in bits 0..31
  std::uint64_t seq_ = 0;
};

}  // namespace walksim::sync
