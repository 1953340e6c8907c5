// The test-and-set lock of the SSYNC study (libslock `spinlock.c`, "TAS"): acquire is an xchg of 1,
// retried after a PAUSE until it returns 0; release is a plain store of 0. Unlike the kernel's
// pre-2.6.25 lock (`tas`, which spins reading and only then retries its RMW), every waiter keeps
// issuing locked RMWs, so under contention the lock's line never stops moving between waiters and
// the holder's release queues behind them: the curve that collapses first in SSYNC's Fig. 5.
#pragma once

#include "models/sync/sync_primitive.hpp"

namespace walksim::sync {

// The word: 0 free, 1 held.
class TasXchgLock final : public SyncPrimitive {
 public:
  // `pause`: the time of the PAUSE between two attempts (0: none).
  TasXchgLock(SyncWord word, Picos pause) : word_(word), pause_(pause) {}
  std::string_view kind() const override { return "tas"; }
  bool supports(SyncAction a) const override { return a == SyncAction::kAcquire || a == SyncAction::kRelease; }

  // libslock's loop is `while (TAS_U8(l)) PAUSE;`. An estimate of 10 cycles for every machine:
  // InstLatX64 measures PAUSE at 2-4 cycles on K10 and 9 on Nehalem and Westmere
  // (docs/reference/instlat-locked-ops.md), and SSYNC Fig. 5's TAS rows move by at most 5% between
  // 2 and 10 cycles, so it is not made a machine parameter.
  static constexpr Picos kPauseCycles = 10;

 protected:
  bool do_step(SyncAction action, CpuId cpu, SyncCall& call, std::uint64_t last, Op& out) override;

 private:
  SyncWord word_;
  Picos pause_;
};

}  // namespace walksim::sync
