// The think / acquire / hold / release loop; see lock_loop.hpp.
#include "models/sync/lock_loop.hpp"

#include <cmath>

namespace walksim::sync {

LockLoop::LockLoop(SyncPrimitive& lock, CpuId cpu, const LockLoopParams& params, LockLoopTally* tally)
    : lock_(lock), cpu_(cpu), p_(params), tally_(tally), rng_(params.seed * 0x9e3779b97f4a7c15ULL + cpu) {}

Picos LockLoop::draw_think() {
  if (!p_.random_think || p_.think <= 0) return p_.think;
  const double u = rng_.uniform();
  return static_cast<Picos>(std::llround(-std::log1p(-u) * static_cast<double>(p_.think)));
}

bool LockLoop::next(std::uint64_t last, Op& out) {
  while (true) {
    switch (phase_) {
      case Phase::kThink: {
        if (completed_ == p_.iterations) {
          if (tally_ && !tally_->first_finished) {
            tally_->first_finished = cpu_;
            tally_->at_first_finish = tally_->acquisitions;
          }
          return false;
        }
        phase_ = Phase::kAcquire;
        const Picos t = draw_think();
        think_total_ += t;
        ++thinks_;
        if (t > 0) {
          out = Op::compute(t);
          return true;
        }
        break;
      }
      case Phase::kAcquire:
        if (lock_.step(p_.acquire, cpu_, call_, last, out)) return true;
        contended_ += call_.result;
        if (tally_) ++tally_->acquisitions;
        phase_ = p_.counter ? Phase::kCounterLoad : Phase::kHold;
        break;
      case Phase::kCounterLoad:
        out = Op::load(*p_.counter);
        phase_ = Phase::kCounterStore;
        return true;
      case Phase::kCounterStore:
        out = Op::store(*p_.counter, last + 1);
        phase_ = Phase::kHold;
        return true;
      case Phase::kHold:
        phase_ = Phase::kRelease;
        if (p_.hold > 0) {
          out = Op::compute(p_.hold);
          return true;
        }
        break;
      case Phase::kRelease:
        if (lock_.step(p_.release, cpu_, call_, last, out)) return true;
        ++completed_;
        phase_ = Phase::kThink;
        break;
    }
  }
}

}  // namespace walksim::sync
