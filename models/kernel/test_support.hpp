// Shared helpers of the kernel tests: the repository's machines and kernels by name.
#pragma once

#include <string>
#include <vector>

#include "models/kernel/kernel_loader.hpp"
#include "models/kernel/trace.hpp"
#include "models/machine/machine_loader.hpp"

namespace walksim::kernel::testing {

inline std::vector<std::string> machine_dirs() { return {std::string(WALKSIM_SOURCE_DIR) + "/configs/machines"}; }
inline std::vector<std::string> kernel_dirs() { return {std::string(WALKSIM_SOURCE_DIR) + "/configs/kernels"}; }

inline TraceResult trace(const std::string& kernel, const std::string& call, KernelOptions opts = {},
                         const std::string& machine_name = "barcelona-2s8c") {
  machine::Machine m(machine::load_machine(machine_name, machine_dirs()));
  const KernelSpec k = load_kernel(kernel, kernel_dirs());
  TraceRequest req;
  req.syscall = call;
  req.options = opts;
  return trace_syscall(m, k, req);
}

}  // namespace walksim::kernel::testing
