// The directory parameters of the workloads (stat-loop, open-close and creat-unlink `cwd`, dbench
// `cwd`, openbench `dir`, kbuild `src`): absolute, as trace files require, and without '.' or '..'
// components, since the tree is made from the names as written (Vfs::mkpath would make a
// directory named '..').
#pragma once

#include <string>

#include "models/config/strict_yaml.hpp"

namespace walksim::workload {

// Reads `n` as such a path; `example` is shown in the message. Throws config::ConfigError at `n`.
inline std::string read_absolute_dir(const config::Node& n, const std::string& key, const std::string& example,
                                     bool root_allowed = true) {
  const std::string path = n.as_string();
  if (path.empty() || path[0] != '/') {
    n.fail(key + " must be an absolute path such as '" + example + "', not '" + path + "'");
  }
  if (!root_allowed && path.find_first_not_of('/') == std::string::npos) {
    n.fail(key + " must be a directory below '/', such as '" + example + "'");
  }
  for (std::size_t pos = 0; pos <= path.size();) {
    std::size_t slash = path.find('/', pos);
    if (slash == std::string::npos) slash = path.size();
    const std::string part = path.substr(pos, slash - pos);
    if (part == "." || part == "..") {
      n.fail(key + " '" + path + "' has a '" + part + "' component; write it without '.' or '..'");
    }
    pos = slash + 1;
  }
  return path;
}

}  // namespace walksim::workload
