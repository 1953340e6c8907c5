// open-close: each process opens its own existing file O_RDONLY and closes it, in a loop (the
// published "open/close loop" scenario). The files sit in one shared directory or in a private
// directory per process.
#include <string>

#include "models/workload/cyclic_source.hpp"
#include "models/workload/file_loop.hpp"
#include "models/workload/workload.hpp"
#include "models/workload/workload_registry.hpp"

namespace walksim::workload {
namespace {

using OpenCloseParams = FileLoopParams;

class OpenClose final : public PerProcessWorkload {
 public:
  explicit OpenClose(OpenCloseParams p) : p_(std::move(p)) {}

  void build(kernel::Vfs& vfs, const std::vector<CpuId>& cpus, const RunControl& control, sim::Rng&) override {
    const kernel::DentryId cwd = vfs.mkpath(p_.cwd, true, 0u);
    for (std::size_t i = 0; i < cpus.size(); ++i) {
      const auto node = vfs.machine().node_of(vfs.machine().core_of(cpus[i]));
      kernel::DentryId dir = cwd;
      const std::string path = file_loop_path(vfs, cwd, p_, i, node, &dir);
      vfs.add_dentry(dir, "f" + std::to_string(i), false, false, node);  // the file exists beforehand
      add(vfs.new_process(cpus[i], cwd),
          std::make_unique<CyclicSource>(
              control, std::vector{loop_call(kernel::Sys::kOpen, path), loop_call(kernel::Sys::kClose, path)},
              p_.user));
    }
  }
  std::string op_unit() const override { return "open/close"; }

  ResolvedParams params() const override { return resolve_params(file_loop_params(), p_); }

 private:
  OpenCloseParams p_;
};

std::unique_ptr<Workload> make(const config::Node* params) {
  return std::make_unique<OpenClose>(read_params(file_loop_params(), params, "open-close"));
}
std::vector<ParamDoc> describe() { return describe_params(file_loop_params()); }

}  // namespace

const WorkloadKind kOpenCloseKind{
    "open-close",       "open O_RDONLY and close of an existing per-process file in a loop", make, describe,
    /*seeded=*/false,
    /*may_sleep=*/false};

}  // namespace walksim::workload
