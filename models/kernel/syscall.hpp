// A system call as the workloads and `walksim trace` name it: "stat ./file", "open ./f
// O_WRONLY|O_CREAT", "write ./f 3", "rename ./a ./b". File-descriptor calls name the path the
// descriptor was opened on; the process keeps the descriptor from its open().
#pragma once

#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "models/kernel/bench_args.hpp"
#include "sim/time.hpp"

namespace walksim::kernel {

enum class Sys : std::uint8_t {
  kStat,
  kLstat,
  kFstat,
  kOpen,
  kClose,
  kRead,
  kPread,
  kWrite,
  kPwrite,
  kUnlink,
  kRename,
  kMkdir,
  kRmdir,
  kReaddir,  // opendir + readdir (getdents until empty) + closedir
  kStatfs,
  kFsync,
  kUtime,
  kFcntlLock,
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
  // User-space memory the program touches before the call, on lines the workload made (its own data
  // structures: git's in-memory index); their time is user time, as the user_before work is.
  struct UserAccess {
    std::uint32_t line = 0;
    bool write = false;
  };
  static constexpr std::size_t kMaxUserAccesses = 6;
  std::array<UserAccess, kMaxUserAccesses> user_accesses{};
  std::uint8_t user_access_count = 0;
  void add_user_access(std::uint32_t line, bool is_write) {
    if (user_access_count == kMaxUserAccesses) throw std::logic_error("too many user accesses before one call");
    user_accesses[user_access_count++] = {line, is_write};
  }
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

// What must exist before a call can be traced alone (`walksim trace` sets it up).
enum class TraceSetup : std::uint8_t {
  kFile,           // the path, as a regular file
  kNothing,        // the path's parents only (mkdir makes it)
  kDirectory,      // the path, as a directory (rmdir, readdir)
  kFileAndParent,  // rename: the old path as a file, the new path's parents
  kOpenFile,       // the path as a file, opened first (a descriptor call)
};

// Everything the kernel model knows about a call besides its arguments: one row per Sys, in
// syscall.cpp's table (the parser, the expander, the expansion cache and the tracer read it).
struct SysTraits {
  const char* name;
  Sys sys;
  std::uint8_t paths;     // path arguments in the syscall language
  bool bytes;             // takes a size (lock-hold: nanoseconds)
  std::uint8_t getnames;  // getname() copies of a user path: each costs `getname` cycles
  bool syscall_entry;     // pays the system-call entry (`syscall`); the microbenchmarks' ops do not
  bool cacheable;         // its expansion changes neither the tree nor the descriptor table
  bool parsed;            // written in the syscall language (atomic-op is made by its workload)
  TraceSetup setup;
};

// The row of `s`.
const SysTraits& sys_traits(Sys s);

// Parses "NAME ARGS...". Throws std::invalid_argument with a message saying what is wrong and
// what is accepted.
Syscall parse_syscall(const std::string& text);
std::string to_string(const Syscall& s);
const char* sys_name(Sys s);

}  // namespace walksim::kernel
