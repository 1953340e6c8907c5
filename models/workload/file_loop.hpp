// The parameters and file placement shared by the per-process file loops (open-close,
// creat-unlink): every process works on its own file, in the shared cwd or a private subdirectory.
#pragma once

#include <string>

#include "models/workload/workload.hpp"

namespace walksim::workload {

struct FileLoopParams {
  bool shared_dir = true;  // all files in the cwd, else "./p<i>/" per process
  std::string cwd = "/mnt/ram";
  Picos user = 0;  // user-space time per iteration
};

// The table of `shared_dir`, `cwd` and `user_time` (all optional).
std::span<const Param<FileLoopParams>> file_loop_params();

// Makes process i's directory (the cwd itself, or ./p<i>/ homed on its node) and returns the
// relative path of its file "f<i>" there; `dir` receives the directory.
std::string file_loop_path(kernel::Vfs& vfs, kernel::DentryId cwd, const FileLoopParams& p, std::size_t i,
                           std::uint32_t node, kernel::DentryId* dir);

}  // namespace walksim::workload
