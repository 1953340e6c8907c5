// atomic_t and the operations the 2.6.35 VFS uses on reference counts (d_count, mnt_count,
// i_count): inc, dec and dec_and_test are one locked RMW each; add_unless is a load and a cmpxchg
// loop; atomic_dec_and_lock (dput, iput, mntput) is add_unless(-1, 1) while the count stays above
// one and spin_lock + dec_and_test on the final reference.
#pragma once

#include "models/sync/sync_primitive.hpp"

namespace walksim::sync {

class AtomicCounter final : public SyncPrimitive {
 public:
  // `lock` is the spinlock atomic_dec_and_lock takes (dcache_lock, inode_lock); it may be null
  // when the counter is never used that way.
  explicit AtomicCounter(SyncWord word, SyncPrimitive* lock = nullptr) : word_(word), lock_(lock) {}

  std::string_view kind() const override { return "atomic"; }
  // Its own words, and its lock's (atomic_dec_and_lock) when that lock's steps are own too.
  bool steps_are_own() const override { return lock_ == nullptr || lock_->steps_are_own(); }
  bool supports(SyncAction a) const override;

 protected:
  bool do_step(SyncAction action, CpuId cpu, SyncCall& call, std::uint64_t last, Op& out) override;

 private:
  // atomic_add_unless(v, amount, unless) from `step` on (the load is step 0). Returns like step().
  bool add_unless(SyncCall& call, std::uint64_t amount, std::uint64_t unless, std::uint64_t last, Op& out);

  SyncWord word_;
  SyncPrimitive* lock_;
};

}  // namespace walksim::sync
