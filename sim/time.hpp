// Simulated time: an integer count of picoseconds. Never double, so that event order and
// results are exact and identical on every host.
#pragma once

#include <cstdint>

namespace walksim::sim {

using Picos = std::int64_t;

constexpr Picos kPicosPerNs = 1000;
constexpr Picos kNever = INT64_MAX;

constexpr Picos from_ns(double ns) { return static_cast<Picos>(ns * 1000.0 + (ns >= 0 ? 0.5 : -0.5)); }
constexpr double to_ns(Picos ps) { return static_cast<double>(ps) / 1000.0; }

}  // namespace walksim::sim
