// The lock microbenchmark of Boyd-Wickizer et al. (2012) as a Program: each CPU loops think ->
// acquire -> hold -> release. Think times may be exponential, as the Markov model assumes for
// arrivals. A tally shared by all loops records how many acquisitions had completed when the first
// loop finished, which gives a steady-state throughput without any loop running alone at the end.
#pragma once

#include <optional>

#include "models/exec/op.hpp"
#include "models/sync/sync_primitive.hpp"
#include "sim/rng.hpp"

namespace walksim::sync {

struct LockLoopParams {
  Picos think = 0;           // mean time from a release to the next acquire attempt
  bool random_think = true;  // exponential think times (Poisson arrivals), else exactly `think`
  Picos hold = 0;            // time inside the critical section
  std::uint64_t iterations = 0;
  SyncAction acquire = SyncAction::kAcquire;
  SyncAction release = SyncAction::kRelease;
  std::optional<LineId> counter;  // if set, the critical section also does a non-atomic ++ on it
  std::uint64_t seed = 1;
};

// Shared by the loops of one run. Programs are stepped in global time order, so the count read
// when the first loop finishes is the number of acquisitions completed by then.
struct LockLoopTally {
  std::uint64_t acquisitions = 0;
  std::uint64_t at_first_finish = 0;
  std::optional<CpuId> first_finished;
};

class LockLoop final : public exec::Program {
 public:
  LockLoop(SyncPrimitive& lock, CpuId cpu, const LockLoopParams& params, LockLoopTally* tally = nullptr);

  bool next(std::uint64_t last, Op& out) override;
  std::uint64_t completed() const { return completed_; }
  std::uint64_t contended() const { return contended_; }
  // The think times actually drawn, so a comparison with a model can use the realised mean.
  Picos think_total() const { return think_total_; }
  std::uint64_t thinks() const { return thinks_; }

 private:
  enum class Phase : std::uint8_t { kThink, kAcquire, kCounterLoad, kCounterStore, kHold, kRelease };
  Picos draw_think();

  SyncPrimitive& lock_;
  CpuId cpu_;
  LockLoopParams p_;
  LockLoopTally* tally_;
  sim::Rng rng_;
  Phase phase_ = Phase::kThink;
  SyncCall call_;
  std::uint64_t completed_ = 0;
  std::uint64_t contended_ = 0;
  Picos think_total_ = 0;
  std::uint64_t thinks_ = 0;
};

}  // namespace walksim::sync
