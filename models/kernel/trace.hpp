// `walksim trace`: one system call of one process on an otherwise idle machine, every operation
// the simulator executes for it, named by kernel object, field and cacheline, with totals. With a
// contended lock, a second CPU holds one of the call's locks when the call reaches it, and the
// trace shows both CPUs: the caller's slow path (spinning, or queueing and sleeping) and the
// holder's release (for a sleeping lock, the wake-up it sends).
#pragma once

#include <optional>
#include <stdexcept>
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
  std::uint32_t cpu = 0;   // the CPU that issued it (the caller is CPU 0)
  sim::Picos at = 0;       // when it was issued, from the traced call's start
};

struct TraceTotals {
  std::uint64_t atomic_rmw = 0, load = 0, store = 0, lock_acquire = 0, prefetch = 0, fence = 0;
  std::uint64_t shared_rmw = 0, shared_store = 0;
  std::uint64_t restarts = 0;
  sim::Picos compute = 0;
  sim::Picos elapsed = 0;  // simulated time of the call, cold caches but set-up done
  sim::Picos asleep = 0;   // of it, time the caller slept or its CPU idled (a contended sleeping lock)
};

// The lock another CPU holds when the traced call reaches it (TraceRequest::contend).
struct TraceContention {
  std::string object, field;  // the lock: "inode of 'ram'", "i_mutex"
  std::string kop;            // how the call takes it: "mutex_lock", "spin_lock"
  std::uint32_t holder_cpu = 0;
  sim::Picos held_from = 0, hold = 0;  // from the traced call's start (held_from is negative time: before it)
};

struct TraceResult {
  std::string kernel, machine, syscall, cwd;
  bool failed = false;
  std::optional<TraceContention> contention;  // ops then hold both CPUs', in issue order
  std::vector<TraceOp> ops;
  TraceTotals totals;
};

struct TraceRequest {
  std::string syscall;  // "stat ./file"
  std::string cwd = "/home/user";
  KernelOptions options;
  bool acl_on_dirs = false;  // every directory carries a cached POSIX ACL
  // The tree is on a disk filesystem: no dentry is pinned, so a stat's last dput brings its file's
  // count to 0 (Dentry::disk_fs). Only for calls that open nothing (stat, lstat).
  bool disk = false;
  std::vector<std::string> files;                             // other regular files to create first
  std::vector<std::pair<std::string, std::string>> symlinks;  // (link path, target), made before the call
  // A lock field the call takes ("i_mutex", "files_lock", "d_lock"; the first the call takes by
  // that name) that CPU `holder_cpu` acquires just before the call starts and holds for `hold`.
  std::string contend;
  sim::Picos hold = sim::from_ns(20000);
  std::optional<std::uint32_t> holder_cpu;  // default: the machine's last CPU
};

// A request the trace cannot honour (an unknown lock field, a holder CPU out of range): the
// message says what would be valid.
class TraceRequestError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// Sets up the files the call needs (the path exists; descriptor calls open it first), runs the
// set-up and then the call, and returns what the call executed. Throws std::invalid_argument for
// a syscall string that does not parse, TraceRequestError for a contention it cannot set up.
TraceResult trace_syscall(const machine::Machine& m, const KernelSpec& k, const TraceRequest& req);

}  // namespace walksim::kernel
