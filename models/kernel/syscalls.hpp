// Expands a system call of one process into kernel operations for the kernel variant, from the
// sequences of pathwalk.md §4–§7. Changes to the dentry tree and the descriptor table take effect
// when the call is expanded (at its start); a call restarted after a failed rcu-walk is expanded
// again against the tree as it then is.
#pragma once

#include <vector>

#include "models/kernel/path_walk.hpp"
#include "models/kernel/syscall.hpp"

namespace walksim::kernel {

struct Expansion {
  std::vector<KOp> ops;
  bool failed = false;  // the call returns an error (ENOENT, EBADF...)
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
