// Ticket acquire and release as ops; see ticket_spinlock.hpp.
#include "models/sync/ticket_spinlock.hpp"

#include <stdexcept>

namespace walksim::sync {

TicketSpinlock::TicketSpinlock(SyncWord word, TicketLayout layout)
    : word_(word),
      layout_(layout),
      field_mask_(layout.bits >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << layout.bits) - 1),
      head_mask_(field_mask_ << layout.shift) {
  if (layout.bits == 0 || layout.bits > 32 || layout.shift + 2 * layout.bits != 64) {
    throw std::invalid_argument("ticket lock layout: the tail must end at bit 63 (shift + 2 * bits == 64)");
  }
}

bool TicketSpinlock::do_step(SyncAction action, CpuId, SyncCall& call, std::uint64_t last, Op& out) {
  switch (action) {
    case SyncAction::kAcquire:
      switch (call.step) {
        case 0:  // lock xadd: take a ticket
          out = word_.rmw_add(std::uint64_t{1} << (layout_.shift + layout_.bits));
          call.step = 1;
          return true;
        case 1: {
          // The xadd returned the head too: an uncontended acquire reads nothing more.
          const std::uint64_t ticket = tail(last);
          if (head(last) == ticket) {
            ++stats_.acquisitions;
            held_ = ticket;
            call.result = 0;
            return false;
          }
          ++stats_.contended;
          call.scratch = ticket;
          out = word_.spin_until(ticket << layout_.shift, head_mask_);
          call.step = 2;
          return true;
        }
        default:
          ++stats_.acquisitions;
          held_ = call.scratch;
          call.result = 1;
          return false;
      }
    case SyncAction::kRelease:
      if (call.step == 0) {
        out = word_.store(((held_ + 1) & field_mask_) << layout_.shift, head_mask_);
        call.step = 1;
        return true;
      }
      call.result = 0;
      return false;
    default:
      unsupported(action);
  }
}

}  // namespace walksim::sync
