// Internal to models/config: the state behind a strict_yaml Node, shared by the files that
// implement it (strict_yaml.cpp: reading; strict_yaml_load.cpp: loading files and documents).
#pragma once

#include <yaml-cpp/yaml.h>

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "models/config/strict_yaml.hpp"

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

namespace yaml_detail {

using State = Node::State;

inline std::string in_quotes(std::string_view s) { return "'" + std::string(s) + "'"; }

inline SourceMark to_source_mark(const std::string& file, const YAML::Mark& m) {
  // yaml-cpp marks are 0-based, and -1 when unknown (nodes built in code).
  if (m.is_null() || m.line < 0) return SourceMark{file, 0, 0};
  return SourceMark{file, m.line + 1, m.column + 1};
}

inline std::string child_path(const std::string& parent, const std::string& key) {
  return parent.empty() ? key : parent + "." + key;
}

inline std::shared_ptr<State> make_root(const YAML::Node& value, std::string file) {
  auto s = std::make_shared<State>();
  s->layers.push_back(Layer{value, std::move(file), std::nullopt});
  return s;
}

}  // namespace yaml_detail
}  // namespace walksim::config
