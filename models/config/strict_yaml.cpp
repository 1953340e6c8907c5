// Implementation of the strict YAML reader. yaml-cpp supplies parsing and marks; this file adds
// what yaml-cpp lacks for config files: key paths, read-key tracking, layered `extends:` merging
// and messages that say what would have been valid.
#include "models/config/strict_yaml.hpp"

#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "models/config/limits.hpp"
#include "models/config/units.hpp"

namespace walksim::config {

// One contributing YAML value: the child file's, then each parent's (only mappings have several).
struct Layer {
  YAML::Node value;
  std::string file;
  std::optional<YAML::Mark> key_mark;  // where the key naming this value sits, when there is one
};

struct Node::State {
  std::vector<Layer> layers;
  std::string path;
  std::vector<std::string> asked;  // keys the loader looked up, in order: the valid keys
  std::set<std::string> read;
  std::map<std::string, std::shared_ptr<State>> children;
  std::map<std::size_t, std::shared_ptr<State>> elements;
};

namespace {

using State = Node::State;

std::string in_quotes(std::string_view s) { return "'" + std::string(s) + "'"; }

SourceMark to_source_mark(const std::string& file, const YAML::Mark& m) {
  // yaml-cpp marks are 0-based, and -1 when unknown (nodes built in code).
  if (m.is_null() || m.line < 0) return SourceMark{file, 0, 0};
  return SourceMark{file, m.line + 1, m.column + 1};
}

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

std::string child_path(const std::string& parent, const std::string& key) {
  return parent.empty() ? key : parent + "." + key;
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

std::shared_ptr<State> make_root(const YAML::Node& value, std::string file) {
  auto s = std::make_shared<State>();
  s->layers.push_back(Layer{value, std::move(file), std::nullopt});
  return s;
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

// --- Loading ---

namespace {

// The line (1-based) at which a second YAML document starts, or 0. yaml-cpp's LoadAll would tell,
// but in the Debian version (0.7) it loops forever, allocating, on some malformed streams (a
// leading ',': jbeder/yaml-cpp#1040, fixed upstream by #1319), so the markers are found in the
// text instead. By the YAML spec a line starting with "---" or "..." followed by a space or the
// end of the line is a document marker wherever it stands (scalars cannot contain one), so after
// the first document's content such a line, or any content after a "...", starts another.
std::size_t second_document_line(const std::string& text) {
  bool content = false, ended = false;
  std::size_t line = 0;
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t end = std::min(text.find('\n', at), text.size());
    const std::string_view l(text.data() + at, end - at);
    ++line;
    at = end + 1;
    const bool marker = (l.starts_with("---") || l.starts_with("...")) &&
                        (l.size() == 3 || l[3] == ' ' || l[3] == '\t' || l[3] == '\r');
    const auto first = l.find_first_not_of(" \t\r");
    const bool blank = first == std::string_view::npos || l[first] == '#';
    if (marker) {
      if (l.starts_with("---") && (content || ended)) return line;
      if (l.starts_with("...")) ended = content || ended;
      // "--- value" puts content on the marker's own line
      const auto rest = l.find_first_not_of(" \t\r", 3);
      if (rest != std::string_view::npos && l[rest] != '#') {
        if (ended) return line;
        content = true;
      }
    } else if (!blank && !(l[0] == '%' && !content)) {  // a directive before the content is not content
      if (ended) return line;
      content = true;
    }
  }
  return 0;
}

// Every mapping of the document, however deep and whether or not a loader reads it: a key written
// twice is an error naming both places (yaml-cpp keeps both and a lookup would take one silently).
void check_duplicate_keys(const YAML::Node& node, const std::string& file, const std::string& path) {
  if (node.IsSequence()) {
    for (std::size_t i = 0; i < node.size(); ++i) {
      check_duplicate_keys(node[i], file, path + "[" + std::to_string(i) + "]");
    }
    return;
  }
  if (!node.IsMap()) return;
  std::map<std::string, YAML::Mark> seen;
  for (auto it = node.begin(); it != node.end(); ++it) {
    if (!it->first.IsScalar()) continue;  // finish() names a non-scalar key
    const std::string& k = it->first.Scalar();
    const auto [first, inserted] = seen.emplace(k, it->first.Mark());
    if (!inserted) {
      const SourceMark was = to_source_mark(file, first->second);
      throw ConfigError(to_source_mark(file, it->first.Mark()), child_path(path, k),
                        "duplicate key " + in_quotes(k) + ": it is also written at line " + std::to_string(was.line) +
                            ", column " + std::to_string(was.column) + " (write each key once)");
    }
    check_duplicate_keys(it->second, file, child_path(path, k));
  }
}

}  // namespace

Node load_string(const std::string& text, const std::string& file_name) {
  YAML::Node document;
  try {
    document = YAML::Load(text);
  } catch (const YAML::DeepRecursion& e) {
    // yaml-cpp's own guard against stack exhaustion; its message is only "bad file".
    throw ConfigError(to_source_mark(file_name, e.mark), "",
                      "lists and mappings are nested too deeply (" + std::to_string(e.depth()) +
                          " levels; a config file needs a handful)");
  } catch (const YAML::ParserException& e) {
    throw ConfigError(to_source_mark(file_name, e.mark), "", "YAML syntax error: " + e.msg);
  } catch (const std::bad_alloc&) {
    throw ConfigError(SourceMark{file_name, 0, 0}, "",
                      "out of memory while parsing the YAML (" + std::to_string(text.size()) + " bytes)");
  }
  // Everything after a second `---` would otherwise be ignored without a word.
  if (const std::size_t line = second_document_line(text)) {
    throw ConfigError(SourceMark{file_name, static_cast<int>(line), 1}, "",
                      "a second YAML document starts here; a config file holds one document: remove the '---' "
                      "line that starts it (or merge the two)");
  }
  check_duplicate_keys(document, file_name, "");
  return Node(make_root(document, file_name));
}

Node load_file(const std::string& path) {
  std::error_code ec;
  const std::filesystem::file_status st = std::filesystem::status(path, ec);
  if (ec || !std::filesystem::is_regular_file(st)) {
    std::string why = "not a regular file";
    if (ec == std::errc::too_many_symbolic_link_levels) {
      why = "too many levels of symbolic links (a symbolic link loop?)";
    } else if (ec == std::errc::no_such_file_or_directory || st.type() == std::filesystem::file_type::not_found) {
      why = "file not found";
    } else if (ec) {
      why = "cannot read: " + ec.message();
    }
    throw ConfigError(SourceMark{path, 0, 0}, "", why);
  }
  std::ifstream in(path);
  if (!in) throw ConfigError(SourceMark{path, 0, 0}, "", "cannot open file for reading");
  std::ostringstream text;
  text << in.rdbuf();
  return load_string(text.str(), path);
}

Node load_with_extends(const std::string& path, const ExtendsResolver& resolve, const LayerCheck& check_layer) {
  namespace fs = std::filesystem;
  std::vector<Node> layers;
  std::vector<std::string> chain_files;  // canonical, to detect cycles however a file is named
  std::vector<std::string> chain_names;  // stems, for the message
  std::string current = path;
  while (true) {
    Node layer = load_file(current);
    if (!layer.is_map()) layer.fail("expected a mapping at the top of the file");
    if (check_layer) check_layer(layer);
    layers.push_back(layer);
    chain_files.push_back(fs::weakly_canonical(current).string());
    chain_names.push_back(fs::path(current).stem().string());
    const std::optional<Node> ext = layer.optional("extends");
    if (!ext) break;
    const std::string next = resolve(ext->as_string(), *ext);
    const std::string canonical = fs::weakly_canonical(next).string();
    const auto seen = std::find(chain_files.begin(), chain_files.end(), canonical);
    if (seen != chain_files.end()) {
      std::string cycle;
      for (auto i = static_cast<std::size_t>(seen - chain_files.begin()); i < chain_names.size(); ++i) {
        cycle += chain_names[i] + " -> ";
      }
      ext->fail("cyclic extends: " + cycle + fs::path(next).stem().string());
    }
    current = next;
  }
  Node root = Node::layered(layers);
  root.consume("extends");
  return root;
}

// --- Message helpers ---

std::size_t edit_distance(std::string_view a, std::string_view b) {
  // Optimal string alignment distance: a transposed pair ("nodse") counts as one edit.
  const std::size_t n = a.size();
  const std::size_t m = b.size();
  std::vector<std::vector<std::size_t>> d(n + 1, std::vector<std::size_t>(m + 1));
  for (std::size_t i = 0; i <= n; ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= m; ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= n; ++i) {
    for (std::size_t j = 1; j <= m; ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[n][m];
}

std::optional<std::string> closest_match(std::string_view word, const std::vector<std::string>& candidates) {
  const std::string* best = nullptr;
  std::size_t best_distance = 0;
  for (const std::string& c : candidates) {
    const std::size_t dist = edit_distance(word, c);
    if (best == nullptr || dist < best_distance) {
      best = &c;
      best_distance = dist;
    }
  }
  if (best == nullptr) return std::nullopt;
  // Close enough to be a typo: a third of the longer word, and at least 2 edits.
  const std::size_t limit = std::max<std::size_t>(2, std::max(word.size(), best->size()) / 3);
  if (best_distance <= limit) return *best;
  // Or an abbreviation: "barcelona" for "barcelona-2s8c".
  for (const std::string& c : candidates) {
    if (word.size() >= 3 && c.rfind(word, 0) == 0) return c;
  }
  return std::nullopt;
}

std::string did_you_mean(std::string_view word, const std::vector<std::string>& candidates) {
  const auto match = closest_match(word, candidates);
  return match ? " (did you mean " + in_quotes(*match) + "?)" : "";
}

std::string quoted_list(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) {
    if (!out.empty()) out += ", ";
    out += in_quotes(n);
  }
  return out;
}

}  // namespace walksim::config
