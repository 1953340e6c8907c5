// creat-unlink: each process creates its own file (open O_WRONLY|O_CREAT of a name that does not
// exist), closes and unlinks it, in a loop (the published "creat/unlink loop" scenario, where
// 2.6.38's RCU-freed inodes cost extra). Files in one shared directory or a private one per process.
#include "models/workload/cyclic_source.hpp"
#include "models/workload/file_loop.hpp"
#include "models/workload/workload_registry.hpp"

namespace walksim::workload {
namespace {

std::vector<Syscall> cycle(const std::string& path) {
  return {loop_call(kernel::Sys::kOpen, path, /*create=*/true, /*write=*/true), loop_call(kernel::Sys::kClose, path),
          loop_call(kernel::Sys::kUnlink, path)};
}

std::unique_ptr<Workload> make(const config::Node* params) {
  return std::make_unique<FileLoop>(read_params(file_loop_params(), params, "creat-unlink"), cycle,
                                    /*file_exists=*/false, "creat/close/unlink");
}
std::vector<ParamDoc> describe() { return describe_params(file_loop_params()); }

}  // namespace

const WorkloadKind kCreatUnlinkKind{
    "creat-unlink", "create (open O_CREAT), close and unlink a per-process file in a loop", make, describe};

}  // namespace walksim::workload
