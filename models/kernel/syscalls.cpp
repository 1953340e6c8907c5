// One function per system call. Each follows the kernel's call chain of its era in order; the
// variant's switches are applied inside the Emitter helpers and the few branches below.
#include "models/kernel/syscalls.hpp"

#include <iterator>
#include <stdexcept>

#include "models/kernel/bench_calls.hpp"
#include "models/kernel/file_ops.hpp"

namespace walksim::kernel {

namespace {

WalkRequest request(std::string_view path, bool want_parent, bool save) {
  WalkRequest r;
  r.components = split_path(path, &r.absolute);
  r.want_parent = want_parent;
  r.save = save;
  return r;
}

// Ends a lookup that took references: the saved start point (path_walk) and the result.
void put_walk(Ctx& c, const WalkResult& w, DentryId start) {
  if (w.saved) put_path(c.e, start);
  if (!w.holds_refs) return;
  put_path(c.e, w.target != kNoDentry ? w.target : w.dir);
}

// user_path_parent for unlink, rmdir and mkdir: the walk to the parent with path_walk's saved
// start put back at its end. nullopt (the call failed, references dropped) when it fails.
std::optional<WalkResult> walk_parent(Ctx& c, const std::string& path) {
  auto req = request(path, true, true);
  const DentryId start = req.absolute ? c.p.root : c.p.cwd;
  const WalkResult w = walk_path(c.e, c.p, req, c.opts, c.force_ref, c.stats);
  if (w.saved) put_path(c.e, start);
  if (!w.holds_refs || w.last.empty()) {
    c.out.failed = true;
    if (w.holds_refs) put_path(c.e, w.dir);
    return std::nullopt;
  }
  return w;
}

namespace {

// vfs_getattr of 2.6.35/2.6.38 (docs/reference/slab-hash-layouts.md §5): security_inode_getattr
// reads i_flags (IS_PRIVATE), the inode's i_op says which getattr; generic_fillattr copies its
// fields into the kstat in this order (s_dev through i_sb), and ramfs's simple_getattr for a
// regular file adds i_mapping->nrpages (its own i_data); a disk filesystem's is generic_fillattr
// alone (ext3 has no getattr), and ext4's adds a field of its own inode container
// (docs/reference/diskfs-lstat.md §3). Then cp_new_stat (private work).
void getattr(Ctx& c, const Dentry& d) {
  const ObjId in = d.inode;
  c.e.load(d.obj, "d_inode");
  c.e.load(in, "i_flags");
  c.e.load(in, "i_op");
  c.e.load(in, "i_sb");
  c.e.load(c.vfs.super_block(), "s_dev");
  for (const char* f : {"i_ino", "i_mode", "i_nlink", "i_uid", "i_gid", "i_rdev", "i_atime", "i_mtime", "i_ctime",
                        "i_size", "i_blocks", "i_blkbits"}) {
    c.e.load(in, f);
  }
  if (!d.dir && !d.symlink && !d.disk_fs()) {
    c.e.load(in, "i_mapping");
    c.e.load(in, "i_nrpages");
  }
  if (!d.dir && !d.symlink && d.fs == Filesystem::kExt4) {
    // ext4_getattr (regular files only): the delayed-allocation blocks of its own inode container,
    // under i_block_reservation_lock in 2.6.35 (docs/reference/diskfs-lstat.md §3).
    using Getattr = KernelSpec::FsInodeCache::Getattr;
    const bool locked = c.vfs.spec().filesystems.at("ext4").getattr == Getattr::kExt4Locked;
    if (locked) c.e.lock(in, "i_block_reservation_lock");
    c.e.load(in, "i_reserved_data_blocks");
    if (locked) c.e.unlock(in, "i_block_reservation_lock");
  }
  c.e.compute("getattr");
}

}  // namespace

void sys_stat(Ctx& c, const Syscall& s) {
  auto req = request(s.path, false, true);
  req.follow = s.sys == Sys::kStat;
  req.keep_rcu = c.vfs.spec().walk == WalkKind::kStoreFree;
  const DentryId start = req.absolute ? c.p.root : c.p.cwd;
  const WalkResult w = walk_path(c.e, c.p, req, c.opts, c.force_ref, c.stats);
  if (w.saved) put_path(c.e, start);  // path_walk's path_put(&save), before the attributes are read
  if (w.target == kNoDentry) {
    c.out.failed = true;
    if (w.holds_refs) put_path(c.e, w.dir);
    return;
  }
  getattr(c, c.vfs.dentry(w.target));
  if (w.in_rcu) {
    // Store-free stat: the attributes were read under RCU; leave without ever taking a reference.
    c.e.seq_check(c.vfs.dentry(w.target).obj, "d_seq");
    c.e.vfsmount_read_unlock();
    return;
  }
  put_path(c.e, w.target);
}

void sys_fstat(Ctx& c, const Syscall& s) {
  const Dentry* d = fd_target(c, s);
  if (!d) return;
  getattr(c, *d);
}

void sys_statfs(Ctx& c, const Syscall& s) {
  auto req = request(s.path, false, true);
  const DentryId start = req.absolute ? c.p.root : c.p.cwd;
  const WalkResult w = walk_path(c.e, c.p, req, c.opts, c.force_ref, c.stats);
  if (w.target == kNoDentry) {
    c.out.failed = true;
    put_walk(c, w, start);
    return;
  }
  c.e.load(c.vfs.super_block(), "s_flags");
  c.e.load(c.vfs.super_block(), "s_op");
  c.e.compute("statfs");
  put_walk(c, w, start);
}

void sys_utime(Ctx& c, const Syscall& s) {
  auto req = request(s.path, false, true);
  const DentryId start = req.absolute ? c.p.root : c.p.cwd;
  const WalkResult w = walk_path(c.e, c.p, req, c.opts, c.force_ref, c.stats);
  if (w.target == kNoDentry) {
    c.out.failed = true;
    put_walk(c, w, start);
    return;
  }
  const ObjId in = c.vfs.dentry(w.target).inode;
  c.e.mnt_want_write();
  c.e.mutex_lock(in, "i_mutex");
  c.e.store(in, "i_mtime");  // notify_change → simple_setattr
  c.e.compute("setattr");
  c.e.mutex_unlock(in, "i_mutex");
  c.e.mnt_drop_write();
  put_walk(c, w, start);
}

// do_unlinkat / do_rmdir: the parent's i_mutex, the lookup, vfs_unlink or vfs_rmdir, d_delete and
// the dentry's death, then the inode's last iput after the parent's mutex is released.
void remove_entry(Ctx& c, const Syscall& s, bool is_dir) {
  const auto walked = walk_parent(c, s.path);
  if (!walked) return;
  const WalkResult& w = *walked;
  const DentryId dir = w.dir;
  const ObjId dir_in = c.vfs.dentry(dir).inode;
  c.e.mutex_lock(dir_in, "i_mutex");
  const auto victim = lookup_hash(c, dir, w.last);
  // unlink of a directory is EISDIR, rmdir of a file ENOTDIR, rmdir of a non-empty one ENOTEMPTY.
  const bool wrong = victim && (c.vfs.dentry(*victim).dir != is_dir || (is_dir && !c.vfs.children(*victim).empty()));
  if (!victim || wrong) {
    if (victim) c.e.dput(*victim);
    c.e.mutex_unlock(dir_in, "i_mutex");
    c.out.failed = true;
    put_path(c.e, dir);
    return;
  }
  remove_file(c, dir, *victim, is_dir);
  c.e.mutex_unlock(dir_in, "i_mutex");
  final_iput(c, *victim);
  put_path(c.e, dir);
}

void sys_unlink(Ctx& c, const Syscall& s) { remove_entry(c, s, false); }
void sys_rmdir(Ctx& c, const Syscall& s) { remove_entry(c, s, true); }

void sys_mkdir(Ctx& c, const Syscall& s) {
  const auto walked = walk_parent(c, s.path);
  if (!walked) return;
  const WalkResult& w = *walked;
  if (c.vfs.child(w.dir, w.last)) {  // EEXIST
    c.out.failed = true;
    put_path(c.e, w.dir);
    return;
  }
  const ObjId dir_in = c.vfs.dentry(w.dir).inode;
  c.e.mutex_lock(dir_in, "i_mutex");
  if (c.vfs.spec().rename_seqlock_in_lookup) c.e.seq_begin(c.vfs.globals(), "rename_lock");
  c.e.hash_chain(c.vfs.bucket_of(w.dir, w.last), std::nullopt);
  c.e.mnt_want_write();
  create_entry(c, w.dir, w.last, true);
  c.e.mnt_drop_write();
  c.e.mutex_unlock(dir_in, "i_mutex");
  put_path(c.e, w.dir);
}

// Whether `a` is `d` or one of its ancestors (d_ancestor, or the same dentry).
bool is_ancestor_or_self(const Vfs& vfs, DentryId a, DentryId d) {
  for (; d != kNoDentry; d = vfs.dentry(d).parent) {
    if (d == a) return true;
  }
  return false;
}

// lock_rename: across directories the per-superblock s_vfs_rename_mutex first, then each parent's
// i_mutex; unlock_rename in the reverse order.
struct RenameLock {
  Ctx& c;
  ObjId d1, d2;
  bool cross;
  void lock() const {
    if (cross) c.e.mutex_lock(c.vfs.super_block(), "s_vfs_rename_mutex");
    c.e.mutex_lock(d1, "i_mutex");
    if (cross) c.e.mutex_lock(d2, "i_mutex");
  }
  void unlock() const {
    if (cross) c.e.mutex_unlock(d2, "i_mutex");
    c.e.mutex_unlock(d1, "i_mutex");
    if (cross) c.e.mutex_unlock(c.vfs.super_block(), "s_vfs_rename_mutex");
  }
};

enum class RenameDone { kFailed, kSameInode, kMoved };

// Under lock_rename: the source and target lookups, the checks, and vfs_rename with simple_rename.
// Drops what it looked up and calls `lock.unlock()` where the kernel does; on kMoved, `*moved` is
// the source dentry, whose move in the model's tree is the caller's (after its puts).
RenameDone rename_locked(Ctx& c, const WalkResult& w1, const WalkResult& w2, const RenameLock& lock, DentryId* moved) {
  const auto old_d = lookup_hash(c, w1.dir, w1.last);
  if (!old_d) {
    lock.unlock();
    return RenameDone::kFailed;
  }
  if (is_ancestor_or_self(c.vfs, *old_d, w2.dir)) {  // EINVAL
    c.e.dput(*old_d);
    lock.unlock();
    return RenameDone::kFailed;
  }
  const auto new_d = lookup_hash(c, w2.dir, w2.last);
  auto drop = [&] {
    if (new_d) c.e.dput(*new_d);
    c.e.dput(*old_d);
    lock.unlock();
    return RenameDone::kFailed;
  };
  if (new_d && is_ancestor_or_self(c.vfs, *new_d, w1.dir)) return drop();  // ENOTEMPTY
  c.e.mnt_want_write();
  if (new_d == old_d) {  // the same inode: nothing to do, and success
    c.e.mnt_drop_write();
    c.e.dput(*new_d);
    c.e.dput(*old_d);
    lock.unlock();
    return RenameDone::kSameInode;
  }
  if (new_d) {
    const Dentry& from = c.vfs.dentry(*old_d);
    const Dentry& to = c.vfs.dentry(*new_d);
    // may_delete: ENOTDIR or EISDIR; simple_rename's simple_empty: ENOTEMPTY. (The model does not
    // emit simple_empty's d_subdirs walk, on success either.)
    if (from.dir != to.dir || (to.dir && !c.vfs.children(*new_d).empty())) {
      c.e.mnt_drop_write();
      return drop();
    }
  }
  c.e.compute("rename");
  if (new_d) {  // simple_rename unlinks the target under its i_mutex
    const ObjId tin = c.vfs.dentry(*new_d).inode;
    c.e.mutex_lock(tin, "i_mutex");
    c.e.store(tin, "i_nlink");
    c.e.mutex_unlock(tin, "i_mutex");
  }
  d_move(c.e, *old_d, w2.dir, w2.last, new_d);
  c.e.mnt_drop_write();
  lock.unlock();
  if (new_d) c.e.dput(*new_d);
  c.e.dput(*old_d);
  *moved = *old_d;
  return RenameDone::kMoved;
}

// sys_renameat: both parents, lock_rename, the source and target lookups, and vfs_rename with
// simple_rename. Its errors fail the call after unwinding what was taken: ENOENT (no source),
// EINVAL (a directory into its own subtree: the source is lock_rename's trap), ENOTEMPTY (the
// target is an ancestor of the source, or a non-empty directory), ENOTDIR and EISDIR (may_delete:
// a directory onto a non-directory, or the reverse). Renaming a name onto itself succeeds doing
// nothing (vfs_rename: same inode).
void sys_rename(Ctx& c, const Syscall& s) {
  auto r1 = request(s.path, true, true);
  auto r2 = request(s.path2, true, true);
  const DentryId s1 = r1.absolute ? c.p.root : c.p.cwd;
  const DentryId s2 = r2.absolute ? c.p.root : c.p.cwd;
  const WalkResult w1 = walk_path(c.e, c.p, r1, c.opts, c.force_ref, c.stats);
  if (w1.saved) put_path(c.e, s1);
  const WalkResult w2 = walk_path(c.e, c.p, r2, c.opts, c.force_ref, c.stats);
  if (w2.saved) put_path(c.e, s2);
  RenameDone done = RenameDone::kFailed;
  DentryId moved = kNoDentry;
  if (w1.holds_refs && w2.holds_refs && !w1.last.empty() && !w2.last.empty()) {
    const RenameLock lock{c, c.vfs.dentry(w1.dir).inode, c.vfs.dentry(w2.dir).inode, w1.dir != w2.dir};
    lock.lock();
    done = rename_locked(c, w1, w2, lock, &moved);
  }
  if (done == RenameDone::kFailed) c.out.failed = true;
  if (w2.holds_refs) put_path(c.e, w2.dir);
  if (w1.holds_refs) put_path(c.e, w1.dir);
  if (done == RenameDone::kMoved) c.vfs.move_dentry(moved, w2.dir, w2.last);
}

void lock_hold(Ctx& c, const Syscall& s) { expand_lock_hold(c.e, s); }
void atomic_op(Ctx& c, const Syscall& s) { expand_atomic_op(c.e, s); }

// Each call's expansion, in Sys's order (the call's other properties are sys_traits').
using Expander = void (*)(Ctx&, const Syscall&);
struct ExpanderRow {
  Sys sys;
  Expander expand;
};
constexpr ExpanderRow kExpanders[] = {
    {Sys::kStat, sys_stat},      {Sys::kLstat, sys_stat},      {Sys::kFstat, sys_fstat},
    {Sys::kOpen, sys_open},      {Sys::kClose, sys_close},     {Sys::kRead, sys_read},
    {Sys::kPread, sys_read},     {Sys::kWrite, sys_write},     {Sys::kPwrite, sys_write},
    {Sys::kUnlink, sys_unlink},  {Sys::kRename, sys_rename},   {Sys::kMkdir, sys_mkdir},
    {Sys::kRmdir, sys_rmdir},    {Sys::kReaddir, sys_readdir}, {Sys::kStatfs, sys_statfs},
    {Sys::kFsync, sys_fsync},    {Sys::kUtime, sys_utime},     {Sys::kFcntlLock, sys_fcntl_lock},
    {Sys::kLockHold, lock_hold}, {Sys::kAtomicOp, atomic_op},
};
constexpr bool in_sys_order() {
  for (std::size_t i = 0; i < std::size(kExpanders); ++i) {
    if (static_cast<std::size_t>(kExpanders[i].sys) != i) return false;
  }
  return true;
}
static_assert(in_sys_order() && std::size(kExpanders) == static_cast<std::size_t>(Sys::kAtomicOp) + 1,
              "kExpanders has one row per Sys, in Sys's order");

}  // namespace

void SyscallExpander::expand(const Syscall& s, Process& p, bool force_ref, Expansion& out, WalkStats& stats) {
  out.ops.clear();
  out.run_end.clear();  // not compiled until KOpRunner::compile
  out.failed = false;
  Emitter e(vfs_, out.ops, p.cpu, cost_scale_);
  Ctx c{e, p, vfs_, opts_, stats, force_ref, out};
  const SysTraits& t = sys_traits(s.sys);
  if (t.syscall_entry) e.compute("syscall");  // the microbenchmarks' operations have none around them
  if (t.getnames) {
    // getname: the names_cache buffer, then strncpy_from_user of each path with its NUL.
    e.compute("getname", t.getnames);
    const std::size_t bytes = s.path.size() + 1 + (t.getnames > 1 ? s.path2.size() + 1 : 0);
    e.compute("getname_byte", static_cast<double>(bytes));
  }
  kExpanders[static_cast<std::size_t>(s.sys)].expand(c, s);
}

}  // namespace walksim::kernel
