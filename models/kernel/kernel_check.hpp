// A load-time check that a kernel variant's layouts hold every field its own syscalls use: all
// syscalls are expanded once on a tiny machine, so a missing field is reported when the file is
// loaded, not in the middle of an experiment.
#pragma once

#include <optional>
#include <string>

#include "models/kernel/kernel_spec.hpp"

namespace walksim::kernel {

// The first problem found ("object type 'dentry' has no field 'd_lock'..."), or nullopt.
std::optional<std::string> check_kernel_fields(const KernelSpec& spec);

}  // namespace walksim::kernel
