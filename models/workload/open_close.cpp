// open-close: each process opens its own existing file O_RDONLY and closes it, in a loop (the
// published "open/close loop" scenario). The files sit in one shared directory or in a private
// directory per process.
#include "models/workload/cyclic_source.hpp"
#include "models/workload/file_loop.hpp"
#include "models/workload/workload_registry.hpp"

namespace walksim::workload {
namespace {

std::vector<Syscall> cycle(const std::string& path) {
  return {loop_call(kernel::Sys::kOpen, path), loop_call(kernel::Sys::kClose, path)};
}

std::unique_ptr<Workload> make(const config::Node* params) {
  return std::make_unique<FileLoop>(read_params(file_loop_params(), params, "open-close"), cycle,
                                    /*file_exists=*/true, "open/close");
}
std::vector<ParamDoc> describe() { return describe_params(file_loop_params()); }

}  // namespace

const WorkloadKind kOpenCloseKind{.name = "open-close",
                                  .summary = "open O_RDONLY and close of an existing per-process file in a loop",
                                  .make = make,
                                  .describe = describe,
                                  .seeded = false,
                                  .may_sleep = false};

}  // namespace walksim::workload
