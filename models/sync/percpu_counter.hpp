// A per-CPU counter (this_cpu_add: the 2.6.38 per-cpu mnt_count, nr_dentry, nr_inodes; the 2007
// per-cpu mnt writer counts). An update is a non-atomic add to the calling CPU's own line, which
// no other CPU writes, so it stays in that CPU's cache; a read of the total loads every CPU's line.
#pragma once

#include <span>
#include <vector>

#include "models/sync/sync_primitive.hpp"

namespace walksim::sync {

class PercpuCounter final : public SyncPrimitive {
 public:
  explicit PercpuCounter(std::span<const LineId> per_cpu);

  std::string_view kind() const override { return "percpu"; }
  bool steps_are_own() const override { return true; }
  bool supports(SyncAction a) const override { return a == SyncAction::kPercpuAdd || a == SyncAction::kRead; }

 protected:
  bool do_step(SyncAction action, CpuId cpu, SyncCall& call, std::uint64_t last, Op& out) override;

 private:
  std::vector<LineId> lines_;
};

}  // namespace walksim::sync
