// The ticket lock of the SSYNC study as libslock builds it for x86-64 (src/ticket.c, the branch
// without OPTERON_OPTIMIZE, which is what its lock stress tests ran unless told otherwise): take a
// ticket with a locked xadd on the tail, then read the head; while it is not yet this ticket, wait
// in proportion to the distance — `distance x TICKET_BASE_WAIT` (512) nop-loop iterations when more
// than one waiter is ahead, TICKET_WAIT_NEXT (128) when this ticket is next — and call sched_yield()
// after any read that found more than 20 ahead; then read the head again. Release is a plain
// increment of the head. Head and tail share one line (TICKET_ON_TW0_CLS 0).
//
// Unlike the kernel's ticket spinlock (ticket_spinlock.hpp, the "non-optimized" lock of SSYNC
// Fig. 3), waiters do not all re-read the line at every release: each comes back after its own
// wait, so a release is answered by few reads and the lock hands over faster under contention.
#pragma once

#include "models/sync/sync_primitive.hpp"

namespace walksim::sync {

class TicketBackoffLock final : public SyncPrimitive {
 public:
  // `cycle`: one CPU cycle of the machine (the nop loop and the yield are counted in cycles).
  TicketBackoffLock(SyncWord word, Picos cycle) : word_(word), cycle_(cycle) {}
  std::string_view kind() const override { return "ticket-backoff"; }
  bool supports(SyncAction a) const override { return a == SyncAction::kAcquire || a == SyncAction::kRelease; }

  static constexpr std::uint64_t kBaseWait = 512;      // ticket.h TICKET_BASE_WAIT, nop-loop iterations
  static constexpr std::uint64_t kWaitNext = 128;      // ticket.h TICKET_WAIT_NEXT
  static constexpr std::uint64_t kYieldDistance = 20;  // ticket.c: sched_yield() when more than 20 ahead
  // One iteration of libslock's nop_rep() loop: platform_defs.h NOP_DURATION, the authors' own
  // figure for the Opteron (2 cycles; 1 on their Xeon).
  static constexpr std::uint64_t kNopIterationCycles = 2;
  // sched_yield() with no other runnable task on the CPU: the system call's entry and exit and a
  // pass through schedule() that picks the caller again. Estimate: ~1,000 cycles (the kernel
  // models' syscall entry/exit estimate is 120 cycles; schedule()'s pick, its runqueue lock and the
  // accounting are the rest); no measurement for this machine in the reference notes.
  static constexpr std::uint64_t kYieldCycles = 1000;

  // The wait after a read of the head that found `distance` tickets to go (distance >= 1), in cycles.
  static std::uint64_t wait_cycles(std::uint64_t distance);

 protected:
  bool do_step(SyncAction action, CpuId cpu, SyncCall& call, std::uint64_t last, Op& out) override;

 private:
  static constexpr std::uint64_t kHalf = 32;  // head in bits 0-31, tail in bits 32-63 of the word
  static constexpr std::uint64_t kFieldMask = (std::uint64_t{1} << kHalf) - 1;
  SyncWord word_;
  Picos cycle_;
  std::uint64_t held_ = 0;  // the holder's ticket (one holder at a time), for the release
};

}  // namespace walksim::sync
