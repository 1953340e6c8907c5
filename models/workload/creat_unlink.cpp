// creat-unlink: each process creates its own file (open O_WRONLY|O_CREAT of a name that does not
// exist), closes and unlinks it, in a loop (the published "creat/unlink loop" scenario, where
// 2.6.38's RCU-freed inodes cost extra). Files in one shared directory or a private one per process.
#include <string>

#include "models/workload/cyclic_source.hpp"
#include "models/workload/file_loop.hpp"
#include "models/workload/workload.hpp"
#include "models/workload/workload_registry.hpp"

namespace walksim::workload {
namespace {

using CreatUnlinkParams = FileLoopParams;

class CreatUnlink final : public PerProcessWorkload {
 public:
  explicit CreatUnlink(CreatUnlinkParams p) : p_(std::move(p)) {}

  void build(kernel::Vfs& vfs, const std::vector<CpuId>& cpus, const RunControl& control, sim::Rng&) override {
    const kernel::DentryId cwd = vfs.mkpath(p_.cwd, true, 0u);
    for (std::size_t i = 0; i < cpus.size(); ++i) {
      const auto node = vfs.machine().node_of(vfs.machine().core_of(cpus[i]));
      kernel::DentryId dir = cwd;
      const std::string path = file_loop_path(vfs, cwd, p_, i, node, &dir);
      add(vfs.new_process(cpus[i], cwd),
          std::make_unique<CyclicSource>(
              control,
              std::vector{loop_call(kernel::Sys::kOpen, path, /*create=*/true, /*write=*/true),
                          loop_call(kernel::Sys::kClose, path), loop_call(kernel::Sys::kUnlink, path)},
              p_.user));
    }
  }
  std::string op_unit() const override { return "creat/close/unlink"; }

  ResolvedParams params() const override { return resolve_params(file_loop_params(), p_); }

 private:
  CreatUnlinkParams p_;
};

std::unique_ptr<Workload> make(const config::Node* params) {
  return std::make_unique<CreatUnlink>(read_params(file_loop_params(), params, "creat-unlink"));
}
std::vector<ParamDoc> describe() { return describe_params(file_loop_params()); }

}  // namespace

const WorkloadKind kCreatUnlinkKind{
    "creat-unlink", "create (open O_CREAT), close and unlink a per-process file in a loop", make, describe};

}  // namespace walksim::workload
