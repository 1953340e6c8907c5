// The scheduler's part of sleeping and waking, as operations on lines, so that a sleeping lock's
// cost is real work on real lines instead of a fixed latency (docs/model.md, "Sleeping and
// waking"; the sequences are docs/reference/wakeup-path.md §2-§3, read from 2.6.20 and 2.6.35's
// kernel/sched.c). Per CPU: its runqueue's line (rq->lock, nr_running, the enqueue), the line of
// rq->curr, the thread_info line of the task running there (TIF_NEED_RESCHED, TS_POLLING) and the
// state line of the task that runs on it (one process per CPU, as the workloads place them).
//
// Modelled: schedule() on the way out (the runqueue lock, clear_tsk_need_resched, the dequeue,
// rq->curr, the context switch's private work, the unlock in finish_task_switch), the sleep, the
// wake-up's flight to the sleeping CPU (an IPI: the interconnect between the two CPUs and the
// interrupt's entry; or the exit from mwait, whose monitored line the waker wrote), schedule() on
// the way in, and the waker's try_to_wake_up (the target runqueue's lock, taken once in 2.6.20 and
// twice from 2.6.35, the state read, the enqueue, the remote set_bit of TIF_NEED_RESCHED, the
// TS_POLLING read and the IPI's send when the target halts, the store of TASK_RUNNING). Not
// modelled: the CFS rbtree and cfs_rq lines beyond the runqueue's own, idle_balance, select_task_rq
// (a task wakes on its own CPU: one process per CPU), the mm_count RMWs of a switch to the idle
// task and back (on the sleeper's own mm: private). rq->lock is a test-and-set lock here (2.6.20's
// is `lock decb`, 2.6.35's a ticket lock): one waker at a time contends for a sleeper's runqueue.
#pragma once

#include <functional>
#include <vector>

#include "models/sync/sync_primitive.hpp"

namespace walksim::sync {

struct SchedulerCosts {
  Picos context_switch = 0;               // switch_to and the rest of a switch's private work, each way
  bool wake_by_ipi = true;                // the idle CPU halts (an IPI wakes it), else it mwaits on its thread_info
  Picos ipi_send = 0;                     // the waker's APIC writes, when it sends one
  Picos wake_exit = 0;                    // the woken CPU's interrupt entry, or its exit from mwait
  std::uint32_t ttwu_rq_lock_passes = 1;  // try_to_wake_up takes the target's rq->lock once (2.6.20) or twice
};

class Scheduler {
 public:
  struct CpuLines {
    LineId rq;           // rq->lock, nr_running
    LineId curr;         // rq->curr
    LineId thread_info;  // flags of the task running on the CPU
    LineId task;         // the CPU's task's state: 1 running, 0 asleep
  };
  // `flight(from, to)`: how long a signal from CPU `from` takes to reach CPU `to` (an IPI's trip).
  Scheduler(std::vector<CpuLines> lines, SchedulerCosts costs, std::function<Picos(CpuId, CpuId)> flight);

  LineId task_line(CpuId cpu) const { return lines_.at(cpu).task; }
  LineId curr_line(CpuId cpu) const { return lines_.at(cpu).curr; }
  // Whether the task of `cpu` is on its CPU (rq->curr is the task, not the idle task).
  bool on_cpu(CpuId cpu) const { return on_cpu_.at(cpu) != 0; }
  std::uint32_t cpus() const { return static_cast<std::uint32_t>(lines_.size()); }

  // Step machines on (step, scratch), both 0 at the start, `last` the previous op's result; each
  // returns false when it has no more ops. sleep(): the task on `cpu`, already marked asleep (its
  // task line 0), schedules out, sleeps until woken, and is scheduled back in. wake(): `waker`
  // wakes the task of `target`.
  bool sleep(CpuId cpu, std::uint32_t& step, std::uint64_t& scratch, std::uint64_t last, Op& out);
  bool wake(CpuId waker, CpuId target, std::uint32_t& step, std::uint64_t& scratch, std::uint64_t last, Op& out);

  std::uint64_t wakeups() const { return wakeups_; }

 private:
  // rq->lock of `cpu`: an xchg, and while it was held a spin until it is free and another xchg;
  // then `then` (kept in scratch). Returns the op to issue.
  bool lock_rq(CpuId cpu, std::uint32_t& step, std::uint64_t& scratch, std::uint64_t last, Op& out);

  std::vector<CpuLines> lines_;
  SchedulerCosts costs_;
  std::function<Picos(CpuId, CpuId)> flight_;
  std::vector<CpuId> woken_by_;       // per CPU: who last woke its task
  std::vector<std::uint8_t> on_cpu_;  // per CPU: rq->curr is the task (as its curr line says)
  std::uint64_t wakeups_ = 0;
};

}  // namespace walksim::sync
