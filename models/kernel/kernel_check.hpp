// A load-time check that a kernel variant's layouts hold every field its own syscalls use: all
// syscalls are expanded once on a tiny machine, so a missing field is reported when the file is
// loaded, not in the middle of an experiment.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <utility>

#include "models/kernel/kernel_spec.hpp"

namespace walksim::kernel {

// The first problem found ("object type 'dentry' has no field 'd_lock'..."), or nullopt. A compute
// step without a cpu_costs entry is reported with its name in `missing_cost` (the loader points at
// cpu_costs for it, at the layouts for everything else).
struct KernelProblem {
  std::string message;
  std::string missing_cost;
};
std::optional<KernelProblem> check_kernel_fields(const KernelSpec& spec);

// Every (object type, field) the variant's syscalls read or write in that same expansion, and the
// fields they only ask about (`has_field`, such as d_iname_tail): what an imported layout must
// place. Throws std::invalid_argument as check_kernel_fields reports.
struct FieldsUsed {
  std::set<std::pair<std::string, std::string>> required;
  std::set<std::pair<std::string, std::string>> optional;
};
FieldsUsed fields_used(const KernelSpec& spec);

}  // namespace walksim::kernel
