// rename-loop: each process renames its own file to a second name and back, in a loop, in the
// shared directory or in a private one per process. Every rename takes the parent's i_mutex, moves
// the dentry between hash chains under the variant's rename_lock / dcache_lock, so it measures the
// cost of the writer every store-free walk must guard against (pathwalk.md §4b: d_move bumps the
// sequence counts rcu-walk checks).
#include "models/workload/cyclic_source.hpp"
#include "models/workload/file_loop.hpp"
#include "models/workload/workload_registry.hpp"

namespace walksim::workload {
namespace {

Syscall rename_call(const std::string& from, const std::string& to) {
  Syscall s = loop_call(kernel::Sys::kRename, from);
  s.path2 = to;
  return s;
}

std::vector<Syscall> cycle(const std::string& path) {
  const std::string other = path + ".renamed";
  return {rename_call(path, other), rename_call(other, path)};
}

std::unique_ptr<Workload> make(const config::Node* params) {
  return std::make_unique<FileLoop>(read_params(file_loop_params(), params, "rename-loop"), cycle,
                                    /*file_exists=*/true, "rename there and back");
}
std::vector<ParamDoc> describe() { return describe_params(file_loop_params()); }

}  // namespace

// Renames sleep on the parent's i_mutex when processes share the directory.
const WorkloadKind kRenameLoopKind{"rename-loop", "rename of a per-process file to a second name and back, in a loop",
                                   make, describe};

}  // namespace walksim::workload
