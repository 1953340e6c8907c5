// Expands a system call of one process into kernel operations for the kernel variant, from the
// sequences of pathwalk.md §4–§7. Changes to the dentry tree and the descriptor table take effect
// when the call is expanded (at its start); a call restarted after a failed rcu-walk is expanded
// again against the tree as it then is.
#pragma once

#include <cstdint>
#include <vector>

#include "models/exec/op.hpp"
#include "models/kernel/path_walk.hpp"
#include "models/kernel/syscall.hpp"

namespace walksim::kernel {

// The loads, stores and locked RMWs of the plain KOps before a KOp (Expansion::counts).
struct PlainCounts {
  std::uint32_t loads = 0, stores = 0, rmw = 0;
};

struct Expansion {
  std::vector<KOp> ops;
  bool failed = false;  // the call returns an error (ENOENT, EBADF...)
  // The expansion compiled for replay (KOpRunner::compile, on its second reuse; expand() clears
  // it): plain[i] is the exec Op of KOp i when that KOp is one Op whose result nothing reads (a
  // plain KOp), run_end[i] the first KOp at or after i that is not plain (run_end[n] = n), counts[i]
  // the plain KOps' operations before i. A run of plain KOps is handed to the executor at once
  // (Program::take_run).
  std::vector<exec::Op> plain;
  std::vector<std::uint32_t> run_end;
  std::vector<PlainCounts> counts;
};

class SyscallExpander {
 public:
  SyscallExpander(Vfs& vfs, KernelOptions opts, double cost_scale = 1.0)
      : vfs_(vfs), opts_(opts), cost_scale_(cost_scale) {}

  // Expands `s` for process `p` into `out` (cleared first). `force_ref` runs every lookup in
  // ref-walk (the restart after an rcu-walk d_seq failure).
  void expand(const Syscall& s, Process& p, bool force_ref, Expansion& out, WalkStats& stats);

  const KernelOptions& options() const { return opts_; }
  void set_cost_scale(double s) { cost_scale_ = s; }

 private:
  Vfs& vfs_;
  KernelOptions opts_;
  double cost_scale_;
};

}  // namespace walksim::kernel
