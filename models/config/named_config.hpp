// Configs that are found by name in search directories (configs/machines/NAME.yaml,
// configs/kernels/NAME.yaml), may `extends:` one another and must name themselves after their file.
// Shared by every kind of named config so the lookup rules and messages are the same everywhere.
#pragma once

#include <string>
#include <vector>

#include "models/config/strict_yaml.hpp"

namespace walksim::config {

// `kind` is the word used in messages ("machine", "kernel").
struct NamedConfig {
  Node root;         // the layered root, `extends` consumed
  std::string path;  // the file named (or found)
};

// `name_or_path`: a name looked up as <dir>/<name>.yaml in `dirs`, or a path to a .yaml file.
// Unknown names throw ConfigError listing the available ones with "did you mean".
NamedConfig load_named(const std::string& kind, const std::string& name_or_path, const std::vector<std::string>& dirs);

// The sorted file stems of *.yaml in `dirs`.
std::vector<std::string> list_named(const std::vector<std::string>& dirs);

}  // namespace walksim::config
