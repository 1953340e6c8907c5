// The composite helpers: each is one kernel function of the era, expanded per the variant's
// switches (pathwalk.md §1 and §4).
#include "models/kernel/emitter.hpp"

#include <stdexcept>

namespace walksim::kernel {

void Emitter::push_bucket(KOpKind k, std::uint32_t bucket) {
  const bool lock = k == KOpKind::kSpinLock || k == KOpKind::kSpinUnlock;
  push_field(k, lock ? vfs_.hash_bucket_lock(bucket) : vfs_.hash_bucket(bucket));
}

void Emitter::hash_bucket(std::uint32_t bucket) { push_bucket(KOpKind::kLoad, bucket); }

void Emitter::hash_chain(std::uint32_t bucket, std::optional<DentryId> target) {
  const Vfs::ChainView chain = vfs_.hash_chain(bucket);
  push_field(KOpKind::kLoad, chain.head_word);
  for (DentryId d = chain.first; d != kNoDentry && d != target; d = vfs_.dentry(d).hash_next) {
    const ObjId o = vfs_.dentry(d).obj;
    load(o, "d_hash");
    load(o, "d_name");
  }
}

void Emitter::hash_bucket_store(std::uint32_t bucket) { push_bucket(KOpKind::kStore, bucket); }

void Emitter::hash_bucket_lock(std::uint32_t bucket, bool lock) {
  push_bucket(lock ? KOpKind::kSpinLock : KOpKind::kSpinUnlock, bucket);
}

void Emitter::throw_missing_cost(std::string_view step) const {
  throw MissingCost("kernel '" + spec().name + "' has no cpu_costs entry for step '" + std::string(step) + "'",
                    std::string(step));
}

void Emitter::dget(DentryId d) {
  const ObjId o = vfs_.dentry(d).obj;
  switch (spec().d_count) {
    case DCount::kAtomic:
      atomic(o, "d_count", +1);
      break;
    case DCount::kUnderDLock:
      lock(o, "d_lock");
      d_count_inc_locked(d);
      unlock(o, "d_lock");
      break;
    case DCount::kLockref:
      emit(KOpKind::kLockrefGet, o, "d_lockref");  // one cmpxchg of count and lock together
      break;
  }
}

void Emitter::d_count_inc_locked(DentryId d) {
  const ObjId o = vfs_.dentry(d).obj;
  switch (spec().d_count) {
    case DCount::kAtomic:
      atomic(o, "d_count", +1);
      break;
    case DCount::kUnderDLock:
      load(o, "d_count");
      store(o, "d_count");
      break;
    case DCount::kLockref:
      emit(KOpKind::kLockedCountAdd, o, "d_lockref", +1);  // the count half, lock held
      break;
  }
}

void Emitter::dput(DentryId d) {
  const Dentry& de = vfs_.dentry(d);
  const ObjId o = de.obj;
  // The last reference of an unused file on a filesystem that does not pin its dentries: the count
  // reaches 0 and the dentry stays cached, on the LRU (already there after its first use, so no
  // list is written).
  const bool last = de.disk_fs() && !de.dir && !de.negative;
  // The out-of-line functions' own work on this path (frames, calls, tests), beyond the accesses
  // below: counted in each kernel's compiled dput (docs/reference/call-costs.md).
  compute(last ? "dput_last_call" : "dput_call");
  switch (spec().d_count) {
    case DCount::kAtomic:
      if (!last) {
        atomic_cas(o, "d_count", -1);  // atomic_dec_and_lock, count > 1: atomic_add_unless's cmpxchg
        break;
      }
      // 2.6.20-2.6.37 fs/dcache.c dput (docs/reference/diskfs-lstat.md §1): atomic_dec_and_lock(&d_count,
      // &dcache_lock) finds the count at 1 (atomic_add_unless gives up without a cmpxchg), takes the
      // global dcache_lock and decrements under it; then d_lock, the count re-read, d_op (a disk
      // filesystem sets none), d_unhashed (DCACHE_UNHASHED in d_flags), list_empty(&d_lru) (a warm
      // tree's leaf is on the LRU already: nothing added), and both locks dropped. 2.6.37 also sets
      // DCACHE_REFERENCED on every put, a store to the line the decrement has just taken (a hit: left out).
      load(o, "d_count");
      dcache_lock();
      atomic(o, "d_count", -1);
      lock(o, "d_lock");
      load(o, "d_count");
      load(o, "d_op");
      load(o, "d_flags");
      load(o, "d_lru");
      unlock(o, "d_lock");
      dcache_unlock();
      break;
    case DCount::kUnderDLock:
      // 2.6.38 fs/dcache.c dput: `if (dentry->d_count == 1) might_sleep();` before the lock. With
      // CONFIG_PREEMPT_VOLUNTARY (x86_64_defconfig 2.6.38) might_sleep() calls _cond_resched(), so
      // the test is a load of the lock's own line: contended, a read and then the lock's xadd.
      load(o, "d_count");
      lock(o, "d_lock");
      load(o, "d_count");
      if (last) {
        // At 1: DCACHE_OP_DELETE tested in d_flags, d_unhashed (hlist_bl_unhashed: d_hash's pprev),
        // d_flags |= DCACHE_REFERENCED, dentry_lru_add's list_empty(&d_lru) (on the LRU: no
        // dcache_lru_lock).
        load(o, "d_flags");
        load(o, "d_hash");
        store(o, "d_flags");
        load(o, "d_lru");
      }
      store(o, "d_count");
      unlock(o, "d_lock");
      break;
    case DCount::kLockref:
      // dput's fast_dput (3.13+): lockref_put_return, no lock unless one is held. When it returns
      // 0 (the last reference) fast_dput reads d_flags (DCACHE_REFERENCED | DCACHE_LRU_LIST set)
      // and d_unhashed and keeps the dentry without the lock (6.1 fs/dcache.c).
      emit(KOpKind::kLockrefPutReturn, o, "d_lockref");
      if (last) {
        load(o, "d_flags");
        load(o, "d_hash");
      }
      break;
  }
}

void Emitter::mntget() {
  if (spec().mnt_count == MntCount::kAtomic) {
    atomic(vfs_.mount(), "mnt_count", +1);
  } else {
    percpu_add("mnt_pcp_count", +1);
  }
}

void Emitter::mntput() {
  const ObjId m = vfs_.mount();
  compute("mntput_call");  // mntput_no_expire's frame and tests (docs/reference/call-costs.md)
  if (spec().mnt_count == MntCount::kAtomic) {
    if (spec().mnt_expiry_store_always) store(m, "mnt_expiry_mark");
    atomic_cas(m, "mnt_count", -1);  // atomic_dec_and_lock(&mnt_count, &vfsmount_lock), count > 1
    return;
  }
  // 2.6.38: LD mnt_expiry_mark, br_read_lock, LD mnt_longterm, per-CPU dec, unlock.
  load(m, "mnt_expiry_mark");
  vfsmount_read_lock();
  load(m, "mnt_longterm");
  percpu_add("mnt_pcp_count", -1);
  vfsmount_read_unlock();
}

void Emitter::fs_lock(ObjId fs) {
  if (spec().fs_lock == FsLock::kRwlock) {
    read_lock(fs, "lock");
  } else {
    lock(fs, "lock");
  }
}

void Emitter::fs_unlock(ObjId fs) {
  if (spec().fs_lock == FsLock::kRwlock) {
    read_unlock(fs, "lock");
  } else {
    unlock(fs, "lock");
  }
}

void Emitter::vfsmount_read_lock() {
  switch (spec().vfsmount_lock) {
    case VfsmountLock::kSpinlock:
      lock(vfs_.globals(), "vfsmount_lock");
      break;
    case VfsmountLock::kBrlock:
      lock(vfs_.percpu(cpu_), "vfsmount_brlock");  // this CPU's lock only
      break;
    case VfsmountLock::kSeqlock:
      seq_begin(vfs_.globals(), "mount_lock");
      break;
  }
}

void Emitter::vfsmount_read_unlock() {
  switch (spec().vfsmount_lock) {
    case VfsmountLock::kSpinlock:
      unlock(vfs_.globals(), "vfsmount_lock");
      break;
    case VfsmountLock::kBrlock:
      unlock(vfs_.percpu(cpu_), "vfsmount_brlock");
      break;
    case VfsmountLock::kSeqlock:
      seq_check(vfs_.globals(), "mount_lock");
      break;
  }
}

void Emitter::dcache_lock() {
  if (spec().dcache_lock) lock(vfs_.globals(), "dcache_lock");
}
void Emitter::dcache_unlock() {
  if (spec().dcache_lock) unlock(vfs_.globals(), "dcache_lock");
}
void Emitter::inode_lock() {
  if (spec().inode_lock == InodeLock::kGlobal) lock(vfs_.globals(), "inode_lock");
}
void Emitter::inode_unlock() {
  if (spec().inode_lock == InodeLock::kGlobal) unlock(vfs_.globals(), "inode_lock");
}

// The 2007 posting's writer counts ([RB07a], docs/reference/openbench-2.6.20.md §5): under the
// superblock's s_mnt_writers_lock (beside s_files), the superblock's s_writers and the mount's
// mnt_writers; one lock for the whole filesystem instance, the "mount-wide spinlock".
void Emitter::mount_writers_update(ObjId m) {
  const ObjId sb = vfs_.super_block();
  lock(sb, "s_mnt_writers_lock");
  load(sb, "s_writers");
  store(sb, "s_writers");
  load(m, "mnt_writers");
  store(m, "mnt_writers");
  unlock(sb, "s_mnt_writers_lock");
}

void Emitter::mnt_want_write() {
  const ObjId m = vfs_.mount();
  switch (spec().want_write) {
    case WantWrite::kNone:
      return;
    case WantWrite::kMountSpinlock:
      mount_writers_update(m);
      return;
    case WantWrite::kPercpuCounter:
      percpu_add("mnt_writers", +1);
      fence();
      load(m, "mnt_flags");
      load(vfs_.super_block(), "s_flags");
      return;
  }
}

void Emitter::mnt_drop_write() {
  const ObjId m = vfs_.mount();
  switch (spec().want_write) {
    case WantWrite::kNone:
      return;
    case WantWrite::kMountSpinlock:
      mount_writers_update(m);
      return;
    case WantWrite::kPercpuCounter:
      percpu_add("mnt_writers", -1);
      return;
  }
}

}  // namespace walksim::kernel
