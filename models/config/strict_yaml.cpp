// Implementation of the strict YAML reader. yaml-cpp supplies parsing and marks; this file adds
// what yaml-cpp lacks for config files: key paths, read-key tracking, layered `extends:` merging
// and what-if overrides. Loading files lives in strict_yaml_load.cpp, did-you-mean in
// did_you_mean.cpp.
#include "models/config/strict_yaml.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <sstream>

#include "models/config/limits.hpp"
#include "models/config/strict_yaml_state.hpp"
#include "models/config/units.hpp"

namespace walksim::config {

namespace {

using State = Node::State;
using yaml_detail::child_path;
using yaml_detail::in_quotes;
using yaml_detail::make_root;
using yaml_detail::to_source_mark;

std::string kind_name(const YAML::Node& n) {
  switch (n.Type()) {
    case YAML::NodeType::Map:
      return "a mapping";
    case YAML::NodeType::Sequence:
      return "a list";
    case YAML::NodeType::Scalar:
      return "the scalar " + in_quotes(n.Scalar());
    case YAML::NodeType::Null:
    case YAML::NodeType::Undefined:
      break;
  }
  return "nothing";
}

// The key node and value of `key` in a mapping, found by iteration so that a missing key does not
// create a zombie node.
std::optional<std::pair<YAML::Node, YAML::Node>> find_entry(const YAML::Node& map, const std::string& key) {
  for (auto it = map.begin(); it != map.end(); ++it) {
    if (it->first.IsScalar() && it->first.Scalar() == key) return std::make_pair(it->first, it->second);
  }
  return std::nullopt;
}

void note_asked(State& s, const std::string& key) {
  if (std::find(s.asked.begin(), s.asked.end(), key) == s.asked.end()) s.asked.push_back(key);
}

}  // namespace

// --- Where it is ---

const std::string& Node::path() const { return state_->path; }
const std::string& Node::file() const { return state_->layers.front().file; }

SourceMark Node::mark() const {
  const Layer& l = state_->layers.front();
  if (!l.value.IsScalar() && l.key_mark) return to_source_mark(l.file, *l.key_mark);
  return to_source_mark(l.file, l.value.Mark());
}

ConfigError Node::error(const std::string& message) const { return ConfigError(mark(), path(), message); }

void Node::fail(const std::string& message) const { throw error(message); }

bool Node::is_map() const { return state_->layers.front().value.IsMap(); }
bool Node::is_sequence() const { return state_->layers.front().value.IsSequence(); }
bool Node::is_scalar() const { return state_->layers.front().value.IsScalar(); }
bool Node::is_null() const {
  const YAML::Node& v = state_->layers.front().value;
  return v.IsNull() || !v.IsDefined();
}

// --- Mappings ---

namespace {

void require_map(const Node& n, const State& s, const std::string& key) {
  if (!s.layers.front().value.IsMap()) {
    n.fail("expected a mapping (with key " + in_quotes(key) + "), got " + kind_name(s.layers.front().value));
  }
}

}  // namespace

bool Node::has(const std::string& key) const {
  require_map(*this, *state_, key);
  note_asked(*state_, key);
  for (const Layer& l : state_->layers) {
    if (l.value.IsMap() && find_entry(l.value, key)) return true;
  }
  return false;
}

std::optional<Node> Node::optional(const std::string& key) const {
  require_map(*this, *state_, key);
  note_asked(*state_, key);
  if (auto it = state_->children.find(key); it != state_->children.end()) {
    state_->read.insert(key);
    return Node(it->second);
  }
  // Merge rule: the child-most value wins; if it is a mapping, the values of the following layers
  // are merged under it for as long as they are mappings too. Sequences and scalars replace.
  auto s = std::make_shared<State>();
  s->path = child_path(state_->path, key);
  for (const Layer& l : state_->layers) {
    const auto entry = find_entry(l.value, key);
    if (!entry) continue;
    if (!s->layers.empty() && !entry->second.IsMap()) break;
    s->layers.push_back(Layer{entry->second, l.file, entry->first.Mark()});
    if (!entry->second.IsMap()) break;
  }
  if (s->layers.empty()) return std::nullopt;
  state_->read.insert(key);
  state_->children.emplace(key, s);
  return Node(s);
}

Node Node::child_replacing(const std::string& key) const {
  require_map(*this, *state_, key);
  note_asked(*state_, key);
  if (auto it = state_->children.find(key); it != state_->children.end()) {
    if (it->second->layers.size() > 1) throw std::logic_error("child_replacing after child for " + key);
    return Node(it->second);
  }
  for (const Layer& l : state_->layers) {
    const auto entry = find_entry(l.value, key);
    if (!entry) continue;
    auto s = std::make_shared<State>();
    s->path = child_path(state_->path, key);
    s->layers.push_back(Layer{entry->second, l.file, entry->first.Mark()});
    state_->read.insert(key);
    state_->children.emplace(key, s);
    return Node(s);
  }
  return child(key);  // missing: child() says so
}

Node Node::child(const std::string& key) const {
  if (auto c = optional(key)) return *c;
  // A misspelt key shows up here first, as a missing one, so point at the likely culprit.
  std::vector<std::string> unasked;
  for (const std::string& k : keys()) {
    if (std::find(state_->asked.begin(), state_->asked.end(), k) == state_->asked.end()) unasked.push_back(k);
  }
  std::string msg = "missing required key " + in_quotes(key);
  if (const auto typo = closest_match(key, unasked)) {
    msg += " (is " + in_quotes(*typo) + " here a misspelling of it?)";
  }
  throw ConfigError(mark(), child_path(path(), key), msg);
}

std::vector<std::string> Node::keys() const {
  std::vector<std::string> out;
  for (const Layer& l : state_->layers) {
    if (!l.value.IsMap()) continue;
    for (auto it = l.value.begin(); it != l.value.end(); ++it) {
      if (!it->first.IsScalar()) continue;  // finish() reports non-scalar keys
      const std::string& k = it->first.Scalar();
      if (std::find(out.begin(), out.end(), k) == out.end()) out.push_back(k);
    }
  }
  return out;
}

void Node::consume(const std::string& key) const {
  note_asked(*state_, key);
  state_->read.insert(key);
}

void Node::finish() const {
  const State& s = *state_;
  for (const Layer& l : s.layers) {
    if (!l.value.IsMap()) continue;
    for (auto it = l.value.begin(); it != l.value.end(); ++it) {
      const SourceMark at = to_source_mark(l.file, it->first.Mark());
      if (!it->first.IsScalar()) throw ConfigError(at, s.path, "keys must be plain names");
      const std::string& k = it->first.Scalar();
      const std::string kp = child_path(s.path, k);
      if (s.read.count(k) == 0 && std::find(s.asked.begin(), s.asked.end(), k) != s.asked.end()) {
        throw ConfigError(at, kp, "key " + in_quotes(k) + " is not used in this configuration");
      }
      if (s.read.count(k) == 0) {
        std::string msg = "unknown key " + in_quotes(k) + did_you_mean(k, s.asked);
        msg += s.asked.empty() ? "; no keys are expected here" : "; valid keys here: " + quoted_list(s.asked);
        throw ConfigError(at, kp, msg);
      }
    }
  }
  for (const auto& [key, child] : s.children) Node(child).finish();
  for (const auto& [index, element] : s.elements) Node(element).finish();
}

// --- Sequences ---

std::size_t Node::size() const {
  const YAML::Node& v = state_->layers.front().value;
  if (!v.IsSequence()) fail("expected a list, got " + kind_name(v));
  return v.size();
}

Node Node::at(std::size_t index) const {
  const std::size_t n = size();
  if (index >= n) fail("list has " + std::to_string(n) + " entries; no entry " + std::to_string(index));
  if (auto it = state_->elements.find(index); it != state_->elements.end()) return Node(it->second);
  const Layer& l = state_->layers.front();
  auto s = std::make_shared<State>();
  s->path = state_->path + "[" + std::to_string(index) + "]";
  s->layers.push_back(Layer{l.value[index], l.file, std::nullopt});
  state_->elements.emplace(index, s);
  return Node(s);
}

std::vector<Node> Node::elements() const {
  std::vector<Node> out;
  const std::size_t n = size();
  out.reserve(n);
  for (std::size_t i = 0; i < n; ++i) out.push_back(at(i));
  return out;
}

// --- Scalars ---

namespace {

const std::string& scalar_text(const Node& n, const YAML::Node& v, const std::string& expected) {
  if (!v.IsScalar()) n.fail("expected " + expected + ", got " + kind_name(v));
  return v.Scalar();
}

template <typename F>
auto with_units(const Node& n, F&& parse) {
  try {
    return parse();
  } catch (const UnitError& e) {
    n.fail(e.what());
  }
}

}  // namespace

std::string Node::as_string() const { return scalar_text(*this, state_->layers.front().value, "a string"); }

std::uint64_t Node::as_uint() const {
  const std::string& t = scalar_text(*this, state_->layers.front().value, "a whole number");
  return with_units(*this, [&] { return parse_count(t); });
}

std::uint32_t Node::as_uint32() const {
  const std::uint64_t v = as_uint();
  if (v > UINT32_MAX) fail("value " + std::to_string(v) + " is too large (at most " + std::to_string(UINT32_MAX) + ")");
  return static_cast<std::uint32_t>(v);
}

double Node::as_double() const {
  const std::string& t = scalar_text(*this, state_->layers.front().value, "a number");
  return with_units(*this, [&] { return parse_real(t); });
}

bool Node::as_bool() const {
  const std::string& t = scalar_text(*this, state_->layers.front().value, "true or false");
  if (t == "true") return true;
  if (t == "false") return false;
  fail("expected true or false, got " + in_quotes(t));
}

std::size_t Node::as_choice(const std::vector<std::string>& names) const {
  const std::string& t = scalar_text(*this, state_->layers.front().value, "one of " + quoted_list(names));
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (names[i] == t) return i;
  }
  fail("unknown value " + in_quotes(t) + did_you_mean(t, names) + "; valid values: " + quoted_list(names));
}

