// Shared parameters and file placement of the per-process file loops.
#include "models/workload/file_loop.hpp"

#include "models/config/limits.hpp"
#include "models/workload/cyclic_source.hpp"
#include "models/workload/path_param.hpp"

namespace walksim::workload {

namespace {

constexpr Param<FileLoopParams> kParams[] = {
    {"shared_dir", "every process's file in the shared cwd (true) or in its own subdirectory ./p<i>/",
     [](const config::Node& n, FileLoopParams& p) { p.shared_dir = n.as_bool(); },
     [](const FileLoopParams& p) -> ParamValue { return p.shared_dir; }},
    {"cwd", "the shared working directory (absolute)",
     [](const config::Node& n, FileLoopParams& p) { p.cwd = read_absolute_dir(n, "cwd", "/mnt/ram"); },
     [](const FileLoopParams& p) -> ParamValue { return p.cwd; }},
    {"user_time", "user-space time per iteration",
     [](const config::Node& n, FileLoopParams& p) { p.user = config::operation_time(n); },
     [](const FileLoopParams& p) -> ParamValue { return time_text(p.user); }},
};

}  // namespace

std::span<const Param<FileLoopParams>> file_loop_params() { return kParams; }

std::string file_loop_path(kernel::Vfs& vfs, kernel::DentryId cwd, const FileLoopParams& p, std::size_t i,
                           std::uint32_t node, kernel::DentryId* dir) {
  const std::string sub = p.shared_dir ? "" : "p" + std::to_string(i);
  *dir = sub.empty() ? cwd : vfs.add_dentry(cwd, sub, true, false, node);
  return "./" + (sub.empty() ? "" : sub + "/") + "f" + std::to_string(i);
}

void FileLoop::build(kernel::Vfs& vfs, const std::vector<CpuId>& cpus, const RunControl& control, sim::Rng&) {
  const kernel::DentryId cwd = vfs.mkpath(p_.cwd, true, 0u);
  for (std::size_t i = 0; i < cpus.size(); ++i) {
    const auto node = vfs.machine().node_of(vfs.machine().core_of(cpus[i]));
    kernel::DentryId dir = cwd;
    const std::string path = file_loop_path(vfs, cwd, p_, i, node, &dir);
    if (file_exists_) vfs.add_dentry(dir, "f" + std::to_string(i), false, false, node);
    add(vfs.new_process(cpus[i], cwd), std::make_unique<CyclicSource>(control, cycle_(path), p_.user));
  }
}

}  // namespace walksim::workload
