// Configs that are found by name in search directories (configs/machines/NAME.yaml,
// configs/kernels/NAME.yaml), may `extends:` one another and must name themselves after their file.
// Shared by every kind of named config so the lookup rules and messages are the same everywhere.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "models/config/strict_yaml.hpp"

namespace walksim::config {

// `kind` is the word used in messages ("machine", "kernel").
struct NamedConfig {
  Node root;         // the layered root, `extends` consumed
  std::string path;  // the file named (or found)
};

// A what-if change of a named config (an experiment's `vary:` value): Node::override_at's arguments.
struct Override {
  std::string path;           // within the config: "interconnect.router_latency"
  std::optional<Node> value;  // the new value, or nullopt: the config's own value times `scale`
  double scale = 1.0;
  std::string source;  // the citation the new value carries where the config's was sourced
  Node at;             // where the override was written: errors name it
};

// `name_or_path`: a name looked up as <dir>/<name>.yaml in `dirs`, or a path to a .yaml file.
// Unknown names throw ConfigError listing the available ones with "did you mean". `overrides`
// are layered over the file (and its `extends:` chain), the first one winning.
NamedConfig load_named(const std::string& kind, const std::string& name_or_path, const std::vector<std::string>& dirs,
                       const std::vector<Override>& overrides = {});

// The sorted file stems of *.yaml in `dirs`.
std::vector<std::string> list_named(const std::vector<std::string>& dirs);

}  // namespace walksim::config
