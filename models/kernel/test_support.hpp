// Shared helpers of the kernel tests: the repository's machines and kernels by name.
#pragma once

#include <string>
#include <vector>

#include "models/kernel/kernel_loader.hpp"
#include "models/kernel/process_program.hpp"
#include "models/kernel/syscall.hpp"
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

// Feeds a list of calls, `times` times over.
class Repeat final : public SyscallSource {
 public:
  Repeat(const std::vector<std::string>& calls, int times) : times_(times) {
    for (const auto& c : calls) calls_.push_back(parse_syscall(c));
  }
  bool next(Syscall& out) override {
    if (n_ >= times_ * static_cast<int>(calls_.size())) return false;
    out = calls_[static_cast<std::size_t>(n_++) % calls_.size()];
    return true;
  }

 private:
  std::vector<Syscall> calls_;
  int times_;
  int n_ = 0;
};

}  // namespace walksim::kernel::testing
