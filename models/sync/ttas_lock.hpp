// The test-and-test-and-set lock of the SSYNC study (libslock `ttas.c`, "TTAS"): wait reading until
// the lock looks free, then cmpxchg 0 -> 1; a failed cmpxchg backs off for a random number of cycles
// below a limit that starts at 1 and doubles on each failure up to 1000 (MAX_DELAY), and is never
// reset. Release is a plain store of 0. Waiters read-share the line while the lock is held, so a
// release wakes them all and they race with RMWs: fewer transfers than TAS, more than a queue lock.
#pragma once

#include <vector>

#include "models/sync/sync_primitive.hpp"
#include "sim/rng.hpp"

namespace walksim::sync {

// Not modelled: libslock's Opteron build spins with PREFETCHW (a request for ownership per spin)
// rather than plain reads; here a waiter parks on the line and re-reads it when it is written.
// The back-off draws come from a generator per CPU with a fixed seed, so runs are deterministic
// and independent of the run's seed, as a lock's own xorshift is of the experiment's.
class TtasLock final : public SyncPrimitive {
 public:
  // `cpus`: how many CPUs may take it (each keeps its own back-off limit, as libslock's `limits`
  // array per thread and lock does); `cycle`: one CPU cycle (0: no back-off delay at all).
  TtasLock(SyncWord word, std::uint32_t cpus, Picos cycle);
  std::string_view kind() const override { return "ttas"; }
  bool supports(SyncAction a) const override { return a == SyncAction::kAcquire || a == SyncAction::kRelease; }

  static constexpr std::uint32_t kMaxDelayCycles = 1000;  // ttas.h MAX_DELAY

 protected:
  bool do_step(SyncAction action, CpuId cpu, SyncCall& call, std::uint64_t last, Op& out) override;

 private:
  SyncWord word_;
  Picos cycle_;
  std::vector<std::uint32_t> limit_;  // per CPU, in cycles
  std::vector<sim::Rng> rng_;         // per CPU
};

}  // namespace walksim::sync
