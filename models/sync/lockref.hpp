// lockref (Linux 3.12+: d_lockref): a reference count and a spinlock in one 64-bit word. get and
// put are a load and a cmpxchg loop on the whole word while the lock is free, so a reference
// costs one RMW and never spins; when the lock is held (or, for put, when the count would reach
// zero) they fall back to taking the spinlock and updating the count under it.
#pragma once

#include "models/sync/ticket_spinlock.hpp"

namespace walksim::sync {

// The count is the low 32 bits; the embedded ticket lock's head and tail are bits 32..47 and
// 48..63 (the x86 layout before qspinlock). kAcquire/kRelease take and drop the embedded lock
// (spin_lock(&dentry->d_lock)).
class Lockref final : public SyncPrimitive {
 public:
  explicit Lockref(SyncWord word) : word_(word), lock_(word, TicketLayout{32, 16}) {}

  std::string_view kind() const override { return "lockref"; }
  bool steps_are_own() const override { return true; }
  bool supports(SyncAction a) const override {
    return a == SyncAction::kLockrefGet || a == SyncAction::kLockrefPut || a == SyncAction::kLockrefPutReturn ||
           a == SyncAction::kAcquire || a == SyncAction::kRelease;
  }

  const TicketSpinlock& lock() const { return lock_; }

  static constexpr std::uint64_t kCountMask = 0xffffffffULL;
  static constexpr std::uint64_t kRetryLimit = 100;  // CMPXCHG_LOOP gives up after 100 failures

 protected:
  bool do_step(SyncAction action, CpuId cpu, SyncCall& call, std::uint64_t last, Op& out) override;

 private:
  bool put_return(CpuId cpu, SyncCall& call, std::uint64_t last, Op& out);
  SyncWord word_;
  TicketSpinlock lock_;
};

}  // namespace walksim::sync
