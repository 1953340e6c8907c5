// Where the command line looks for configs/: --configs, then $WALKSIM_CONFIGS, then the source
// tree walksim was built from, then ./configs.
#pragma once

#include <string>
#include <vector>

namespace walksim::cli {

std::string resolve_config_root(const std::string& flag);
std::vector<std::string> machine_dirs(const std::string& root);

}  // namespace walksim::cli
