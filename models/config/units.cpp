// Parsers for typed unit strings. A quantity is a decimal number followed (optionally after spaces)
// by a unit from a fixed table; the tables are the single place that says which units exist, and
// every error message lists them.
#include "models/config/units.hpp"

#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <limits>
#include <string>

namespace walksim::config {
namespace {

struct Unit {
  std::string_view name;
  double factor;  // multiplier to the base unit (ps, Hz, bytes, bytes/s)
};

constexpr std::array kTimeUnits{Unit{"ps", 1.0}, Unit{"ns", 1e3}, Unit{"us", 1e6}, Unit{"ms", 1e9}, Unit{"s", 1e12}};
constexpr std::array kFrequencyUnits{Unit{"Hz", 1.0}, Unit{"kHz", 1e3}, Unit{"MHz", 1e6}, Unit{"GHz", 1e9}};
constexpr std::array kSizeUnits{Unit{"B", 1.0}, Unit{"KiB", 1024.0}, Unit{"MiB", 1048576.0}, Unit{"GiB", 1073741824.0},
                                Unit{"TiB", 1099511627776.0}};
constexpr std::array kBandwidthUnits{Unit{"B/s", 1.0},      Unit{"kB/s", 1e3},        Unit{"KB/s", 1e3},
                                     Unit{"MB/s", 1e6},     Unit{"GB/s", 1e9},        Unit{"TB/s", 1e12},
                                     Unit{"KiB/s", 1024.0}, Unit{"MiB/s", 1048576.0}, Unit{"GiB/s", 1073741824.0}};

std::string in_quotes(std::string_view s) { return "'" + std::string(s) + "'"; }

template <std::size_t N>
std::string unit_list(const std::array<Unit, N>& units) {
  std::string out;
  for (const Unit& u : units) {
    if (!out.empty()) out += ", ";
    out += u.name;
  }
  return out;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) {
      return false;
    }
  }
  return true;
}

struct Quantity {
  double number;
  std::string_view unit;
};

// Splits "1.5 us" into 1.5 and "us". `what` ("time", "size", ...) and `valid` only shape messages.
Quantity split(std::string_view text, std::string_view what, const std::string& valid) {
  const std::string_view t = trim(text);
  const std::string example = " (a number followed by one of: " + valid + ")";
  if (t.empty()) throw UnitError("empty " + std::string(what) + example);
  if (t.front() == '-') {
    throw UnitError("negative " + std::string(what) + " " + in_quotes(t) + " is not allowed");
  }
  const std::string_view body = t.front() == '+' ? t.substr(1) : t;
  // Number: digits, optional fraction, optional exponent that is really followed by digits.
  std::size_t i = 0;
  while (i < body.size() && std::isdigit(static_cast<unsigned char>(body[i]))) ++i;
  if (i < body.size() && body[i] == '.') {
    ++i;
    while (i < body.size() && std::isdigit(static_cast<unsigned char>(body[i]))) ++i;
  }
  if (i + 1 < body.size() && (body[i] == 'e' || body[i] == 'E')) {
    std::size_t j = i + 1;
    if (body[j] == '+' || body[j] == '-') ++j;
    if (j < body.size() && std::isdigit(static_cast<unsigned char>(body[j]))) {
      while (j < body.size() && std::isdigit(static_cast<unsigned char>(body[j]))) ++j;
      i = j;
    }
  }
  double number = 0;
  const auto [end, ec] = std::from_chars(body.data(), body.data() + i, number);
  if (i == 0 || ec != std::errc() || end != body.data() + i || !std::isfinite(number)) {
    throw UnitError("bad " + std::string(what) + " " + in_quotes(t) + example);
  }
  return {number, trim(body.substr(i))};
}

template <std::size_t N>
[[noreturn]] void throw_unknown_unit(std::string_view text, std::string_view what, const Quantity& q,
                                     const std::array<Unit, N>& units, const std::string& valid) {
  std::string msg =
      q.unit.empty() ? "missing unit in " + std::string(what) + " " + in_quotes(trim(text))
                     : "unknown " + std::string(what) + " unit " + in_quotes(q.unit) + " in " + in_quotes(trim(text));
  for (const Unit& u : units) {
    if (!q.unit.empty() && iequals(q.unit, u.name)) {
      msg += " (did you mean " + in_quotes(u.name) + "?)";
      break;
    }
  }
  throw UnitError(msg + "; valid units: " + valid);
}

