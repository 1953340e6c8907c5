// The x86 rwlock of Linux 2.6.35 (fs_struct->lock): read_lock is one `lock subl`, read_unlock one
// `lock incl`, write_lock one `lock subl $RW_LOCK_BIAS` that succeeds only on an idle lock. A
// failed attempt undoes itself with a second RMW and spins reading the word until a retry can
// succeed. Readers of a busy-but-unwritten lock still bounce its line: two RMWs per read section.
#pragma once

#include "models/sync/sync_primitive.hpp"

namespace walksim::sync {

// The word counts readers in its low half and writers holding or attempting in its high half.
// This is the kernel's RW_LOCK_BIAS encoding shifted to start at zero (lock = BIAS - readers -
// BIAS * writers), so every RMW and every wait condition is the kernel's, but a wait condition is
// an equality on a mask ("no writer": high half zero; "idle": word zero) that a spin-wait can test.
class RwLock final : public SyncPrimitive {
 public:
  explicit RwLock(SyncWord word) : word_(word) {}

  std::string_view kind() const override { return "rwlock"; }
  bool steps_are_own() const override { return true; }
  bool supports(SyncAction a) const override {
    return a == SyncAction::kAcquire || a == SyncAction::kRelease || a == SyncAction::kReadAcquire ||
           a == SyncAction::kReadRelease;
  }

  static constexpr std::uint64_t kWriter = std::uint64_t{1} << 32;
  static constexpr std::uint64_t kWriterMask = 0xffffffff00000000ULL;

 protected:
  bool do_step(SyncAction action, CpuId cpu, SyncCall& call, std::uint64_t last, Op& out) override;

 private:
  SyncWord word_;
};

}  // namespace walksim::sync
