// Builds a syscall's kernel-operation list in the vocabulary of pathwalk.md: loads and stores of
// named fields, atomics, lock and unlock, seqcount reads, per-CPU adds, private compute steps.
// The kernel variant's switches (d_count kind, lock kinds) are applied by the composite helpers
// (dget, dput, mntget, mntput, fs_lock...), so the walk and syscall code reads like the kernel.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "models/kernel/vfs.hpp"

namespace walksim::kernel {

// A compute step the kernel's cpu_costs do not price: the loader reports it at `cpu_costs`, naming
// the step, rather than at the layouts its field check was expanding.
class MissingCost : public std::invalid_argument {
 public:
  MissingCost(const std::string& what, std::string step) : std::invalid_argument(what), step_(std::move(step)) {}
  const std::string& step() const { return step_; }

 private:
  std::string step_;
};

class Emitter {
 public:
  Emitter(Vfs& vfs, std::vector<KOp>& out, CpuId cpu, double cost_scale)
      : vfs_(vfs), out_(out), cpu_(cpu), cost_scale_(cost_scale) {}

  Vfs& vfs() { return vfs_; }
  const KernelSpec& spec() const { return vfs_.spec(); }
  CpuId cpu() const { return cpu_; }

  // Primitive operations on a field of an object.
  void load(ObjId o, std::string_view f) { emit(KOpKind::kLoad, o, f); }
  void store(ObjId o, std::string_view f) { emit(KOpKind::kStore, o, f); }
  void atomic(ObjId o, std::string_view f, std::int64_t delta) { emit(KOpKind::kAtomic, o, f, delta); }
  void atomic_cas(ObjId o, std::string_view f, std::int64_t delta) { emit(KOpKind::kAtomicCas, o, f, delta); }
  void prefetch(ObjId o, std::string_view f) { emit(KOpKind::kPrefetch, o, f); }
  void lock(ObjId o, std::string_view f) { emit(KOpKind::kSpinLock, o, f); }
  void unlock(ObjId o, std::string_view f) { emit(KOpKind::kSpinUnlock, o, f); }
  void read_lock(ObjId o, std::string_view f) { emit(KOpKind::kReadLock, o, f); }
  void read_unlock(ObjId o, std::string_view f) { emit(KOpKind::kReadUnlock, o, f); }
  void mutex_lock(ObjId o, std::string_view f) { emit(KOpKind::kMutexLock, o, f); }
  void mutex_unlock(ObjId o, std::string_view f) { emit(KOpKind::kMutexUnlock, o, f); }
  void seq_begin(ObjId o, std::string_view f) { emit(KOpKind::kSeqBegin, o, f); }
  void seq_check(ObjId o, std::string_view f) { emit(KOpKind::kSeqCheck, o, f); }
  void seq_write_begin(ObjId o, std::string_view f) { emit(KOpKind::kSeqWriteBegin, o, f); }
  void seq_write_end(ObjId o, std::string_view f) { emit(KOpKind::kSeqWriteEnd, o, f); }
  void percpu_add(std::string_view f, std::int64_t delta) { emit(KOpKind::kPercpuAdd, vfs_.percpu(cpu_), f, delta); }
  void fence() {
    KOp op;
    op.kind = KOpKind::kFence;
    out_.push_back(op);
  }
  void hash_bucket(std::uint32_t bucket);  // load a dentry hash bucket head
  // __d_lookup's walk of a bucket: its head, then for each dentry on the chain ahead of `target`
  // (every one when the name is not there) its d_hash.next and d_name.hash, both on the dentry's
  // first line (docs/reference/slab-hash-layouts.md §4).
  void hash_chain(std::uint32_t bucket, std::optional<DentryId> target);
  void hash_bucket_store(std::uint32_t bucket);            // link/unlink in a chain (dcache_lock era)
  void hash_bucket_lock(std::uint32_t bucket, bool lock);  // bit-spinlock in the bucket head (2.6.38)
  // Private CPU work: the variant's cost of `step` in cycles, times `times`. Inline, as emit().
  void compute(std::string_view step, double times = 1.0) {
    const auto* it = vfs_.step_cost(step);
    if (!it) [[unlikely]] {
      throw_missing_cost(step);
    }
    KOp op;
    op.kind = KOpKind::kCompute;
    op.field = it->first;
    op.ps = vfs_.machine().cycles(it->second * times * cost_scale_);
    if (op.ps > 0) out_.push_back(op);
  }
  // Private work of a fixed duration (not scaled: a workload's own parameter).
  void compute_ps(Picos ps) {
    KOp op;
    op.kind = KOpKind::kCompute;
    op.field = "work";
    op.ps = ps;
    if (ps > 0) out_.push_back(op);
  }

  // An operation on a line that belongs to no kernel object (a microbenchmark's own lines), named
  // `field` in traces; a lock KOp takes `lock` instead of the variant's spinlock kind.
  void on_line(KOpKind k, LineId line, std::string_view field, std::int64_t delta = 0,
               SyncKindIndex lock = kVariantSpinlock) {
    KOp op;
    op.kind = k;
    op.lock = lock;
    op.line = line;
    op.field = field;
    op.delta = delta;
    out_.push_back(op);
  }

  // Composite kernel helpers honouring the variant's switches.
  void dget(DentryId d);  // take a reference on a dentry
  // Drop one. On ramfs (positive dentries pinned) the count stays above 0; a file of an unpinned
  // tree (Dentry::disk_fs) drops to 0 and takes the variant's slow path.
  void dput(DentryId d);
  void d_count_inc_locked(DentryId d);  // d_count++ while d_lock is already held
  void mntget();
  void mntput();
  void fs_lock(ObjId fs);  // get_fs_pwd's lock of fs->lock
  void fs_unlock(ObjId fs);
  void vfsmount_read_lock();  // br_read_lock / spin_lock(vfsmount_lock) / seqlock read
  void vfsmount_read_unlock();
  void dcache_lock();
  void dcache_unlock();
  void inode_lock();
  void inode_unlock();
  void mnt_want_write();
  void mnt_drop_write();

  std::size_t size() const { return out_.size(); }
  std::vector<KOp>& ops() { return out_; }

 private:
  // Inline: an expansion emits one KOp per field access, and out of line the call's frame cost
  // about as much as the cached field lookup it makes.
  void emit(KOpKind k, ObjId o, std::string_view f, std::int64_t delta = 0) {
    // With lockref, d_lock and d_count are one word (the lockref) updated together.
    if (spec().d_count == DCount::kLockref && (f == "d_lock" || f == "d_count")) f = "d_lockref";
    push_field(k, vfs_.field(o, f), delta);
  }
  void push_bucket(KOpKind k, std::uint32_t bucket);
  [[noreturn]] void throw_missing_cost(std::string_view step) const;
  void push_field(KOpKind k, const FieldRef& r, std::int64_t delta = 0) {  // one KOp on a field's word
    KOp op;
    op.kind = k;
    op.line = r.line;
    op.word = r.word;
    op.field = r.name;
    op.delta = delta;
    out_.push_back(op);
  }
  void mount_writers_update(ObjId m);

  Vfs& vfs_;
  std::vector<KOp>& out_;
  CpuId cpu_;
  double cost_scale_;
};

}  // namespace walksim::kernel
