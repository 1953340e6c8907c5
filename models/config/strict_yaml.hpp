// Strict YAML reading shared by every input loader (machines, kernels, experiments). A Node knows
// its file, position and key path ("caches[0].latency"), records which keys the loader read, and
// `finish()` rejects the keys nobody read, so a typo is an error instead of a silent default.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "models/config/config_error.hpp"
#include "sim/time.hpp"

namespace YAML {
class Node;
}

namespace walksim::config {

// Key path ("interconnect.link_classes.ht.latency") -> the `source:` text given for it.
using SourceMap = std::map<std::string, std::string>;

// A view of one YAML value. Copies share state, so a key read through one copy counts as read for
// all. A mapping may be layered (see `layered`): lookups see the child's value first, nested
// mappings merge key by key, and sequences and scalars replace.
class Node {
 public:
  // --- Where it is ---
  const std::string& path() const;  // "" for the document root
  const std::string& file() const;
  SourceMark mark() const;  // 1-based; for a mapping or sequence, the position of its key
  ConfigError error(const std::string& message) const;
  [[noreturn]] void fail(const std::string& message) const;

  bool is_map() const;
  bool is_sequence() const;
  bool is_scalar() const;
  bool is_null() const;  // `key:` with nothing after it, or `~`

  // --- Mappings. Each lookup also declares `key` valid here, for finish()'s message. ---
  bool has(const std::string& key) const;    // does not mark the key read
  Node child(const std::string& key) const;  // required: missing is an error
  std::optional<Node> optional(const std::string& key) const;
  // Like child(), but under `extends:` the child-most value replaces the parents' whole, even when
  // both are mappings (a layout redefined by a child file is not merged field by field).
  Node child_replacing(const std::string& key) const;  // absent -> nullopt
  std::vector<std::string> keys() const;               // document order, child layer first
  void consume(const std::string& key) const;          // mark read without reading it
  // Whether the topmost layer (the file that wins under `extends:`) itself writes `key`, so a
  // loader can keep a number and its citation together as one unit.
  bool own_layer_has(const std::string& key) const;
  // Throws for the first key of this mapping (and of every mapping or sequence opened beneath it)
  // that was never read, with "did you mean" and the valid keys. Call once on the root at the end.
  void finish() const;

  // --- Sequences ---
  std::size_t size() const;
  Node at(std::size_t index) const;
  std::vector<Node> elements() const;

  // --- Scalars. Each throws ConfigError at this node when the value does not fit. ---
  std::string as_string() const;
  std::uint64_t as_uint() const;
  std::uint32_t as_uint32() const;
  double as_double() const;
  bool as_bool() const;                                                // exactly `true` or `false`
  std::size_t as_choice(const std::vector<std::string>& names) const;  // index into names
  template <typename E>
  E as_enum(const std::vector<std::pair<std::string, E>>& table) const;
  sim::Picos as_time(double clock_hz = 0) const;  // "85ns", "3cycles" (needs clock_hz > 0)
  // As as_time, and at most `limit` (see limits.hpp); `why` ends the message ("for a hardware ...").
  sim::Picos as_time_at_most(sim::Picos limit, const std::string& why, double clock_hz = 0) const;
  double as_frequency() const;    // Hz
  std::uint64_t as_size() const;  // bytes
  double as_bandwidth() const;    // bytes per second

  // --- Sourced numbers: `key: {value: <scalar>, source: "<citation>"}` ---
  // Returns the `value` node and records sources[path of key] = source. A bare scalar, a missing
  // or empty source, or any other key in the small mapping is an error naming the key. Under
  // `extends:` the pair is one unit: a layer that gives `value` must give `source` too.
  Node sourced(const std::string& key, SourceMap& sources) const;
  std::optional<Node> optional_sourced(const std::string& key, SourceMap& sources) const;

  // A mapping made of `layers` (mappings), the first one winning: the result of `extends:`.
  static Node layered(const std::vector<Node>& layers);

  // A what-if override of this configuration (an experiment's `vary:`): a one-layer mapping, to be
  // layered over it, that sets the key at `path` ("interconnect.router_latency",
  // "caches[2].size", "cpu_costs.component") to `value` (a node of another file, which errors then
  // name), or to the existing value times `scale` when `value` is nullopt (a number, or a number
  // with a unit: "25ns" x 0.5 = "12.5ns"). Where the configuration gives a sourced {value, source}
  // (or {cycles, source}) there, the override gives the new value with `source`. A path that does
  // not exist here is an error at `at` with did-you-mean. Marks this node's keys as asked: call it
  // on a root loaded for the purpose.
  Node override_at(const std::string& path, const std::optional<Node>& value, double scale, const std::string& source,
                   const Node& at) const;
  // A one-layer mapping {key: value}, in `value`'s file (to layer over a mapping without the key).
  static Node with_entry(const std::string& key, const Node& value);
  // The text of a scalar `base` times `factor` ("25ns" -> "12.5ns"), or an error at `at`.
  static std::string scaled_text(const Node& base, double factor, const Node& at);

  struct State;  // public only so the implementation's helpers can name it

 private:
  explicit Node(std::shared_ptr<State> state) : state_(std::move(state)) {}
  friend Node load_string(const std::string& text, const std::string& file_name);
  friend Node load_file(const std::string& path);
  std::shared_ptr<State> state_;
};

// Parses a whole file. A missing file, an unreadable file, a YAML syntax error, nesting deeper than
// yaml-cpp's limit and a second YAML document (`---`) are each a ConfigError with the file name and,
// where known, the line and column.
Node load_file(const std::string& path);
Node load_string(const std::string& text, const std::string& file_name);

// Turns the name written in `extends:` (the node `at`) into a file path, or throws ConfigError.
using ExtendsResolver = std::function<std::string(const std::string& name, const Node& at)>;
// Called on each file of an `extends:` chain before merging (e.g. to check `name:` against the stem).
using LayerCheck = std::function<void(const Node& layer)>;

// Loads `path` and follows `extends:` (at the top level of each file) to its parents, returning the
// layered root with `extends` already consumed. A cycle is an error naming the chain.
Node load_with_extends(const std::string& path, const ExtendsResolver& resolve, const LayerCheck& check_layer = {});

// --- Message helpers, also used for names that are not keys (machine names, link classes) ---
std::size_t edit_distance(std::string_view a, std::string_view b);
// The candidate closest to `word` if it is near enough to be a typo (or `word` is a prefix of it).
std::optional<std::string> closest_match(std::string_view word, const std::vector<std::string>& candidates);
// " (did you mean 'x'?)" with closest_match, else "".
std::string did_you_mean(std::string_view word, const std::vector<std::string>& candidates);
// "'a', 'b', 'c'"
std::string quoted_list(const std::vector<std::string>& names);

template <typename E>
E Node::as_enum(const std::vector<std::pair<std::string, E>>& table) const {
  std::vector<std::string> names;
  names.reserve(table.size());
  for (const auto& entry : table) names.push_back(entry.first);
  return table[as_choice(names)].second;
}

}  // namespace walksim::config
