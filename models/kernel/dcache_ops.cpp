// The dcache sequences of both locking schemes, side by side in each function.
#include "models/kernel/dcache_ops.hpp"

namespace walksim::kernel {

namespace {

// Whether one global dcache_lock guards the hash chains and children lists (to 2.6.37).
bool global_dcache_lock(const Emitter& e) { return e.spec().dcache_lock; }

}  // namespace

void d_children_lock(Emitter& e, ObjId dir) {
  if (global_dcache_lock(e)) {
    e.dcache_lock();
  } else {
    e.lock(dir, "d_lock");
  }
}

void d_children_unlock(Emitter& e, ObjId dir) {
  if (global_dcache_lock(e)) {
    e.dcache_unlock();
  } else {
    e.unlock(dir, "d_lock");
  }
}

void d_subdirs_access(Emitter& e, ObjId dir, bool write) {
  d_children_lock(e, dir);
  if (write) {
    e.store(dir, "d_subdirs");
  } else {
    e.load(dir, "d_subdirs");
  }
  d_children_unlock(e, dir);
}

void d_alloc_link(Emitter& e, DentryId parent) {
  const ObjId p = e.vfs().dentry(parent).obj;
  if (global_dcache_lock(e)) {
    e.dget(parent);
    e.dcache_lock();
    e.store(p, "d_subdirs");
    e.store(e.vfs().globals(), "dentry_stat");
    e.dcache_unlock();
  } else {
    e.lock(p, "d_lock");
    e.d_count_inc_locked(parent);
    e.store(p, "d_subdirs");
    e.unlock(p, "d_lock");
    e.percpu_add("nr_dentry", +1);
  }
}

void d_instantiate(Emitter& e, std::optional<DentryId> dentry) {
  if (global_dcache_lock(e)) {
    e.dcache_lock();
    if (dentry) e.store(e.vfs().dentry(*dentry).obj, "d_inode");
    e.dcache_unlock();
  } else if (dentry) {  // the inode's i_lock (its alias list), then the dentry's d_lock
    const Dentry& d = e.vfs().dentry(*dentry);
    e.lock(d.inode, "i_lock");
    e.lock(d.obj, "d_lock");
    e.store(d.obj, "d_inode");
    e.unlock(d.obj, "d_lock");
    e.unlock(d.inode, "i_lock");
  }
}

void d_rehash(Emitter& e, std::uint32_t bucket, std::optional<ObjId> dentry) {
  if (global_dcache_lock(e)) {
    e.dcache_lock();
    if (dentry) e.lock(*dentry, "d_lock");
    e.hash_bucket_store(bucket);
    if (dentry) e.unlock(*dentry, "d_lock");
    e.dcache_unlock();
  } else {
    if (dentry) e.lock(*dentry, "d_lock");
    e.hash_bucket_lock(bucket, true);
    e.hash_bucket_store(bucket);
    e.hash_bucket_lock(bucket, false);
    if (dentry) e.unlock(*dentry, "d_lock");
  }
}

void d_delete(Emitter& e, DentryId victim) {
  const Dentry& v = e.vfs().dentry(victim);
  if (global_dcache_lock(e)) {
    e.dcache_lock();
    e.lock(v.obj, "d_lock");
    e.store(v.obj, "d_inode");
    e.store(v.inode, "i_dentry");
    e.unlock(v.obj, "d_lock");
    e.dcache_unlock();
  } else {
    e.lock(v.obj, "d_lock");
    e.lock(v.inode, "i_lock");
    e.seq_write_begin(v.obj, "d_seq");
    e.store(v.obj, "d_inode");
    e.seq_write_end(v.obj, "d_seq");
    e.store(v.inode, "i_dentry");
    e.unlock(v.inode, "i_lock");
    e.unlock(v.obj, "d_lock");
  }
}

void d_kill(Emitter& e, DentryId parent, std::uint32_t bucket, std::optional<DentryId> victim) {
  const ObjId p = e.vfs().dentry(parent).obj;
  const std::optional<ObjId> v = victim ? std::optional<ObjId>(e.vfs().dentry(*victim).obj) : std::nullopt;
  if (global_dcache_lock(e)) {  // atomic_dec_and_lock(&d_count, &dcache_lock), then d_kill
    e.dcache_lock();
    if (v) {
      e.atomic(*v, "d_count", -1);
      e.lock(*v, "d_lock");
    }
    e.hash_bucket_store(bucket);
    e.store(p, "d_subdirs");
    e.store(e.vfs().globals(), "dentry_stat");
    if (v) e.unlock(*v, "d_lock");
    e.dcache_unlock();
  } else {
    if (victim) e.dput(*victim);
    e.lock(p, "d_lock");  // dentry_kill's trylock of the parent
    e.hash_bucket_lock(bucket, true);
    e.hash_bucket_store(bucket);
    if (v) {
      e.seq_write_begin(*v, "d_seq");
      e.seq_write_end(*v, "d_seq");
    }
    e.hash_bucket_lock(bucket, false);
    e.store(p, "d_subdirs");
    e.unlock(p, "d_lock");
    e.percpu_add("nr_dentry", -1);
  }
}

void dcache_dir_open_cursor(Emitter& e, DentryId dir) {
  e.compute("d_alloc");
  if (e.spec().d_count == DCount::kLockref) {  // d_alloc_cursor (5.x+): a reference on dir, no link yet
    e.dget(dir);
    e.percpu_add("nr_dentry", +1);
  } else {
    d_alloc_link(e, dir);
  }
}

void dcache_dir_close_cursor(Emitter& e, DentryId dir) {
  // dput of the cursor (unhashed, its last reference: d_kill), then dput of its parent.
  const ObjId p = e.vfs().dentry(dir).obj;
  if (global_dcache_lock(e)) {
    e.dcache_lock();  // atomic_dec_and_lock(&cursor->d_count, &dcache_lock)
    e.store(p, "d_subdirs");
    e.store(e.vfs().globals(), "dentry_stat");
    e.dcache_unlock();
  } else {
    e.lock(p, "d_lock");  // dentry_kill's lock of the parent, to unlink the cursor
    e.store(p, "d_subdirs");
    e.unlock(p, "d_lock");
    e.percpu_add("nr_dentry", -1);
  }
  e.dput(dir);
}

void dcache_readdir(Emitter& e, DentryId dir, bool first) {
  Vfs& vfs = e.vfs();
  const ObjId d = vfs.dentry(dir).obj;
  // filldir: the name and the inode number and type copied out.
  const auto emit_entry = [&](const Dentry& x) {
    e.load(x.obj, "d_iname");
    e.load(x.inode, "i_mode");
    e.compute("readdir_entry");
  };
  if (e.spec().d_count == DCount::kLockref) {
    // 5.4+: scan_positives finds each entry under dir's d_lock and returns it pinned; the previous
    // one is dropped after; at the end of the listing the cursor is unlinked, so the next call
    // finds it unlinked and returns at once, taking nothing.
    if (!first) return;
    std::optional<DentryId> last;
    for (const auto& [name, child] : vfs.children(dir)) {
      const Dentry& x = vfs.dentry(child);
      e.lock(d, "d_lock");
      e.load(x.obj, "d_child");
      e.load(x.obj, "d_inode");
      if (x.negative) {
        e.unlock(d, "d_lock");
        continue;
      }
      e.lock(x.obj, "d_lock");
      e.d_count_inc_locked(child);  // dget_dlock
      e.unlock(x.obj, "d_lock");
      e.unlock(d, "d_lock");
      if (last) e.dput(*last);
      last = child;
      emit_entry(x);
    }
    // The last scan finds no entry left and drops the last one listed.
    e.lock(d, "d_lock");
    e.load(d, "d_subdirs");
    e.unlock(d, "d_lock");
    if (last) e.dput(*last);
    e.lock(d, "d_lock");
    e.store(d, "d_subdirs");  // the cursor unlinked (list_del_init) at the end of the listing
    e.unlock(d, "d_lock");
    return;
  }
  const bool global = global_dcache_lock(e);
  d_children_lock(e, d);
  if (!first) {  // the cursor is at the end: the loop finds nothing to list
    e.load(d, "d_subdirs");
    d_children_unlock(e, d);
    return;
  }
  e.store(d, "d_subdirs");  // list_move(cursor, &d_subdirs): the walk starts at the head
  for (const auto& [name, child] : vfs.children(dir)) {
    const Dentry& x = vfs.dentry(child);
    e.load(x.obj, "d_child");
    if (!global) e.lock(x.obj, "d_lock");  // simple_positive under the child's lock
    e.load(x.obj, "d_inode");
    if (!global) e.unlock(x.obj, "d_lock");
    if (x.negative) continue;
    // The lock is dropped for filldir (it copies to user space) and taken again to move the
    // cursor past this entry (list_move: the entry's and the cursor's links).
    d_children_unlock(e, d);
    emit_entry(x);
    d_children_lock(e, d);
    if (!global) e.lock(x.obj, "d_lock");
    e.store(x.obj, "d_child");
    if (!global) e.unlock(x.obj, "d_lock");
  }
  d_children_unlock(e, d);
}

void d_move(Emitter& e, DentryId d, DentryId to_dir, const std::string& name, std::optional<DentryId> target) {
  Vfs& vfs = e.vfs();
  const Dentry& x = vfs.dentry(d);
  const ObjId xo = x.obj, dir = vfs.dentry(x.parent).obj, to = vfs.dentry(to_dir).obj;
  const std::uint32_t old_bucket = x.bucket, new_bucket = vfs.bucket_of(to_dir, name);
  const ObjId g = vfs.globals();
  // The target dentry an overwriting rename replaces. A plain bool and id, not an optional: GCC 12
  // warns (-Wmaybe-uninitialized, a false positive) on the optional at -O1.
  const bool has_t = target.has_value();
  const ObjId t = has_t ? vfs.dentry(*target).obj : ObjId{};
  const bool global = global_dcache_lock(e);
  if (global) e.dcache_lock();
  // write_seqlock(&rename_lock): its spinlock and an odd sequence.
  e.lock(g, "rename_lock_spin");
  e.seq_write_begin(g, "rename_lock");
  if (!global) e.lock(dir, "d_lock");  // the old parent's children list
  e.lock(xo, "d_lock");
  if (has_t) e.lock(t, "d_lock");
  if (!global) {
    e.seq_write_begin(xo, "d_seq");
    if (has_t) e.seq_write_begin(t, "d_seq");
    e.hash_bucket_lock(old_bucket, true);
  }
  e.hash_bucket_store(old_bucket);
  e.hash_bucket_store(new_bucket);
  if (!global) e.hash_bucket_lock(old_bucket, false);
  e.store(xo, "d_name");  // switch_names
  e.store(xo, "d_iname");
  e.store(xo, "d_parent");
  e.store(xo, "d_child");
  e.store(to, "d_subdirs");
  e.compute("d_move");
  if (!global) {
    if (has_t) e.seq_write_end(t, "d_seq");
    e.seq_write_end(xo, "d_seq");
  }
  if (has_t) e.unlock(t, "d_lock");
  e.unlock(xo, "d_lock");
  if (!global) e.unlock(dir, "d_lock");
  e.seq_write_end(g, "rename_lock");
  e.unlock(g, "rename_lock_spin");
  if (global) e.dcache_unlock();
}

}  // namespace walksim::kernel
