// A system call as the workloads and `walksim trace` name it: "stat ./file", "open ./f
// O_WRONLY|O_CREAT", "write ./f 3", "rename ./a ./b". File-descriptor calls name the path the
// descriptor was opened on; the process keeps the descriptor from its open().
#pragma once

#include <cstdint>
#include <string>

#include "models/kernel/bench_args.hpp"
#include "sim/time.hpp"

namespace walksim::kernel {

enum class Sys : std::uint8_t {
  kStat, kLstat, kFstat, kOpen, kClose, kRead, kPread, kWrite, kPwrite, kUnlink, kRename, kMkdir, kRmdir,
  kReaddir,  // opendir + readdir (getdents until empty) + closedir
  kStatfs, kFsync, kUtime, kFcntlLock,
  kLockHold,  // not a system call: spin_lock(test_lock), `bytes` ns of work, spin_unlock (lock-loop)
  kAtomicOp,  // not a system call: one atomic operation on a shared line (atomic-stress); not parsed
};

struct Syscall {
  Sys sys = Sys::kStat;
  std::string path;
  std::string path2;        // rename's new name
  bool create = false;      // open: O_CREAT
  bool write = false;       // open: O_WRONLY or O_RDWR
  bool directory = false;   // open: O_DIRECTORY
  std::uint64_t bytes = 0;  // read / write size
  BenchArgs bench;          // lock-hold and atomic-op: what they work on (bench_args.hpp)
  // Workload context, not part of the call: user-space work done before it, and whether the call
  // completes one operation of the workload (a dbench op, an openbench loop, a stat).
  sim::Picos user_before = 0;
  // The user time starts once the process's own earlier stores are visible to the other CPUs (a
  // benchmark pause sized so that its last store, a lock release, is seen before it goes on).
  bool user_after_own_stores = false;
  bool ends_op = false;
};

// The most one read or write moves in Linux: MAX_RW_COUNT, INT_MAX rounded down to a 4 KiB page
// (rw_verify_area). A larger count in the syscall language is an error, not a short transfer.
inline constexpr std::uint64_t kMaxRwCount = 0x7ffff000;
// The longest lock-hold (its count is nanoseconds of work under the lock): one second, far beyond
// any critical section, and small enough that the work in picoseconds cannot overflow.
inline constexpr std::uint64_t kMaxLockHoldNs = 1'000'000'000;

// Parses "NAME ARGS...". Throws std::invalid_argument with a message saying what is wrong and
// what is accepted.
Syscall parse_syscall(const std::string& text);
std::string to_string(const Syscall& s);
const char* sys_name(Sys s);

}  // namespace walksim::kernel
