// Simulated time: an integer count of picoseconds. Never double, so that event order and
// results are exact and identical on every host.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace walksim::sim {

using Picos = std::int64_t;

constexpr Picos kPicosPerNs = 1000;
constexpr Picos kNever = INT64_MAX;

[[noreturn]] inline void throw_time_out_of_range(double ns) {
  throw std::range_error("a time of " + std::to_string(ns) +
                         " ns does not fit the simulated clock (at most 9.2e18 ps, about 106 days)");
}

// Rounded to the nearest picosecond. A value beyond the clock (or NaN) throws std::range_error
// instead of converting with undefined behaviour.
constexpr Picos from_ns(double ns) {
  const double ps = ns * 1000.0 + (ns >= 0 ? 0.5 : -0.5);
  if (!(ps > -9.2e18 && ps < 9.2e18)) throw_time_out_of_range(ns);
  return static_cast<Picos>(ps);
}
constexpr double to_ns(Picos ps) { return static_cast<double>(ps) / 1000.0; }

}  // namespace walksim::sim
