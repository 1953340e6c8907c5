// Loads a machine YAML (configs/machines/NAME.yaml or a path) into a MachineSpec: strict keys,
// typed units, a `source:` on every number, `extends:` resolved. Every mistake throws
// config::ConfigError naming file, line, column and key path.
#pragma once

#include <string>
#include <vector>

#include "models/config/named_config.hpp"
#include "models/machine/machine_spec.hpp"

namespace walksim::machine {

// `name_or_path`: a machine name looked up as <dir>/<name>.yaml in `search_dirs`, or a path to a
// .yaml file. `extends:` names are looked up the same way (and beside the extending file).
MachineSpec load_machine(const std::string& name_or_path, const std::vector<std::string>& search_dirs,
                         const std::vector<config::Override>& overrides = {});

// Names of the machines found in `search_dirs` (file stems), sorted.
std::vector<std::string> list_machines(const std::vector<std::string>& search_dirs);

}  // namespace walksim::machine
