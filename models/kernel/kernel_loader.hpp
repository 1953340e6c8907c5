// Loads a kernel variant YAML (configs/kernels/NAME.yaml or a path) into a KernelSpec: strict keys,
// the locking switches as enumerations, the object layouts (each field on exactly one line), and
// private CPU costs each with a `source:` or a `calibrated:` note. Mistakes throw ConfigError.
#pragma once

#include <string>
#include <vector>

#include "models/kernel/kernel_spec.hpp"

namespace walksim::kernel {

KernelSpec load_kernel(const std::string& name_or_path, const std::vector<std::string>& search_dirs);
std::vector<std::string> list_kernels(const std::vector<std::string>& search_dirs);

}  // namespace walksim::kernel
