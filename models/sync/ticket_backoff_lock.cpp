// libslock's x86-64 ticket lock with proportional back-off as ops; see ticket_backoff_lock.hpp.
#include "models/sync/ticket_backoff_lock.hpp"

namespace walksim::sync {

namespace {
enum Step : std::uint32_t { kTake = 0, kTaken, kWaited, kSeen };
}  // namespace

std::uint64_t TicketBackoffLock::wait_cycles(std::uint64_t distance) {
  const std::uint64_t iterations = distance > 1 ? distance * kBaseWait : kWaitNext;
  return iterations * kNopIterationCycles + (distance > kYieldDistance ? kYieldCycles : 0);
}

bool TicketBackoffLock::do_step(SyncAction action, CpuId, SyncCall& call, std::uint64_t last, Op& out) {
  if (action == SyncAction::kRelease) {
    if (call.step == 0) {  // lock->head++: the holder knows the head, so no read first
      out = word_.store((held_ + 1) & kFieldMask, kFieldMask);
      call.step = 1;
      return true;
    }
    call.result = 0;
    return false;
  }
  if (action != SyncAction::kAcquire) unsupported(action);
  std::uint64_t head = last & kFieldMask;
  switch (call.step) {
    case kTake:  // IAF_U32(&lock->tail): take a ticket
      out = word_.rmw_add(std::uint64_t{1} << kHalf);
      call.step = kTaken;
      return true;
    case kTaken:  // the xadd returned the old word: its tail is the ticket, its head the first read
      call.scratch = (last >> kHalf) & kFieldMask;
      break;
    case kWaited:  // cur = lock->head
      out = word_.load();
      call.step = kSeen;
      return true;
    default:
      break;
  }
  const std::uint64_t ticket = call.scratch;
  if (head == ticket) {
    ++stats_.acquisitions;
    held_ = ticket;
    return false;
  }
  if (call.result == 0) {
    ++stats_.contended;
    call.result = 1;
  }
  out = Op::compute(static_cast<Picos>(wait_cycles((ticket - head) & kFieldMask)) * cycle_);
  call.step = kWaited;
  return true;
}

}  // namespace walksim::sync
