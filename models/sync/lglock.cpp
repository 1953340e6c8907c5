// Local and global lglock paths as nested ticket-lock calls; see lglock.hpp.
#include "models/sync/lglock.hpp"

#include <stdexcept>
#include <string>

namespace walksim::sync {

LgLock::LgLock(std::span<const LineId> per_cpu) {
  if (per_cpu.empty()) throw std::invalid_argument("lglock needs one line per CPU");
  locks_.reserve(per_cpu.size());
  for (LineId l : per_cpu) locks_.emplace_back(l);
}

bool LgLock::supports(SyncAction a) const {
  switch (a) {
    case SyncAction::kLocalLock:
    case SyncAction::kLocalUnlock:
    case SyncAction::kLocalLockCpu:
    case SyncAction::kLocalUnlockCpu:
    case SyncAction::kGlobalLock:
    case SyncAction::kGlobalUnlock:
    case SyncAction::kReadAcquire:
    case SyncAction::kReadRelease:
    case SyncAction::kAcquire:
    case SyncAction::kRelease:
      return true;
    default:
      return false;
  }
}

bool LgLock::do_step(SyncAction action, CpuId cpu, SyncCall& call, std::uint64_t last, Op& out) {
  auto lock_of = [&](std::uint64_t c) -> TicketSpinlock& {
    if (c >= locks_.size()) throw std::out_of_range("lglock has no lock for cpu " + std::to_string(c));
    return locks_[static_cast<std::size_t>(c)];
  };
  switch (action) {
    case SyncAction::kLocalLock:
    case SyncAction::kReadAcquire:
    case SyncAction::kLocalLockCpu: {
      const std::uint64_t target = action == SyncAction::kLocalLockCpu ? call.arg : cpu;
      std::uint64_t waited = 0;
      if (step_nested(lock_of(target), SyncAction::kAcquire, cpu, call, last, out, &waited)) return true;
      ++stats_.acquisitions;
      stats_.contended += waited;
      call.result = waited;
      return false;
    }
    case SyncAction::kLocalUnlock:
    case SyncAction::kReadRelease:
    case SyncAction::kLocalUnlockCpu: {
      const std::uint64_t target = action == SyncAction::kLocalUnlockCpu ? call.arg : cpu;
      return step_nested(lock_of(target), SyncAction::kRelease, cpu, call, last, out);
    }
    case SyncAction::kGlobalLock:
    case SyncAction::kAcquire:
      // scratch: the CPU whose lock is being taken; result: whether any of them made us wait.
      if (call.step == 0) {
        call.step = 1;
        call.result = 0;
      }
      while (call.scratch < locks_.size()) {
        std::uint64_t waited = 0;
        if (step_nested(locks_[static_cast<std::size_t>(call.scratch)], SyncAction::kAcquire, cpu, call, last, out,
                        &waited)) {
          return true;
        }
        call.result |= waited;
        ++call.scratch;
        last = 0;
      }
      ++stats_.acquisitions;
      stats_.contended += call.result;
      return false;
    case SyncAction::kGlobalUnlock:
    case SyncAction::kRelease:
      while (call.scratch < locks_.size()) {
        if (step_nested(locks_[static_cast<std::size_t>(call.scratch)], SyncAction::kRelease, cpu, call, last, out)) {
          return true;
        }
        ++call.scratch;
        last = 0;
      }
      call.result = 0;
      return false;
    default:
      unsupported(action);
  }
}

}  // namespace walksim::sync
