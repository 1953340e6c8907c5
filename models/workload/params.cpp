#include "models/workload/params.hpp"

#include <array>
#include <charconv>

#include "models/config/limits.hpp"

namespace walksim::workload {

std::string time_text(sim::Picos t) { return t == 0 ? "0ns" : config::format_time(t); }

std::string param_text(const ParamValue& value) {
  struct Text {
    std::string operator()(std::monostate) const { return "~"; }
    std::string operator()(bool b) const { return b ? "true" : "false"; }
    std::string operator()(std::uint64_t n) const { return std::to_string(n); }
    std::string operator()(double d) const {  // the shortest text that reads back as `d`
      std::array<char, 32> buf{};
      const auto r = std::to_chars(buf.data(), buf.data() + buf.size(), d);
      return std::string(buf.data(), r.ptr);
    }
    std::string operator()(const std::string& s) const { return s; }
  };
  return std::visit(Text{}, value);
}

std::uint32_t read_count(const config::Node& n, std::string_view key, std::uint32_t lo, std::uint32_t hi,
                         std::string_view why) {
  const std::uint32_t v = n.as_uint32();
  if (v < lo || v > hi) {
    n.fail(std::string(key) + " must be " + std::to_string(lo) + ".." + std::to_string(hi) +
           (why.empty() ? "" : " " + std::string(why)));
  }
  return v;
}

}  // namespace walksim::workload