sim::Picos Node::as_time(double clock_hz) const {
  const std::string& t = scalar_text(*this, state_->layers.front().value, "a time such as '85ns'");
  return with_units(*this, [&] { return parse_time(t, clock_hz); });
}

sim::Picos Node::as_time_at_most(sim::Picos limit, const std::string& why, double clock_hz) const {
  const sim::Picos t = as_time(clock_hz);
  if (t > limit) {
    const std::string text = as_string();
    const std::string value = format_time(t) == text ? "" : " (" + format_time(t) + ")";
    fail("time " + in_quotes(text) + value + " is above the limit of " + format_time(limit) + " " + why);
  }
  return t;
}

double Node::as_frequency() const {
  const std::string& t = scalar_text(*this, state_->layers.front().value, "a frequency such as '2.3GHz'");
  return with_units(*this, [&] { return parse_frequency(t); });
}

std::uint64_t Node::as_size() const {
  const std::string& t = scalar_text(*this, state_->layers.front().value, "a size such as '64KiB'");
  return with_units(*this, [&] { return parse_size(t); });
}

double Node::as_bandwidth() const {
  const std::string& t = scalar_text(*this, state_->layers.front().value, "a bandwidth such as '6.4GB/s'");
  return with_units(*this, [&] { return parse_bandwidth(t); });
}

