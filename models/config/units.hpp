// Typed unit strings for configs: "85ns", "3cycles", "2.3GHz", "64KiB", "6.4GB/s". Every quantity in
// a YAML file carries its unit, so a forgotten scale factor is a parse error rather than a result
// off by 1000. These parsers know nothing of YAML; strict_yaml turns a UnitError into a ConfigError.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string_view>

#include "sim/time.hpp"

namespace walksim::config {

// A malformed quantity. The message names the valid units; the caller adds file, line and key.
class UnitError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// Time: ps, ns, us, ms, s, or cycles (of `clock_hz`). Rounded to the nearest picosecond.
// `clock_hz` == 0 means no clock is known, and "cycles" is then rejected.
sim::Picos parse_time(std::string_view text, double clock_hz = 0);

// Frequency: Hz, kHz, MHz, GHz. Returns Hz.
double parse_frequency(std::string_view text);

// Size: B, KiB, MiB, GiB, TiB (binary). KB/MB/GB are rejected: cache and memory sizes are binary
// and "KB" is ambiguous. Must come to a whole number of bytes.
std::uint64_t parse_size(std::string_view text);

// Bandwidth: B/s, kB/s, MB/s, GB/s, TB/s (decimal, as interconnects are quoted) or KiB/s, MiB/s,
// GiB/s. Returns bytes per second.
double parse_bandwidth(std::string_view text);

// A bare non-negative integer ("4"): counts of nodes, ways, cores.
std::uint64_t parse_count(std::string_view text);

// A plain non-negative or negative real number ("0.5", "-3"), finite.
double parse_real(std::string_view text);

}  // namespace walksim::config
