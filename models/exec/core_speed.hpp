// How fast a hardware thread runs its own work: alone on its core, or sharing the core's pipeline
// with SMT siblings that run processes too, when its private work and cache hits take
// 1 / smt_throughput times as long (docs/model.md, "SMT"). Time stays in integer picoseconds,
// rounded to the nearest (halves up), so runs stay deterministic.
#pragma once

#include <cstdint>

#include "sim/time.hpp"

namespace walksim::exec {

class CoreSpeed {
 public:
  static constexpr sim::Picos kFull = 1'000'000;  // a throughput in millionths: the core to itself

  CoreSpeed() = default;  // the core to itself: times unchanged
  // `throughput_ppm` in (0, kFull], as machine::Machine::smt_throughput_ppm() gives it.
  explicit CoreSpeed(std::uint32_t throughput_ppm) : ppm_(throughput_ppm) {}

  bool full() const { return ppm_ == kFull; }

  // The time of work that takes `single_thread` alone on the core.
  sim::Picos operator()(sim::Picos single_thread) const {
    if (ppm_ == kFull) return single_thread;
    // single_thread * kFull / ppm_, rounded, in two parts so that the product cannot overflow.
    const sim::Picos whole = single_thread / ppm_;
    const sim::Picos rest = single_thread % ppm_;
    return whole * kFull + (rest * kFull + ppm_ / 2) / ppm_;
  }

 private:
  sim::Picos ppm_ = kFull;
};

}  // namespace walksim::exec
