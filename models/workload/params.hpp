// A workload's parameters, declared once: one table row per key with its doc string, the code that
// reads and checks it, and the code that shows its resolved value. The same table reads the
// experiment YAML (`workload.params`), prints `walksim workloads --describe` (defaults included)
// and writes the resolved parameters into results.json, so a key cannot be read without being
// documented, nor documented without being read.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "models/config/strict_yaml.hpp"
#include "sim/time.hpp"

namespace walksim::workload {

// A value as the YAML writes it: none (an optional input left out), a flag, a count, a number, or
// text (a path, a choice, a time with its unit, `auto`). Written back, it reads as the same value.
using ParamValue = std::variant<std::monostate, bool, std::uint64_t, double, std::string>;

// `value` as YAML scalar text ("true", "20", "4.14", "/mnt/ram", "100ns"; "~" for none).
std::string param_text(const ParamValue& value);
// A time as the YAML writes one: whole nanoseconds as "100ns", else picoseconds ("1500ps").
std::string time_text(sim::Picos t);

// One parameter of a workload whose parameters are the struct P.
template <typename P>
struct Param {
  std::string_view key;
  std::string_view doc;  // what it means, its range and unit, in one or two sentences
  // Reads the value at `n` into `p`, throwing config::ConfigError at `n` when it does not fit.
  // Rows are read in table order, so a row may check against the ones above it.
  void (*read)(const config::Node& n, P& p);
  ParamValue (*show)(const P& p);  // the value in `p`, as resolved
  bool required = false;           // no default: the experiment must give it
};

// A parameter as `walksim workloads --describe` prints it.
struct ParamDoc {
  std::string_view key;
  std::string_view doc;
  std::optional<ParamValue> default_value;  // nullopt: required
};

// One resolved parameter, as results.json records it.
struct ResolvedParam {
  std::string_view key;
  ParamValue value;
};
using ResolvedParams = std::vector<ResolvedParam>;

// Reads `params` (a mapping, or null for none) into a P holding the defaults, row by row; a
// missing required key is an error naming `workload`. Unknown keys are left to Node::finish().
template <typename P>
P read_params(std::span<const Param<P>> table, const config::Node* params, std::string_view workload) {
  P p;
  for (const auto& row : table) {
    std::optional<config::Node> n;
    if (params) n = params->optional(std::string(row.key));
    if (n) {
      row.read(*n, p);
    } else if (row.required) {
      const std::string what =
          std::string(workload) + " needs the parameter '" + std::string(row.key) + "' (" + std::string(row.doc) + ")";
      if (!params) throw config::ConfigError({}, "params", what);
      params->fail(what);
    }
  }
  return p;
}

template <typename P>
ResolvedParams resolve_params(std::span<const Param<P>> table, const P& p) {
  ResolvedParams out;
  out.reserve(table.size());
  for (const auto& row : table) out.push_back({row.key, row.show(p)});
  return out;
}

template <typename P>
std::vector<ParamDoc> describe_params(std::span<const Param<P>> table) {
  const P defaults{};
  std::vector<ParamDoc> out;
  out.reserve(table.size());
  for (const auto& row : table) {
    out.push_back({row.key, row.doc, row.required ? std::nullopt : std::optional<ParamValue>(row.show(defaults))});
  }
  return out;
}

// Readers shared by the workloads' tables. Each throws config::ConfigError at `n`.
std::uint32_t read_count(const config::Node& n, std::string_view key, std::uint32_t lo, std::uint32_t hi,
                         std::string_view why = {});

}  // namespace walksim::workload
