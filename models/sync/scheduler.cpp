// schedule() and try_to_wake_up() as ops (scheduler.hpp; docs/reference/wakeup-path.md §2-§3).
#include "models/sync/scheduler.hpp"

#include <stdexcept>
#include <string>

namespace walksim::sync {

namespace {

constexpr std::uint64_t kLockBit = 1;     // rq->lock in the runqueue line's word; TIF_NEED_RESCHED likewise
constexpr std::uint64_t kQueueBit = 2;    // nr_running and the queue: another field of the same line
constexpr std::uint32_t kLockTake = 200;  // the runqueue lock's own steps; scratch holds the step after it
constexpr std::uint32_t kLockResult = 201;

enum SleepStep : std::uint32_t {
  kOutLock = 0,   // schedule(): spin_lock_irq(&rq->lock)
  kClearResched,  // clear_tsk_need_resched(prev): lock btr on thread_info
  kDequeue,       // deactivate_task: nr_running--, the queue
  kCurrOut,       // rq->curr = idle
  kSwitchOut,     // context_switch to the idle task
  kOutUnlock,     // finish_task_switch: rq->lock released
  kSleep,         // asleep until the task line says running
  kFlight,        // the wake-up reaching this CPU: an IPI's trip and entry, or mwait's exit
  kInLock,        // schedule() of the idle task: rq->lock
  kPick,          // pick_next_task: the queue
  kCurrIn,        // rq->curr = the task
  kSwitchIn,      // context_switch back
  kInUnlock,      // rq->lock released
  kSleepDone,
};

enum WakeStep : std::uint32_t {
  kWLock = 0,  // task_rq_lock(p)
  kWState,     // p->state
  kWRelock,    // 2.6.35+: release the runqueue lock and take it again (TASK_WAKING, select_task_rq)
  kWEnqueue,   // activate_task: the enqueue and nr_running++
  kWResched,   // resched_task: set_bit(TIF_NEED_RESCHED) on the target's current thread_info
  kWPolling,   // tsk_is_polling: TS_POLLING of the target (a halting CPU is not polling)
  kWSendIpi,   // smp_send_reschedule: the APIC writes
  kWRunning,   // p->state = TASK_RUNNING
  kWUnlock,    // task_rq_unlock
  kWDone,
};

}  // namespace

Scheduler::Scheduler(std::vector<CpuLines> lines, SchedulerCosts costs, std::function<Picos(CpuId, CpuId)> flight)
    : lines_(std::move(lines)),
      costs_(costs),
      flight_(std::move(flight)),
      woken_by_(lines_.size(), 0),
      on_cpu_(lines_.size(), 1) {
  if (lines_.empty()) throw std::invalid_argument("the scheduler needs the lines of at least one CPU");
  if (costs_.ttwu_rq_lock_passes < 1 || costs_.ttwu_rq_lock_passes > 2) {
    throw std::invalid_argument("try_to_wake_up takes the runqueue lock once or twice");
  }
}

bool Scheduler::lock_rq(CpuId cpu, std::uint32_t& step, std::uint64_t& scratch, std::uint64_t last, Op& out) {
  const LineId rq = lines_[cpu].rq;
  if (step == kLockTake) {
    out = Op::xchg(rq, kLockBit, kLockBit);
    step = kLockResult;
    return true;
  }
  if (last & kLockBit) {  // held: wait until it is released, then try again
    out = Op::spin_until(rq, 0, kLockBit);
    step = kLockTake;
    return true;
  }
  step = static_cast<std::uint32_t>(scratch);
  return false;
}

bool Scheduler::sleep(CpuId cpu, std::uint32_t& step, std::uint64_t& scratch, std::uint64_t last, Op& out) {
  if (cpu >= lines_.size()) throw std::out_of_range("the scheduler has no runqueue for cpu " + std::to_string(cpu));
  if ((step == kLockTake || step == kLockResult) && lock_rq(cpu, step, scratch, last, out)) return true;
  const CpuLines& l = lines_[cpu];
  auto take_lock = [&](std::uint32_t then) {
    scratch = then;
    step = kLockTake;
    return lock_rq(cpu, step, scratch, last, out);
  };
  switch (step) {
    case kOutLock:
      return take_lock(kClearResched);
    case kClearResched:
      out = Op::xchg(l.thread_info, 0, kLockBit);
      step = kDequeue;
      return true;
    case kDequeue:
      out = Op::store(l.rq, 0, kQueueBit);
      step = kCurrOut;
      return true;
    case kCurrOut:
      on_cpu_[cpu] = 0;
      out = Op::store(l.curr, 0);
      step = kSwitchOut;
      return true;
    case kSwitchOut:
      out = Op::compute(costs_.context_switch);
      step = kOutUnlock;
      return true;
    case kOutUnlock:
      out = Op::store(l.rq, 0, kLockBit);
      step = kSleep;
      return true;
    case kSleep:
      out = Op::sleep_until(l.task, 1, 0);
      step = kFlight;
      return true;
    case kFlight:
      out = Op::idle(costs_.wake_exit + (costs_.wake_by_ipi ? flight_(woken_by_[cpu], cpu) : 0));
      step = kInLock;
      return true;
    case kInLock:
      return take_lock(kPick);
    case kPick:
      out = Op::load(l.rq);
      step = kCurrIn;
      return true;
    case kCurrIn:
      on_cpu_[cpu] = 1;
      out = Op::store(l.curr, 1);
      step = kSwitchIn;
      return true;
    case kSwitchIn:
      out = Op::compute(costs_.context_switch);
      step = kInUnlock;
      return true;
    case kInUnlock:
      out = Op::store(l.rq, 0, kLockBit);
      step = kSleepDone;
      return true;
    default:
      return false;
  }
}

bool Scheduler::wake(CpuId waker, CpuId target, std::uint32_t& step, std::uint64_t& scratch, std::uint64_t last,
                     Op& out) {
  if (target >= lines_.size())
    throw std::out_of_range("the scheduler has no runqueue for cpu " + std::to_string(target));
  if ((step == kLockTake || step == kLockResult) && lock_rq(target, step, scratch, last, out)) return true;
  const CpuLines& t = lines_[target];
  auto take_lock = [&](std::uint32_t then) {
    scratch = then;
    step = kLockTake;
    return lock_rq(target, step, scratch, last, out);
  };
  switch (step) {
    case kWLock:
      return take_lock(kWState);
    case kWState:
      out = Op::load(t.task);
      step = costs_.ttwu_rq_lock_passes == 2 ? kWRelock : kWEnqueue;
      return true;
    case kWRelock:
      out = Op::store(t.rq, 0, kLockBit);
      scratch = kWEnqueue;
      step = kLockTake;
      return true;
    case kWEnqueue:
      out = Op::store(t.rq, kQueueBit, kQueueBit);
      step = kWResched;
      return true;
    case kWResched:
      out = Op::xchg(t.thread_info, kLockBit, kLockBit);
      step = costs_.wake_by_ipi ? kWPolling : kWRunning;
      return true;
    case kWPolling:
      out = Op::load(t.thread_info);
      step = kWSendIpi;
      return true;
    case kWSendIpi:
      out = Op::compute(costs_.ipi_send);
      step = kWRunning;
      return true;
    case kWRunning:
      woken_by_[target] = waker;
      ++wakeups_;
      out = Op::store(t.task, 1);
      step = kWUnlock;
      return true;
    case kWUnlock:
      out = Op::store(t.rq, 0, kLockBit);
      step = kWDone;
      return true;
    default:
      return false;
  }
}

}  // namespace walksim::sync
