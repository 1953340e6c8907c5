// Shared parameters and file placement of the per-process file loops.
#include "models/workload/file_loop.hpp"

#include "models/config/limits.hpp"
#include "models/workload/path_param.hpp"

namespace walksim::workload {

FileLoopParams read_file_loop_params(const config::Node* params) {
  FileLoopParams p;
  if (!params) return p;
  if (auto n = params->optional("shared_dir")) p.shared_dir = n->as_bool();
  if (auto n = params->optional("cwd")) {
    p.cwd = read_absolute_dir(*n, "cwd", "/mnt/ram");
  }
  if (auto n = params->optional("user_time")) p.user = config::operation_time(*n);
  return p;
}

std::string file_loop_path(kernel::Vfs& vfs, kernel::DentryId cwd, const FileLoopParams& p, std::size_t i,
                           std::uint32_t node, kernel::DentryId* dir) {
  const std::string sub = p.shared_dir ? "" : "p" + std::to_string(i);
  *dir = sub.empty() ? cwd : vfs.add_dentry(cwd, sub, true, false, node);
  return "./" + (sub.empty() ? "" : sub + "/") + "f" + std::to_string(i);
}

}  // namespace walksim::workload