template <std::size_t N>
double scaled(std::string_view text, std::string_view what, const std::array<Unit, N>& units) {
  const std::string valid = unit_list(units);
  const Quantity q = split(text, what, valid);
  for (const Unit& u : units) {
    if (q.unit != u.name) continue;
    // A finite number can still overflow once scaled ("1e300GHz"): infinity is not a quantity.
    const double v = q.number * u.factor;
    if (!std::isfinite(v)) throw UnitError(std::string(what) + " " + in_quotes(trim(text)) + " is too large");
    return v;
  }
  throw_unknown_unit(text, what, q, units, valid);
}

// Converts to an integer result, refusing values that would overflow rather than wrapping (and
// NaN, which compares false). 9.2e18 is just below INT64_MAX (9.22e18) and exactly representable.
std::int64_t to_int64(double v, std::string_view text) {
  if (!(v >= 0 && v < 9.2e18)) throw UnitError("value " + in_quotes(trim(text)) + " is too large");
  return std::llround(v);
}

}  // namespace

sim::Picos parse_time(std::string_view text, double clock_hz) {
  constexpr std::string_view kWhat = "time";
  const std::string valid = unit_list(kTimeUnits) + ", cycles";
  const Quantity q = split(text, kWhat, valid);
  if (q.unit == "cycles" || q.unit == "cycle") {
    if (!(clock_hz > 0)) {
      throw UnitError(
          "time " + in_quotes(trim(text)) +
          " is in cycles, but no clock is known here; give it in ns (valid units: " + unit_list(kTimeUnits) + ")");
    }
    return to_int64(q.number * 1e12 / clock_hz, text);
  }
  for (const Unit& u : kTimeUnits) {
    if (q.unit == u.name) return to_int64(q.number * u.factor, text);
  }
  throw_unknown_unit(text, kWhat, q, kTimeUnits, valid);
}

double parse_frequency(std::string_view text) { return scaled(text, "frequency", kFrequencyUnits); }

std::uint64_t parse_size(std::string_view text) {
  constexpr std::string_view kWhat = "size";
  const std::string valid = unit_list(kSizeUnits);
  const Quantity q = split(text, kWhat, valid);
  // Decimal-prefixed sizes are refused by name, because a reader cannot tell whether "64KB" meant
  // 64000 or 65536 bytes, and cache geometry must come out exact.
  constexpr std::array<std::pair<std::string_view, std::string_view>, 8> kAmbiguous{{{"KB", "KiB"},
                                                                                     {"kB", "KiB"},
                                                                                     {"K", "KiB"},
                                                                                     {"MB", "MiB"},
                                                                                     {"M", "MiB"},
                                                                                     {"GB", "GiB"},
                                                                                     {"G", "GiB"},
                                                                                     {"TB", "TiB"}}};
  for (const auto& [bad, good] : kAmbiguous) {
    if (q.unit == bad) {
      throw UnitError("size unit " + in_quotes(bad) + " in " + in_quotes(trim(text)) +
                      " is ambiguous; sizes are binary: write " + in_quotes(good) + " (valid units: " + valid + ")");
    }
  }
  const double bytes = scaled(text, kWhat, kSizeUnits);
  const double whole = std::round(bytes);
  if (std::fabs(bytes - whole) > 1e-6) {
    throw UnitError("size " + in_quotes(trim(text)) + " is not a whole number of bytes");
  }
  return static_cast<std::uint64_t>(to_int64(whole, text));
}

double parse_bandwidth(std::string_view text) {
  const Quantity q = split(text, "bandwidth", unit_list(kBandwidthUnits));
  if (q.unit.size() >= 3 && q.unit.substr(q.unit.size() - 3) == "b/s") {
    throw UnitError("bandwidth " + in_quotes(trim(text)) +
                    " is in bits; give bytes (valid units: " + unit_list(kBandwidthUnits) + ")");
  }
  return scaled(text, "bandwidth", kBandwidthUnits);
}

std::uint64_t parse_count(std::string_view text) {
  const std::string_view t = trim(text);
  if (!t.empty() && t.front() == '-') throw UnitError("negative count " + in_quotes(t) + " is not allowed");
  std::uint64_t value = 0;
  const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), value);
  if (t.empty() || ec != std::errc() || end != t.data() + t.size()) {
    throw UnitError("expected a whole number, got " + in_quotes(t));
  }
  return value;
}

double parse_real(std::string_view text) {
  const std::string_view t = trim(text);
  const std::string_view body = !t.empty() && t.front() == '+' ? t.substr(1) : t;
  double value = 0;
  const auto [end, ec] = std::from_chars(body.data(), body.data() + body.size(), value);
  if (body.empty() || ec != std::errc() || end != body.data() + body.size() || !std::isfinite(value)) {
    throw UnitError("expected a number, got " + in_quotes(t));
  }
  return value;
}

}  // namespace walksim::config