bool Node::own_layer_has(const std::string& key) const {
  return find_entry(state_->layers.front().value, key).has_value();
}

// --- Sourced numbers ---

std::optional<Node> Node::optional_sourced(const std::string& key, SourceMap& sources) const {
  const std::optional<Node> entry = optional(key);
  if (!entry) return std::nullopt;
  if (!entry->is_map()) {
    entry->fail(
        "expected {value: ..., source: \"...\"}: every number needs a source (a citation, "
        "\"estimate: <reason>\" or \"derived: <arithmetic>\")");
  }
  // A value and its source are one unit: under `extends:` they are not merged separately, so a
  // child that overrides a value must cite it again, and cannot re-cite a value it does not give.
  const YAML::Node& own = entry->state_->layers.front().value;
  const bool own_value = find_entry(own, "value").has_value();
  const bool own_source = find_entry(own, "source").has_value();
  if (!own_value) {
    throw ConfigError(
        entry->mark(), entry->path() + ".value",
        "missing required key 'value'" +
            std::string(entry->has("value") ? " (a source overridden through 'extends' needs its own value)" : ""));
  }
  const Node value = entry->child("value");
  if (!value.is_scalar()) value.fail("expected a single value, got " + kind_name(value.state_->layers.front().value));
  if (!own_source) {
    entry->fail("missing 'source' for " + in_quotes(key) +
                ": give a citation, \"estimate: <reason>\" or \"derived: <arithmetic>\"" +
                (entry->has("source") ? " (a value overridden through 'extends' needs its own source)" : ""));
  }
  const Node source = entry->child("source");
  std::string text = source.as_string();
  if (text.find_first_not_of(" \t") == std::string::npos) source.fail("empty source for " + in_quotes(key));
  entry->finish();
  sources[entry->path()] = std::move(text);
  return value;
}

