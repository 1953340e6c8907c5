// The pieces syscalls share: the expansion context, descriptor-table handling, file creation and
// removal on ramfs (their dcache steps are dcache_ops.hpp's), iput-to-zero, and
// the descriptor-based calls (open, close, read, write, readdir, fsync, fcntl locks).
#pragma once

#include <optional>
#include <string>

#include "models/kernel/dcache_ops.hpp"
#include "models/kernel/syscalls.hpp"

namespace walksim::kernel {

struct Ctx {
  Emitter& e;
  Process& p;
  Vfs& vfs;
  const KernelOptions& opts;
  WalkStats& stats;
  bool force_ref;
  Expansion& out;
};

// The descriptor opened on `path` (the most recent still open), or -1.
int find_fd(const Ctx& c, const std::string& path);
// fget_light: a single-threaded process reads its fd table without a reference.
void fget_light(Ctx& c);
// The dentry of the descriptor a call names (after fget_light), or nullptr with the call failed.
const Dentry* fd_target(Ctx& c, const Syscall& s);
// __lookup_hash under the directory's i_mutex: the found dentry with a reference taken, or nullopt
// (ramfs: the negative dentry is allocated and killed again).
std::optional<DentryId> lookup_hash(Ctx& c, DentryId dir, const std::string& name);
// Creates `name` in `dir` (vfs_create / vfs_mkdir on ramfs): d_alloc, new_inode, d_instantiate,
// d_rehash, the ramfs pin, the parent's times. The dentry joins the tree when the call commits.
// Returns nothing: the new dentry does not exist until then; its objects are allocated now.
DentryId create_entry(Ctx& c, DentryId dir, const std::string& name, bool is_dir);
// vfs_unlink / vfs_rmdir and d_delete, then the final dput that kills the dentry. The inode's
// last reference is dropped by final_iput afterwards (after the directory's i_mutex).
void remove_file(Ctx& c, DentryId dir, DentryId victim, bool is_dir);
void final_iput(Ctx& c, DentryId victim);

void sys_open(Ctx& c, const Syscall& s);
void sys_close(Ctx& c, const Syscall& s);
void sys_read(Ctx& c, const Syscall& s);
void sys_write(Ctx& c, const Syscall& s);
void sys_readdir(Ctx& c, const Syscall& s);
void sys_fsync(Ctx& c, const Syscall& s);
void sys_fcntl_lock(Ctx& c, const Syscall& s);

}  // namespace walksim::kernel
