// The x86 ticket spinlock of Linux 2.6.25-4.1: acquire is one locked xadd on the tail, then the
// waiter reads the head until it shows its ticket; release is a plain (unlocked) increment of the
// head. Every waiter spins on the same line, so each release and each new arrival makes all of
// them re-read it: this is the lock whose throughput collapses under contention.
#pragma once

#include "models/sync/sync_primitive.hpp"

namespace walksim::sync {

// Where head and tail sit in the line's 64-bit word, so that a ticket lock can share its word with
// other fields (a seqlock's sequence, a lockref's count). The tail lies just above the head and
// must end at bit 63, so that a tail wrapping around carries out of the word, not into a field.
struct TicketLayout {
  unsigned shift = 0;  // lowest bit of the head
  unsigned bits = 32;  // width of the head and of the tail
};

class TicketSpinlock final : public SyncPrimitive {
 public:
  explicit TicketSpinlock(SyncWord word, TicketLayout layout = {});

  std::string_view kind() const override { return "ticket"; }
  bool steps_are_own() const override { return true; }
  bool supports(SyncAction a) const override { return a == SyncAction::kAcquire || a == SyncAction::kRelease; }

  LineId line() const { return word_.line; }
  const SyncWord& word() const { return word_; }
  std::uint64_t head(std::uint64_t word) const { return (word >> layout_.shift) & field_mask_; }
  std::uint64_t tail(std::uint64_t word) const { return (word >> (layout_.shift + layout_.bits)) & field_mask_; }
  bool is_unlocked(std::uint64_t word) const { return head(word) == tail(word); }
  std::uint64_t lock_mask() const {
    return (field_mask_ << layout_.shift) | (field_mask_ << (layout_.shift + layout_.bits));
  }

 protected:
  bool do_step(SyncAction action, CpuId cpu, SyncCall& call, std::uint64_t last, Op& out) override;

 private:
  SyncWord word_;
  TicketLayout layout_;
  std::uint64_t field_mask_;
  std::uint64_t head_mask_;  // the head field in place
  // The holder's ticket. Only one CPU holds the lock at a time, so the lock itself can remember
  // it; the release then stores head + 1 without reading the line first, like `incb`.
  std::uint64_t held_ = 0;
};

}  // namespace walksim::sync
