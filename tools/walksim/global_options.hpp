// Options every command shares.
#pragma once

#include <string>

namespace walksim::cli {

struct GlobalOptions {
  std::string configs;  // --configs DIR (empty: the default search)
};

}  // namespace walksim::cli
