// The kernel YAML a layout command writes: `extends:` the variant it started from and overrides
// only `layouts:`, every offset with the member it came from in a comment, so that the file reads
// like a pahole listing and loads like any shipped variant.
#pragma once

#include <string>

#include "models/kernel/kernel_spec.hpp"
#include "models/layout/btf_import.hpp"
#include "models/layout/layout_move.hpp"

namespace walksim::layout {

// `command` is the walksim command line that made it (recorded in the header).
std::string imported_kernel_yaml(const ImportedKernel& k, const std::string& name, const std::string& command);
std::string moved_kernel_yaml(const std::string& base, const kernel::ObjectLayout& moved, const Move& m,
                              const std::string& name, const std::string& command);

}  // namespace walksim::layout
