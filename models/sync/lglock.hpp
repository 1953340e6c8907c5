// lglock / brlock (Linux 2.6.36+: vfsmount_lock, files_lglock): one ticket spinlock per CPU, each
// on its CPU's own line. A reader (local lock) takes only its own CPU's lock, so readers on
// different CPUs never share a line; a writer (global lock) takes every CPU's lock in CPU order.
#pragma once

#include <span>
#include <vector>

#include "models/sync/ticket_spinlock.hpp"

namespace walksim::sync {

// br_read_lock/unlock are kReadAcquire/kReadRelease (= kLocalLock/kLocalUnlock), br_write_lock/
// unlock are kAcquire/kRelease (= kGlobalLock/kGlobalUnlock).
class LgLock final : public SyncPrimitive {
 public:
  explicit LgLock(std::span<const LineId> per_cpu);

  std::string_view kind() const override { return "lglock"; }
  bool steps_are_own() const override { return true; }
  bool supports(SyncAction a) const override;

  const TicketSpinlock& cpu_lock(CpuId cpu) const { return locks_.at(cpu); }

 protected:
  bool do_step(SyncAction action, CpuId cpu, SyncCall& call, std::uint64_t last, Op& out) override;

 private:
  std::vector<TicketSpinlock> locks_;
};

}  // namespace walksim::sync
