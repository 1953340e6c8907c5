// Upper limits on the time inputs of every config file. Simulated time is an int64 count of
// picoseconds, so it ends at 9.2e18 ps (about 106 days); a single value below that can still make
// a sum overflow, and overflowed times used to come out as negative CPU times with exit code 0.
// Capping each input far below the end of the clock keeps every sum the model forms (a miss is a
// few dozen components, a run a few million operations) representable; the executor also checks
// its clock additions, so a run that would still overflow stops with an error.
#pragma once

#include <cstdint>
#include <string>

#include "models/config/strict_yaml.hpp"
#include "sim/time.hpp"

namespace walksim::config {

inline constexpr sim::Picos kPicosPerSecond = 1'000'000'000'000;

// A hardware component (a cache hit, a DRAM access, a link crossing, a coherence cost). Real ones
// are a nanosecond to a few microseconds; a value a million times larger than the slowest of them
// is a unit mistake ("85s" for "85ns"), not a machine.
inline constexpr sim::Picos kMaxComponentTime = kPicosPerSecond;
inline constexpr const char* kComponentTimeWhy =
    "for a hardware latency or cost (real ones are nanoseconds to microseconds, so a larger value is "
    "almost certainly a unit mistake, and sums of such values would overflow the simulated clock)";

// Private time a workload spends per operation outside the kernel (user_time, think_time, a trace's
// `user` lines before one call). A simulated run lasts milliseconds to seconds; one operation's
// user time beyond a second says nothing about path walking and only pushes sums towards the end
// of the clock.
inline constexpr sim::Picos kMaxOperationTime = kPicosPerSecond;
inline constexpr const char* kOperationTimeWhy =
    "for the user time of one operation (a run lasts milliseconds to seconds of simulated time; a "
    "longer time per operation is almost certainly a unit mistake and would overflow the simulated clock)";

// A workload's time per operation (user_time and the like), at most kMaxOperationTime.
inline sim::Picos operation_time(const Node& n) { return n.as_time_at_most(kMaxOperationTime, kOperationTimeWhy); }

// "1s", "250ns", "1500ps": the largest unit that gives a whole number, for messages.
inline std::string format_time(sim::Picos ps) {
  struct Unit {
    sim::Picos size;
    const char* name;
  };
  constexpr Unit kUnits[] = {{kPicosPerSecond, "s"}, {1'000'000'000, "ms"}, {1'000'000, "us"}, {1'000, "ns"}};
  for (const Unit& u : kUnits) {
    if (ps != 0 && ps % u.size == 0) return std::to_string(ps / u.size) + u.name;
  }
  return std::to_string(ps) + "ps";
}

}  // namespace walksim::config
