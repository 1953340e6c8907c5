// Shared dcache/inode sequences (pathwalk.md §5–§7) and the descriptor-based system calls.
#include "models/kernel/file_ops.hpp"

#include <stdexcept>

#include "models/kernel/dcache_ops.hpp"

namespace walksim::kernel {

namespace {

// new_inode: the inode lists and counters (global inode_lock until 2.6.39 / Piggin's icache split).
void new_inode(Ctx& c, ObjId inode) {
  c.e.compute("new_inode");
  if (c.vfs.spec().inode_lock == InodeLock::kGlobal) {
    c.e.inode_lock();
    c.e.store(c.vfs.globals(), "inode_in_use");
    c.e.store(c.vfs.super_block(), "s_inodes");
    c.e.store(c.vfs.globals(), "inodes_stat");
    c.e.store(c.vfs.globals(), "last_ino");
    c.e.inode_unlock();
  } else if (c.vfs.spec().inode_lock == InodeLock::kSplit) {
    c.e.lock(c.vfs.super_block(), "s_inode_list_lock");
    c.e.store(c.vfs.super_block(), "s_inodes");
    c.e.unlock(c.vfs.super_block(), "s_inode_list_lock");
    c.e.percpu_add("nr_inodes", +1);
    c.e.percpu_add("last_ino", +1);
  } else {  // this CPU's list of the superblock's inodes, under this CPU's lock
    const ObjId cpu = c.vfs.percpu(c.p.cpu);
    c.e.lock(cpu, "inode_list_lock");
    c.e.store(cpu, "sb_inodes");
    c.e.unlock(cpu, "inode_list_lock");
    c.e.percpu_add("nr_inodes", +1);
    c.e.percpu_add("last_ino", +1);
  }
  c.e.store(inode, "i_mode");
  c.e.store(inode, "i_count");
}

// The file's own new open-file object: the slab's last freed one on this process, or a new one.
ObjId take_file_object(Ctx& c) {
  if (!c.p.free_files.empty()) {
    const ObjId f = c.p.free_files.back();
    c.p.free_files.pop_back();
    return f;
  }
  const auto node = c.vfs.machine().node_of(c.vfs.machine().core_of(c.p.cpu));
  return c.vfs.new_object("file", "file (pid " + std::to_string(c.p.pid) + ")", false, node);
}

// get_unused_fd / fd_install / the close side: the process's file_lock and fd table (private).
void fd_table_update(Ctx& c) {
  c.e.lock(c.p.files, "file_lock");
  c.e.load(c.p.files, "fdt");
  c.e.store(c.p.files, "open_fds");
  c.e.unlock(c.p.files, "file_lock");
}

// file_move (2.6.35: global files_lock, the sb's s_files list, the old head's list pointer) or
// file_sb_list_add (2.6.36+: this CPU's list under this CPU's lglock).
void file_list_add(Ctx& c, OpenFile& f) {
  if (c.vfs.spec().files_list == FilesList::kNone) return;
  if (c.vfs.spec().files_list == FilesList::kGlobalLock) {
    c.e.lock(c.vfs.globals(), "files_lock");
    c.e.store(c.vfs.super_block(), "s_files");
    if (auto& head = c.vfs.s_files_head(); head && *head != f.file) c.e.store(*head, "f_u");
    c.e.store(f.file, "f_u");
    c.e.unlock(c.vfs.globals(), "files_lock");
    c.vfs.s_files_head() = f.file;
  } else {
    f.sb_list_cpu = c.p.cpu;
    c.e.lock(c.vfs.percpu(c.p.cpu), "files_lglock");
    c.e.store(c.vfs.percpu(c.p.cpu), "s_files");
    c.e.store(f.file, "f_u");
    c.e.unlock(c.vfs.percpu(c.p.cpu), "files_lglock");
  }
}

void file_list_del(Ctx& c, const OpenFile& f) {
  if (c.vfs.spec().files_list == FilesList::kNone) return;
  if (c.vfs.spec().files_list == FilesList::kGlobalLock) {
    c.e.lock(c.vfs.globals(), "files_lock");
    c.e.store(f.file, "f_u");
    c.e.store(c.vfs.super_block(), "s_files");  // list_del_init writes the neighbours (the head here)
    c.e.unlock(c.vfs.globals(), "files_lock");
    if (c.vfs.s_files_head() == f.file) c.vfs.s_files_head().reset();
  } else {
    const ObjId cpu = c.vfs.percpu(f.sb_list_cpu);
    c.e.lock(cpu, "files_lglock");
    c.e.store(f.file, "f_u");
    c.e.store(cpu, "s_files");
    c.e.unlock(cpu, "files_lglock");
  }
}

// __dentry_open: write access on the inode, the mount's writer count, the file list.
int dentry_open(Ctx& c, DentryId d, bool write, bool directory) {
  // An open file holds a reference on its dentry, which an unpinned tree's dput would have to count
  // (Dentry::disk_fs): only workloads that never open their tree's files may make one.
  if (c.vfs.dentry(d).disk_fs()) {
    throw std::logic_error("open of " + c.vfs.describe(d) +
                           " on an unpinned (disk filesystem) tree: an open file's reference is not modelled there");
  }
  OpenFile f;
  f.dentry = d;
  f.file = take_file_object(c);
  f.write = write;
  f.open = true;
  c.e.compute("open_file");
  c.e.store(f.file, "f_count");
  if (write) {
    const ObjId in = c.vfs.dentry(d).inode;
    c.e.lock(in, "i_lock");
    c.e.atomic(in, "i_writecount", +1);
    c.e.unlock(in, "i_lock");
    c.e.mnt_want_write();
  }
  file_list_add(c, f);
  if (directory) {
    dcache_dir_open_cursor(c.e, d);  // dcache_dir_open: a cursor dentry under the directory
    f.dir_cursor = true;
  }
  fd_table_update(c);
  c.e.load(c.vfs.dentry(d).inode, "i_op");  // fsnotify_open: no watchers
  ++c.p.fd_generation;
  // The lowest free descriptor, as the kernel allocates them.
  for (std::size_t i = 0; i < c.p.fds.size(); ++i) {
    if (!c.p.fds[i].open) {
      c.p.fds[i] = f;
      return static_cast<int>(i);
    }
  }
  c.p.fds.push_back(f);
  return static_cast<int>(c.p.fds.size() - 1);
}

}  // namespace

int find_fd(const Ctx& c, const std::string& path) {
  bool abs = false;
  const auto parts = split_path(path, &abs);
  DentryId d = abs ? c.p.root : c.p.cwd;
  for (const auto& part : parts) {
    if (part == ".") continue;
    const auto ch = c.vfs.child(d, part);
    if (!ch) return -1;
    d = *ch;
  }
  c.vfs.note_fd_table_read(c.p);
  for (std::size_t i = c.p.fds.size(); i-- > 0;) {
    if (c.p.fds[i].open && c.p.fds[i].dentry == d) return static_cast<int>(i);
  }
  return -1;
}

void fget_light(Ctx& c) {
  c.e.load(c.p.files, "fdt");
  c.e.compute("fget");
}

const Dentry* fd_target(Ctx& c, const Syscall& s) {
  const int fd = find_fd(c, s.path);
  if (fd < 0) {
    c.out.failed = true;  // EBADF
    return nullptr;
  }
  fget_light(c);
  return &c.vfs.dentry(c.p.fds[static_cast<std::size_t>(fd)].dentry);
}

std::optional<DentryId> lookup_hash(Ctx& c, DentryId dir, const std::string& name) {
  if (c.vfs.spec().rename_seqlock_in_lookup) c.e.seq_begin(c.vfs.globals(), "rename_lock");
  const auto found = c.vfs.child(dir, name);
  if (!found) {
    c.e.hash_chain(c.vfs.bucket_of(dir, name), std::nullopt);
    return std::nullopt;
  }
  const Dentry& d = c.vfs.dentry(*found);
  c.e.hash_chain(d.bucket, *found);
  c.e.load(d.obj, "d_name");
  c.e.load(d.obj, "d_parent");
  const char* lock = c.vfs.spec().d_count == DCount::kLockref ? "d_lockref" : "d_lock";
  c.e.lock(d.obj, lock);
  c.e.load(d.obj, "d_iname");
  c.e.compute("name_compare_byte", static_cast<double>(d.name.size()));
  c.e.d_count_inc_locked(*found);
  c.e.unlock(d.obj, lock);
  return found;
}

DentryId create_entry(Ctx& c, DentryId dir, const std::string& name, bool is_dir) {
  Vfs& vfs = c.vfs;
  const auto node = vfs.machine().node_of(vfs.machine().core_of(c.p.cpu));
  // The objects are allocated by this CPU (slab, then first touch on its node) and private to
  // the process until others look them up.
  const DentryId nd = vfs.add_dentry(dir, name, is_dir, false, node, c.p.cpu);
  vfs.dentry(nd).inode_cpu = c.p.cpu;
  const ObjId dobj = vfs.dentry(nd).obj;
  const ObjId pin = vfs.dentry(dir).inode;
  const std::uint32_t bucket = vfs.dentry(nd).bucket;
  // d_alloc
  c.e.compute("d_alloc");
  c.e.store(dobj, "d_name");
  c.e.store(dobj, "d_iname");
  d_alloc_link(c.e, dir);
  // ramfs_mknod: new_inode, then d_instantiate, the pin (dget) and the parent's times.
  new_inode(c, vfs.dentry(nd).inode);
  d_instantiate(c.e, nd);
  c.e.dget(nd);
  c.e.store(pin, "i_mtime");
  if (is_dir) c.e.store(pin, "i_nlink");
  d_rehash(c.e, bucket, dobj);  // d_add's
  return nd;
}

void remove_file(Ctx& c, DentryId dir, DentryId victim, bool is_dir) {
  Vfs& vfs = c.vfs;
  const Dentry& v = vfs.dentry(victim);
  const ObjId vin = v.inode, vobj = v.obj, pin = vfs.dentry(dir).inode;
  const std::uint32_t bucket = v.bucket;
  c.e.atomic(vin, "i_count", +1);  // ihold across the operation
  c.e.mnt_want_write();
  // vfs_unlink / vfs_rmdir → simple_unlink under the victim's i_mutex
  c.e.mutex_lock(vin, "i_mutex");
  if (is_dir) d_subdirs_access(c.e, vobj, false);  // simple_empty walks d_subdirs
  c.e.compute("unlink_fs");
  c.e.store(pin, "i_mtime");
  c.e.store(vin, "i_nlink");
  c.e.dput(victim);  // drop ramfs's pin
  c.e.mutex_unlock(vin, "i_mutex");
  d_delete(c.e, victim);               // the only user: the inode is detached from the dentry (dentry_iput)
  c.e.atomic_cas(vin, "i_count", -1);  // iput 2 -> 1
  c.e.mnt_drop_write();
  // dput(victim) 1 -> 0: simple_delete_dentry kills it (unhash, unlink from the parent, free).
  d_kill(c.e, dir, bucket, victim);
  c.e.compute("d_free");
  c.e.dput(dir);  // d_kill drops the parent
  vfs.remove_dentry(victim);
}

void final_iput(Ctx& c, DentryId victim) {
  Vfs& vfs = c.vfs;
  const ObjId vin = vfs.dentry(victim).inode;
  // iput 1 -> 0: atomic_dec_and_lock(&i_count, &inode_lock), off the lists, truncate, unhash, free.
  if (vfs.spec().inode_lock == InodeLock::kGlobal) {
    c.e.inode_lock();
    c.e.atomic(vin, "i_count", -1);
    c.e.store(vfs.globals(), "inode_in_use");
    c.e.store(vfs.super_block(), "s_inodes");
    c.e.store(vfs.globals(), "inodes_stat");
    c.e.inode_unlock();
    c.e.compute("truncate");
    c.e.inode_lock();  // remove_inode_hash
    c.e.store(vin, "i_hash");
    c.e.inode_unlock();
  } else {
    c.e.lock(vin, "i_lock");
    c.e.atomic(vin, "i_count", -1);
    c.e.unlock(vin, "i_lock");
    if (vfs.spec().inode_lock == InodeLock::kSplit) {
      c.e.lock(vfs.super_block(), "s_inode_list_lock");
      c.e.store(vfs.super_block(), "s_inodes");
      c.e.unlock(vfs.super_block(), "s_inode_list_lock");
    } else {  // the list of the CPU that added it (usually this one)
      const ObjId cpu = vfs.percpu(vfs.dentry(victim).inode_cpu);
      c.e.lock(cpu, "inode_list_lock");
      c.e.store(cpu, "sb_inodes");
      c.e.unlock(cpu, "inode_list_lock");
    }
    c.e.percpu_add("nr_inodes", -1);
    c.e.compute("truncate");
  }
  c.e.compute(vfs.spec().inode_free == InodeFree::kRcu ? "call_rcu" : "inode_free");
  // destroy_inode: kmem_cache_free at once, so this CPU's next new inode is this one (still in its
  // caches); an RCU-freed inode (2.6.38+) comes back only after a grace period.
  if (vfs.spec().inode_free == InodeFree::kImmediate) vfs.free_object(vin, c.p.cpu);
}

// get_cred(f->f_cred) of a new file (struct cred, 2.6.29+; before it a file held no reference).
void get_file_cred(Ctx& c) {
  if (c.vfs.spec().file_cred_refs) c.e.atomic(c.p.cred, "usage", +1);
}

void sys_open(Ctx& c, const Syscall& s) {
  WalkRequest req;
  req.components = split_path(s.path, &req.absolute);
  req.save = c.vfs.spec().open_pins_start_point;  // 2.6.20's link_path_walk saves nd->path; 2.6.35's open does not
  req.open_trailing = true;
  const DentryId start = req.absolute ? c.p.root : c.p.cwd;
  c.e.compute("fd_alloc");
  fd_table_update(c);  // get_unused_fd_flags
  if (!s.create) {
    const WalkResult w = walk_path(c.e, c.p, req, c.opts, c.force_ref, c.stats);
    if (w.saved) put_path(c.e, start);  // link_path_walk's path_release(&save)
    if (w.target == kNoDentry) {
      c.out.failed = true;
      if (w.holds_refs) put_path(c.e, w.dir);
      return;
    }
    c.e.percpu_add("nr_files", +1);  // get_empty_filp
    get_file_cred(c);
    dentry_open(c, w.target, s.write, s.directory);
    return;
  }
  // O_CREAT: walk to the parent, then do_last under the directory's i_mutex.
  req.want_parent = true;
  const WalkResult w = walk_path(c.e, c.p, req, c.opts, c.force_ref, c.stats);
  if (w.saved) put_path(c.e, start);
  if (!w.holds_refs || w.last.empty()) {
    c.out.failed = true;
    if (w.holds_refs) put_path(c.e, w.dir);
    return;
  }
  c.e.percpu_add("nr_files", +1);
  get_file_cred(c);
  const ObjId dir_in = c.vfs.dentry(w.dir).inode;
  c.e.mutex_lock(dir_in, "i_mutex");
  auto found = lookup_hash(c, w.dir, w.last);
  if (!found) {
    c.e.mnt_want_write();
    found = create_entry(c, w.dir, w.last, false);
    c.e.mnt_drop_write();
  }
  c.e.mutex_unlock(dir_in, "i_mutex");
  c.e.dput(w.dir);  // path_to_nameidata: the parent's reference; the mount's stays with the file
  dentry_open(c, *found, s.write, false);
}

void sys_close(Ctx& c, const Syscall& s) {
  const int fd = find_fd(c, s.path);
  if (fd < 0) {
    c.out.failed = true;
    return;
  }
  OpenFile& f = c.p.fds[static_cast<std::size_t>(fd)];
  fd_table_update(c);                 // filp_close: clear the slot under file_lock
  c.e.atomic(f.file, "f_count", -1);  // fput reaches zero: __fput
  c.e.compute("close_file");
  c.e.load(c.vfs.dentry(f.dentry).inode, "i_op");  // fsnotify_close
  if (f.dir_cursor) {
    dcache_dir_close_cursor(c.e, f.dentry);
  }
  file_list_del(c, f);
  if (f.write) {
    c.e.atomic(c.vfs.dentry(f.dentry).inode, "i_writecount", -1);  // put_write_access
    c.e.mnt_drop_write();
  }
  c.e.percpu_add("nr_files", -1);
  c.e.compute("call_rcu");                                             // file_free_rcu later...
  if (c.vfs.spec().file_cred_refs) c.e.atomic(c.p.cred, "usage", -1);  // ...drops the file's cred
  put_path(c.e, f.dentry);
  f.open = false;
  ++c.p.fd_generation;
  c.p.free_files.push_back(f.file);
}

void sys_read(Ctx& c, const Syscall& s) {
  const Dentry* target = fd_target(c, s);
  if (!target) return;
  Dentry& d = c.vfs.dentry(static_cast<DentryId>(target - &c.vfs.dentry(0)));
  // generic_file_aio_read: find_get_page takes a page reference, copies, drops it.
  c.e.load(d.inode, "i_size");
  if (!d.dir) {
    const ObjId page = c.vfs.page_of(d);
    c.e.atomic(page, "flags", +1);
    c.e.load(page, "data");
    c.e.compute("copy_byte", static_cast<double>(s.bytes));
    c.e.atomic(page, "flags", -1);
  }
  c.e.compute("rw_file");
}

void sys_write(Ctx& c, const Syscall& s) {
  const Dentry* target = fd_target(c, s);
  if (!target) return;
  Dentry& d = c.vfs.dentry(static_cast<DentryId>(target - &c.vfs.dentry(0)));
  // generic_file_aio_write: i_mutex, then the page locked, copied into and dirtied.
  c.e.mutex_lock(d.inode, "i_mutex");
  c.e.store(d.inode, "i_mtime");  // file_update_time
  if (!d.dir) {
    const ObjId page = c.vfs.page_of(d);
    c.e.atomic(page, "flags", +1);  // lock_page
    c.e.compute("copy_byte", static_cast<double>(s.bytes));
    c.e.store(page, "data");
    c.e.atomic(page, "flags", -1);  // unlock_page
  }
  c.e.store(d.inode, "i_size");
  c.e.mutex_unlock(d.inode, "i_mutex");
  c.e.compute("rw_file");
}

void sys_readdir(Ctx& c, const Syscall& s) {
  WalkRequest req;
  req.components = split_path(s.path, &req.absolute);
  req.save = false;
  req.open_trailing = true;  // opendir is an open
  c.e.compute("fd_alloc");
  fd_table_update(c);
  const WalkResult w = walk_path(c.e, c.p, req, c.opts, c.force_ref, c.stats);
  if (w.target == kNoDentry || !c.vfs.dentry(w.target).dir) {
    c.out.failed = true;
    if (w.holds_refs) put_path(c.e, w.target != kNoDentry ? w.target : w.dir);
    return;
  }
  c.e.percpu_add("nr_files", +1);
  get_file_cred(c);
  const int fd = dentry_open(c, w.target, false, true);
  // getdents until it returns 0: each call takes i_mutex and runs dcache_readdir.
  const Dentry& dir = c.vfs.dentry(w.target);
  for (int call = 0; call < 2; ++call) {
    c.e.compute("syscall");
    fget_light(c);
    c.e.mutex_lock(dir.inode, "i_mutex");
    dcache_readdir(c.e, w.target, call == 0);
    c.e.mutex_unlock(dir.inode, "i_mutex");
  }
  Syscall close;
  close.sys = Sys::kClose;
  close.path = s.path;
  c.e.compute("syscall");
  (void)fd;
  sys_close(c, close);
}

void sys_fsync(Ctx& c, const Syscall& s) {
  const Dentry* target = fd_target(c, s);
  if (!target) return;
  const Dentry& d = *target;
  c.e.mutex_lock(d.inode, "i_mutex");  // vfs_fsync_range; ramfs has nothing to write
  c.e.compute("fsync");
  c.e.mutex_unlock(d.inode, "i_mutex");
}

void sys_fcntl_lock(Ctx& c, const Syscall& s) {
  const Dentry* target = fd_target(c, s);
  if (!target) return;
  const Dentry& d = *target;
  // posix_lock_file: the global lock of the era (lock_kernel in 2.6.35, file_lock_lock after),
  // the inode's lock list.
  c.e.lock(c.vfs.globals(), "file_lock_lock");
  c.e.load(d.inode, "i_flock");
  c.e.store(d.inode, "i_flock");
  c.e.compute("posix_lock");
  c.e.unlock(c.vfs.globals(), "file_lock_lock");
}

}  // namespace walksim::kernel
