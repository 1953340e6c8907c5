// rename-loop: each process renames its own file to a second name and back, in a loop, in the
// shared directory or in a private one per process. Every rename takes the parent's i_mutex, moves
// the dentry between hash chains under the variant's rename_lock / dcache_lock, so it measures the
// cost of the writer every store-free walk must guard against (pathwalk.md §4b: d_move bumps the
// sequence counts rcu-walk checks).
#include <string>

#include "models/workload/cyclic_source.hpp"
#include "models/workload/file_loop.hpp"
#include "models/workload/workload.hpp"
#include "models/workload/workload_registry.hpp"

namespace walksim::workload {
namespace {

class RenameLoop final : public PerProcessWorkload {
 public:
  explicit RenameLoop(FileLoopParams p) : p_(std::move(p)) {}

  void build(kernel::Vfs& vfs, const std::vector<CpuId>& cpus, const RunControl& control, sim::Rng&) override {
    const kernel::DentryId cwd = vfs.mkpath(p_.cwd, true, 0u);
    for (std::size_t i = 0; i < cpus.size(); ++i) {
      const auto node = vfs.machine().node_of(vfs.machine().core_of(cpus[i]));
      kernel::DentryId dir = cwd;
      const std::string path = file_loop_path(vfs, cwd, p_, i, node, &dir);
      vfs.add_dentry(dir, "f" + std::to_string(i), false, false, node);  // the file exists beforehand
      const std::string other = path + ".renamed";
      add(vfs.new_process(cpus[i], cwd),
          std::make_unique<CyclicSource>(control, std::vector{rename_call(path, other), rename_call(other, path)},
                                         p_.user));
    }
  }
  std::string op_unit() const override { return "rename there and back"; }
  ResolvedParams params() const override { return resolve_params(file_loop_params(), p_); }

 private:
  static Syscall rename_call(const std::string& from, const std::string& to) {
    Syscall s = loop_call(kernel::Sys::kRename, from);
    s.path2 = to;
    return s;
  }

  FileLoopParams p_;
};

std::unique_ptr<Workload> make(const config::Node* params) {
  return std::make_unique<RenameLoop>(read_params(file_loop_params(), params, "rename-loop"));
}
std::vector<ParamDoc> describe() { return describe_params(file_loop_params()); }

}  // namespace

// Renames sleep on the parent's i_mutex when processes share the directory.
const WorkloadKind kRenameLoopKind{"rename-loop", "rename of a per-process file to a second name and back, in a loop",
                                   make, describe};

}  // namespace walksim::workload
