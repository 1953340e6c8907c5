// The CLH queue lock (Craig; Landin and Hagersten) as the SSYNC study ran it (libslock `clh.c`):
// the lock word points at the newest node; acquire marks its own node locked, swaps it in and
// spins on its predecessor's node; release clears its own node and adopts the predecessor's node
// for next time. Waiters spin on distinct lines, but each on a line its predecessor writes, and
// nodes migrate between CPUs as they are passed on.
#pragma once

#include <span>
#include <vector>

#include "models/sync/sync_primitive.hpp"

namespace walksim::sync {

// Lines: the lock word, the lock's initial node (libslock allocates it with the lock) and one
// initial node per CPU (allocated by each thread on its own node). Not modelled: the Opteron
// build's PREFETCHW and pause_rep(23) between the waiter's re-reads of its predecessor's node.
// The lock word names the tail node: 0 the lock's initial node, n + 1 node n (nodes are numbered
// 0..cpus-1 for the CPUs' initial nodes, cpus for the lock's), so an all-zero start is a free lock.
// A node's word is 1 while its owner holds or waits for the lock, 0 once it has released it.
class ClhLock final : public SyncPrimitive {
 public:
  // `first_node` is the lock's own initial node; `nodes` has one line per CPU.
  ClhLock(SyncWord lock, LineId first_node, std::span<const LineId> nodes);
  std::string_view kind() const override { return "clh"; }
  bool supports(SyncAction a) const override { return a == SyncAction::kAcquire || a == SyncAction::kRelease; }

  // The node line a CPU will use for its next acquire: its initial one, or the one it adopted at
  // its last release.
  LineId node_of(CpuId cpu) const { return lines_.at(mine_.at(cpu)); }

 protected:
  bool do_step(SyncAction action, CpuId cpu, SyncCall& call, std::uint64_t last, Op& out) override;

 private:
  std::uint32_t decode(std::uint64_t tail) const {
    return tail == 0 ? static_cast<std::uint32_t>(lines_.size() - 1) : static_cast<std::uint32_t>(tail - 1);
  }

  SyncWord lock_;
  std::vector<LineId> lines_;        // node lines by node number
  std::vector<std::uint32_t> mine_;  // per CPU: the node it uses for its next acquire
  std::vector<std::uint32_t> pred_;  // per CPU: the node it waited on (adopted at its release)
};

}  // namespace walksim::sync