Node Node::sourced(const std::string& key, SourceMap& sources) const {
  if (auto v = optional_sourced(key, sources)) return *v;
  throw ConfigError(mark(), child_path(path(), key), "missing required key " + in_quotes(key));
}

Node Node::layered(const std::vector<Node>& layers) {
  auto s = std::make_shared<State>();
  for (const Node& n : layers) {
    if (!n.is_map()) n.fail("expected a mapping, got " + kind_name(n.state_->layers.front().value));
    for (const Layer& l : n.state_->layers) s->layers.push_back(l);
  }
  if (s->layers.empty()) throw std::invalid_argument("Node::layered needs at least one layer");
  s->path = layers.front().path();
  return Node(s);
}

// --- What-if overrides ---

namespace {

struct PathStep {
  std::string key;
  std::optional<std::size_t> index;
};

std::vector<PathStep> parse_path(const std::string& path, const Node& at) {
  std::vector<PathStep> steps;
  std::size_t pos = 0;
  while (pos <= path.size()) {
    std::size_t dot = path.find('.', pos);
    if (dot == std::string::npos) dot = path.size();
    std::string part = path.substr(pos, dot - pos);
    PathStep step;
    if (const auto open = part.find('['); open != std::string::npos) {
      if (part.back() != ']' || open + 2 > part.size() - 1) at.fail("'" + part + "': an index is written key[N]");
      const std::string n = part.substr(open + 1, part.size() - open - 2);
      if (n.empty() || n.find_first_not_of("0123456789") != std::string::npos || n.size() > 6) {
        at.fail("'" + part + "': an index is a number, as in caches[2]");
      }
      step.index = std::stoul(n);
      part = part.substr(0, open);
    }
    if (part.empty()) at.fail("'" + path + "' has an empty key (keys are joined by single dots)");
    step.key = part;
    steps.push_back(step);
    pos = dot + 1;
  }
  return steps;
}

// A scalar node holding `text` whose mark is `at`'s, so that errors in it name where it was written.
YAML::Node scalar_at(const std::string& text, const SourceMark& at) {
  const int line = std::max(at.line - 1, 0), column = std::max(at.column - 1, 0);
  YAML::Node n = YAML::Load(std::string(static_cast<std::size_t>(line), '\n') +
                            std::string(static_cast<std::size_t>(column), ' ') + "\"" + text + "\"");
  return n;
}

}  // namespace

