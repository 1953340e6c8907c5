// Shared parameters and file placement of the per-process file loops.
#include "models/workload/file_loop.hpp"

#include "models/config/limits.hpp"
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

}  // namespace walksim::workload
