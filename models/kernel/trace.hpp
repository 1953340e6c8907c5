// `walksim trace`: one system call of one process on an otherwise idle machine, every operation
// the simulator executes for it, named by kernel object, field and cacheline, with totals.
#pragma once

#include <string>
#include <vector>

#include "models/kernel/kernel_spec.hpp"
#include "models/machine/machine.hpp"
#include "sim/time.hpp"

namespace walksim::kernel {

struct TraceOp {
  std::string kop;         // kernel operation ("spin_lock", "atomic", "seq_begin", ...)
  std::string op;          // executed operation ("load", "store", "rmw", "cas", "spin", ...)
  std::string object;      // "dentry 'file'", "vfsmount", ...
  std::uint32_t line = 0;  // line index within the object
  std::string line_fields;
  std::string field;
  bool shared = false;
  sim::Picos compute = 0;  // for compute steps
};

struct TraceTotals {
  std::uint64_t atomic_rmw = 0, load = 0, store = 0, lock_acquire = 0, prefetch = 0, fence = 0;
  std::uint64_t shared_rmw = 0, shared_store = 0;
  std::uint64_t restarts = 0;
  sim::Picos compute = 0;
  sim::Picos elapsed = 0;  // simulated time of the call, cold caches but set-up done
};

struct TraceResult {
  std::string kernel, machine, syscall, cwd;
  bool failed = false;
  std::vector<TraceOp> ops;
  TraceTotals totals;
};

struct TraceRequest {
  std::string syscall;  // "stat ./file"
  std::string cwd = "/home/user";
  KernelOptions options;
  bool acl_on_dirs = false;                                   // every directory carries a cached POSIX ACL
  std::vector<std::string> files;                             // other regular files to create first
  std::vector<std::pair<std::string, std::string>> symlinks;  // (link path, target), made before the call
};

// Sets up the files the call needs (the path exists; descriptor calls open it first), runs the
// set-up and then the call, and returns what the call executed. Throws std::invalid_argument for
// a syscall string that does not parse.
TraceResult trace_syscall(const machine::Machine& m, const KernelSpec& k, const TraceRequest& req);

}  // namespace walksim::kernel
