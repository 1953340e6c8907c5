// clh_acquire / clh_release as ops; see clh_lock.hpp.
#include "models/sync/clh_lock.hpp"

#include <stdexcept>
#include <string>

namespace walksim::sync {

namespace {
enum AcquireStep : std::uint32_t { kMark = 0, kSwap, kSwapped, kWait, kGranted };
}  // namespace

ClhLock::ClhLock(SyncWord lock, LineId first_node, std::span<const LineId> nodes)
    : lock_(lock), lines_(nodes.begin(), nodes.end()), mine_(nodes.size()), pred_(nodes.size()) {
  if (nodes.empty()) throw std::invalid_argument("clh lock needs one node line per CPU");
  lines_.push_back(first_node);
  for (std::uint32_t c = 0; c < mine_.size(); ++c) mine_[c] = c;
}

bool ClhLock::do_step(SyncAction action, CpuId cpu, SyncCall& call, std::uint64_t last, Op& out) {
  if (cpu >= mine_.size()) throw std::out_of_range("clh lock has no node for cpu " + std::to_string(cpu));
  const LineId node = lines_[mine_[cpu]];
  if (action == SyncAction::kRelease) {
    if (call.step == 0) {
      out = Op::store(node, 0);  // my_qnode->locked = 0
      mine_[cpu] = pred_[cpu];   // return my_pred: the predecessor's node is ours from now on
      call.step = 1;
      return true;
    }
    return false;
  }
  if (action != SyncAction::kAcquire) unsupported(action);
  switch (call.step) {
    case kMark:
      out = Op::store(node, 1);  // I->locked = 1
      call.step = kSwap;
      return true;
    case kSwap:
      out = lock_.xchg(std::uint64_t{mine_[cpu]} + 1);  // pred = SWAP_PTR(L, I)
      call.step = kSwapped;
      return true;
    case kSwapped:
      pred_[cpu] = decode(last);
      out = Op::load(lines_[pred_[cpu]]);  // while (pred->locked != 0): the first read
      call.step = kWait;
      return true;
    case kWait:
      if (last == 0) {
        ++stats_.acquisitions;
        call.result = 0;
        return false;
      }
      out = Op::spin_until(lines_[pred_[cpu]], 0);
      call.step = kGranted;
      return true;
    default:
      ++stats_.acquisitions;
      ++stats_.contended;
      call.result = 1;
      return false;
  }
}

}  // namespace walksim::sync