Node Node::with_entry(const std::string& key, const Node& value) {
  YAML::Node root(YAML::NodeType::Map);
  root[key] = value.state_->layers.front().value;
  return Node(make_root(root, value.file()));
}

std::string Node::scaled_text(const Node& base, double factor, const Node& at) {
  if (!base.is_scalar())
    at.fail("scale applies to a number (with or without a unit), not " + kind_name(base.state_->layers.front().value));
  const std::string text = base.as_string();
  std::size_t end = 0;
  double number = 0;
  try {
    number = std::stod(text, &end);
  } catch (const std::exception&) {
    at.fail("scale applies to a number (with or without a unit); the value here is '" + text + "'");
  }
  if (!std::isfinite(factor) || factor <= 0) at.fail("a scale factor is a positive number");
  std::ostringstream out;
  out.precision(12);
  out << number * factor << text.substr(end);
  return out.str();
}

Node Node::override_at(const std::string& path, const std::optional<Node>& value, double scale,
                       const std::string& source, const Node& at) const {
  const std::vector<PathStep> steps = parse_path(path, at);
  YAML::Node root(YAML::NodeType::Map);
  YAML::Node cur;
  cur.reset(root);
  Node base = *this;
  bool in_clone = false;  // below a list element: the override is a copy of the list, edited in place
  // The value the override puts where `b` (the configuration's node at the path) was.
  auto leaf = [&](const Node& b) {
    YAML::Node v;
    if (value) {
      v.reset(value->state_->layers.front().value);
    } else {
      const bool sourced_here = b.is_map() && b.has("source");
      const Node number = sourced_here ? (b.has("value") ? b.child("value") : b.child("cycles")) : b;
      v = scalar_at(scaled_text(number, scale, at), at.mark());
    }
    if (b.is_map() && b.has("source")) {
      const std::string unit_key = b.has("value") ? "value" : (b.has("cycles") ? "cycles" : "");
      if (unit_key.empty()) at.fail("'" + path + "' is a {value, source} or {cycles, source} here; neither key found");
      YAML::Node wrapped(YAML::NodeType::Map);
      wrapped[unit_key] = v;
      wrapped["source"] = source;
      return wrapped;
    }
    return v;
  };
  for (std::size_t i = 0; i < steps.size(); ++i) {
    const PathStep& st = steps[i];
    const bool last = i + 1 == steps.size();
    if (!base.is_map()) at.fail("'" + path + "': " + base.path() + " is not a mapping, so it has no '" + st.key + "'");
    if (!base.has(st.key)) {
      const std::vector<std::string> keys = base.keys();
      at.fail("'" + path + "': " + (base.path().empty() ? std::string("the configuration") : "'" + base.path() + "'") +
              " has no key '" + st.key + "'" + did_you_mean(st.key, keys) +
              (keys.empty() ? "" : "; its keys: " + quoted_list(keys)));
    }
    Node child = base.child(st.key);
    if (st.index) {
      if (!child.is_sequence()) at.fail("'" + path + "': '" + child.path() + "' is not a list");
      if (*st.index >= child.size()) {
        at.fail("'" + path + "': '" + child.path() + "' has " + std::to_string(child.size()) + " entries");
      }
      if (!in_clone) {
        YAML::Node copy = YAML::Clone(child.state_->layers.front().value);
        cur[st.key] = copy;
        cur.reset(copy);
        in_clone = true;
      } else {
        cur.reset(cur[st.key]);
      }
      const Node element = child.at(*st.index);
      if (last) {
        cur[*st.index] = leaf(element);
        break;
      }
      cur.reset(cur[*st.index]);
      base = element;
      continue;
    }
    if (last) {
      cur[st.key] = leaf(child);
      break;
    }
    if (!in_clone) {
      YAML::Node next(YAML::NodeType::Map);
      cur[st.key] = next;
      cur.reset(next);
    } else {
      cur.reset(cur[st.key]);
    }
    base = child;
  }
  return Node(make_root(root, at.file()));
}

}  // namespace walksim::config
