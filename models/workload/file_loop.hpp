// The per-process file loops (open-close, creat-unlink, rename-loop): every process works on its
// own file, in the shared cwd or a private subdirectory, repeating one cycle of calls on it. Each
// loop is its cycle, its unit and its kind; the parameters, the tree and the processes are here.
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

// One process per CPU, each repeating `cycle(path of its file)`; the file exists beforehand when
// `file_exists` (else the cycle creates it).
class FileLoop final : public PerProcessWorkload {
 public:
  using Cycle = std::vector<Syscall> (*)(const std::string& path);
  FileLoop(FileLoopParams p, Cycle cycle, bool file_exists, std::string op_unit)
      : p_(std::move(p)), cycle_(cycle), file_exists_(file_exists), op_unit_(std::move(op_unit)) {}

  void build(kernel::Vfs& vfs, const std::vector<CpuId>& cpus, const RunControl& control, sim::Rng& rng) override;
  std::string op_unit() const override { return op_unit_; }
  ResolvedParams params() const override { return resolve_params(file_loop_params(), p_); }

 private:
  FileLoopParams p_;
  Cycle cycle_;
  bool file_exists_;
  std::string op_unit_;
};

// Makes process i's directory (the cwd itself, or ./p<i>/ homed on its node) and returns the
// relative path of its file "f<i>" there; `dir` receives the directory.
std::string file_loop_path(kernel::Vfs& vfs, kernel::DentryId cwd, const FileLoopParams& p, std::size_t i,
                           std::uint32_t node, kernel::DentryId* dir);

}  // namespace walksim::workload
