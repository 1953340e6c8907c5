// Runs one Program per hardware thread on a MemorySystem, in global time order. A thread runs
// ahead on its own clock without events while it stays before every pending event (so hits and
// private work cost no queue traffic); anything later is handed back to the event queue.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <unordered_map>
#include <vector>

#include "models/coherence/memory_system.hpp"
#include "models/exec/fifo.hpp"
#include "models/exec/op.hpp"
#include "sim/simulation.hpp"

namespace walksim::exec {

using machine::CpuId;

struct ThreadStats {
  std::uint64_t ops = 0;
  std::uint64_t loads = 0, stores = 0, atomics = 0;
  std::uint64_t misses = 0;  // accesses beyond the private caches
  Picos memory_stall = 0;    // time waiting for memory accesses
  // Accesses by where they were served (coherence::Source order), and the time the thread waited
  // for them (hits included; a store that goes on without waiting adds none).
  std::array<std::uint64_t, coherence::kSources> served{};
  std::array<Picos, coherence::kSources> served_wait{};
  Picos spin = 0;   // time parked in spin-waits (burns CPU)
  Picos sleep = 0;  // time asleep, including wake-up latency (no CPU)
  Picos compute = 0;
  Picos started = 0, finished = 0;
  // Spinning burns CPU, sleeping does not.
  Picos cpu_time() const { return finished - started - sleep; }
};

class Executor final : public sim::EventHandler {
 public:
  Executor(sim::Simulation& sim, coherence::MemorySystem& mem);

  // Starts `program` on `cpu` at time `at` (one program per CPU at a time). From then on, for the
  // rest of the run, the CPU counts as hosting a process: while another hardware thread of its core
  // does too, each of them runs its private work and cache hits at the machine's smt_throughput
  // (a static rule: docs/model.md, "SMT").
  void start(CpuId cpu, Program& program, Picos at = 0);
  // Run-ahead (set before the first start()): a thread whose clock is past the next pending event
  // by at most a window goes on without yielding while its next operation is its own
  // (Program::next_is_own) and touches nothing another core holds: private work, a fence, a load
  // or a prefetch that hits in its private caches (or a spin-wait it ends at once), a store to a
  // line its core holds Modified, all with an empty store buffer; within the exact window, a locked
  // operation on such a line too. A longer window (an approximation) does not run ahead over locked
  // operations: on a contended line they are what a run measures (at 50 ns, a thread that kept an
  // owned line over its cmpxchgs made SSYNC's 2-thread CAS +27%). No run ahead on a core whose SMT
  // siblings run programs (they share its caches). The generation floor runs ahead by the same
  // rules over every access (it keeps no line state, so each is its own), as the simulation could
  // at best.
  //   kRunAheadExact (the default): the window is the shortest request leg from another core less
  // 1 ps (exact_window: no access another core issues at or after the next event takes effect
  // earlier; Machine::miss_departure, plus a domain_link where every domain is a single core), and
  // events of one time run by rank, not by the order they were scheduled in, so the run is the
  // step-by-step one, operation for operation (docs/performance.md, "Twentieth step" and
  // "Twenty-ninth step"). kRunAheadOff: step by step. A longer window is an approximation: an
  // operation may then take effect up to `window` before an access of another core that was issued
  // earlier (docs/performance.md, "Run-ahead").
  static constexpr Picos kRunAheadExact = 0;
  static constexpr Picos kRunAheadOff = -1;
  void set_run_ahead(Picos window) {
    const Picos exact = exact_window();
    run_ahead_ = window == kRunAheadExact ? exact : std::max<Picos>(window, 0);
    locked_ahead_ = run_ahead_ <= exact;
  }
  // The longest window that keeps a run exact on this machine.
  Picos exact_window() const;
  // Cores with more than one CPU that hosted a program (the SMT-shared cores of the run).
  std::uint32_t smt_cores() const;
  // Runs the simulation until every program finished. Throws std::logic_error if threads are
  // still parked with nothing left to wake them (a lost wake-up or a deadlock). With `watch`, the
  // run goes in slices of `slice` simulated time and `watch` is called after each with the clock;
  // it may throw to stop the run (no progress, Ctrl-C). The events run in the same order either way.
  void run(const std::function<void(Picos now)>& watch = {}, Picos slice = 0);

  const ThreadStats& stats(CpuId cpu) const { return threads_[cpu].stats; }
  // The value of a line's own word, or of a named word (Op::on_word).
  std::uint64_t word(LineId line) const { return line < words_.size() ? words_[line] : 0; }
  std::uint64_t named_word(std::uint32_t w) const { return w < named_words_.size() ? named_words_[w] : 0; }

  void on_event(std::uint64_t tag) override;
  // Sizes the value stores for `lines` lines and `named_words` named words up front (a run that
  // knows them saves the doubling's slack: most of a large tree's words are touched).
  void reserve(std::size_t lines, std::size_t named_words) {
    if (words_.size() < lines) words_.resize(lines, 0);
    if (named_words_.size() < named_words) named_words_.resize(named_words, 0);
  }

  // Executor memory per line: the value of its own word and whether it has parked waiters.
  static constexpr std::size_t bytes_per_line() { return sizeof(std::uint64_t) + sizeof(std::uint8_t); }

 private:
  enum class State : std::uint8_t {
    kIdle,
    kRunnable,
    kParked,      // in a spin- or sleep-wait, until a write to its line
    kAwaitGrant,  // its access waits in a line's queue until the memory system grants it
    kAwaitDrain,  // a locked op, fence, wait or its end waits for its store buffer to drain
    kDone
  };
  // A thread's event still queued that a later turn of the same kind replaced (Thread::superseded).
  struct Superseded {
    Picos at;
    std::uint32_t event;  // its id; the drain bit of its tag is in `drain`
    bool drain;
  };
  // A store that waits in the store buffer: for its line's grant (the oldest waits in the line's
  // queue), or for the older stores to be performed (TSO: stores become visible in program order).
  struct Buffered {
    LineId line;
    std::uint32_t word;
    std::uint64_t value, mask;
    // Where the ownership prefetch issued with the store found its line, when one was served: the
    // store then counts as served from there, not as the hit it usually is when it is performed.
    bool prefetched = false;
    coherence::Source prefetch_source = coherence::Source::kL1;
  };
  static constexpr LineId kNoLine = UINT32_MAX;
  struct Thread {
    Program* program = nullptr;
    State state = State::kIdle;
    Picos clock = 0;
    Picos store_drain = 0;  // when the store buffer will have drained
    Picos parked_at = 0;
    bool sleeping = false;  // parked in kSleepUntil rather than kSpinUntil
    std::uint64_t last_result = 0;
    bool has_pending = false;  // an op to retry (a spin-wait woken by a write)
    Op pending;
    Program::Run run;  // the rest of the run the program handed out with its last op (Program::take_run)
    CoreSpeed speed;   // private work and cache hits run at this speed
    Picos issue = 0;   // a store's or prefetch's issue cycle at that speed
    ThreadStats stats;
    // Effect at grant: the line whose queue holds the pending op, when the op was first issued,
    // and the stores still buffered. Events carry a generation so that a superseded one is ignored.
    LineId waiting_line = kNoLine;
    Picos op_issued = 0;
    bool granted_retry = false;  // the pending op is a queued access asked again (not counted twice)
    bool finishing = false;      // the program ended; the thread stops when its stores drained
    bool runs_ahead = false;     // run-ahead is on and the thread's core hosts no other program
    Fifo<Buffered> store_buffer;
    // Turns (run or drain events): `*_gen` counts the turns announced (a grant's record names the
    // one it announced), `*_event` is the queued live event's id (its tag's generation) and
    // `*_announced` its time (kNever: none queued); `superseded` holds the events still queued
    // that a later turn replaced. A turn at the time of a superseded event takes that event back
    // instead of queuing another: two events of one thread, time and kind would have one time and
    // one rank, and leave the queue in an order its history decides.
    std::uint32_t run_gen = 0, drain_gen = 0;
    std::uint32_t run_event = 0, drain_event = 0, events_made = 0;
    Picos run_announced = sim::kNever, drain_announced = sim::kNever;
    std::vector<Superseded> superseded;
  };

  // `at + by`, or std::runtime_error naming the CPU when simulated time would overflow int64.
  static Picos advance(CpuId cpu, Picos at, Picos by) {
    Picos sum;
    if (__builtin_add_overflow(at, by, &sum)) [[unlikely]] {
      throw_time_overflow(cpu);
    }
    return sum;
  }
  // The memory system adds a transaction's components to the issue time without checks. Each
  // component is at most 1 s (the loaders and Machine refuse more), so a transaction is far
  // shorter than half the clock: issuing no access past that half keeps its sums from wrapping.
  static constexpr Picos kAccessHorizon = sim::kNever / 2;
  static void check_issue(CpuId cpu, Picos at) {
    if (at > kAccessHorizon) [[unlikely]] {
      throw_time_overflow(cpu);
    }
  }
  [[noreturn]] static void throw_time_overflow(CpuId cpu);

  void run_thread(CpuId cpu);
  // Whether a thread at `at` goes before every pending event: earlier, or at its time with a lower
  // rank than the event (as if its turn were an event of its own).
  bool before_next_event(CpuId cpu, Picos at) const;
  // Run-ahead (set_run_ahead): whether `t`, past the next event, may go on with its next operation
  // (made now, into t.pending, if the program can make it without shared state).
  // Inline: asked before every operation a thread runs ahead over.
  bool may_run_ahead(CpuId cpu, Thread& t) {
    if (!t.runs_ahead || t.finishing || !t.store_buffer.empty() || t.clock - sim_.next_event_time() > run_ahead_ ||
        grant_before(t.clock)) {
      return false;
    }
    // The next operation: the pending one, else the head of the program's run (the program made
    // it without shared state), else one the program makes now if it can. One that is not an
    // operation it may run ahead over stays where it is, for the thread's next turn.
    const Op* next = t.has_pending              ? &t.pending
                     : t.run.begin != t.run.end ? t.run.begin
                     : make_own_pending(t)      ? &t.pending
                                                : nullptr;
    return next != nullptr && is_own_access(cpu, t, *next);
  }
  // Makes the program's next operation into t.pending if the program can make it without shared
  // state (false if not); with no operation pending and the program's run empty.
  bool make_own_pending(Thread& t);
  // The grants scheduled (a waiting access's turn, a drain, a hint), earliest first, for run-ahead
  // (kept only with it; entries of grants that ran or were superseded are dropped when met).
  struct PendingGrant {
    enum Kind : std::uint8_t { kRun, kDrain, kHint };
    Picos at;
    CpuId cpu;
    std::uint32_t gen;
    Kind kind;
    LineId line;
    struct Later {
      bool operator()(const PendingGrant& a, const PendingGrant& b) const { return a.at > b.at; }
    };
  };
  void note_grant(const PendingGrant& g);
  // Whether a grant still pending is at or before `at`. The pending grants are among the listed
  // ones, so when the earliest listed entry (pending or not) is after `at` the answer is no without
  // checking which entries still stand: most asks end there, inline (dbench-64 store-free: 4% of
  // the simulation's host instructions were those checks).
  bool grant_before(Picos at) { return !grants_.empty() && at >= grants_.front().at && at >= earliest_listed_grant(); }
  Picos earliest_listed_grant();
  // Whether `op` is one a thread may run ahead over (inline: asked for every operation run ahead).
  bool is_own_access(CpuId cpu, const Thread& t, const Op& op) const {
    switch (op.kind) {
      case OpKind::kCompute:
      case OpKind::kIdle:
      case OpKind::kFence:
        return true;  // the store buffer is empty: nothing to wait for
      case OpKind::kLoad:
        return mem_.hits_privately(t.clock, cpu, op.line, false);
      case OpKind::kStore:
        // Performed at once (not buffered behind an older store's miss still in flight).
        return mem_.hits_privately(t.clock, cpu, op.line, true) && store_order_start(t, cpu, op.line) <= t.clock;
      case OpKind::kRmwAdd:
      case OpKind::kRmwXchg:
      case OpKind::kCas:
        // A locked operation is performed once the thread's stores are (at max(clock, store_drain)):
        // only at its clock is it inside the window. On a Modified line it is a write that hits.
        // Within the exact window only (set_run_ahead).
        return locked_ahead_ && t.store_drain <= t.clock && mem_.hits_privately(t.clock, cpu, op.line, true);
      case OpKind::kSpinUntil:
        // A wait that will not park: a hit whose value already ends it (a seqcount that is even).
        return mem_.hits_privately(t.clock, cpu, op.line, false) &&
               ((op.word == kLineWord ? word(op.line) : named_word(op.word)) & op.mask) == op.expect;
      case OpKind::kPrefetch:
        // A prefetch of a line the core holds is served as a load's hit is (MemorySystem::request:
        // the same LRU touch, no other change) without waiting for the data: what a load may run
        // ahead over, a prefetch may. One of a line it does not hold joins the line's queue.
        return mem_.hits_privately(t.clock, cpu, op.line, false);
      default:
        return false;  // prefetches for writing (they change the line's state), sleeps
    }
  }
  // Inlined into its callers: run_thread computes the same rank just before (the tie check of
  // before_next_event), and out of line the call cost 58 host instructions a yield on the stat
  // loop instead of about 20.
  [[gnu::always_inline]] inline void schedule_run(CpuId cpu, Picos at);
  // Sets a thread's turn of one kind for `at` while an event of it may be queued: the live one
  // becomes superseded, and one superseded at `at` is taken back (true) instead of a new one queued.
  bool take_back_superseded(Thread& t, Picos at, bool drain);
  void forget_superseded(Thread& t, std::uint32_t event, bool drain);
  void schedule_drain(CpuId cpu, Picos at);
  // Schedules the request at the head of `line`'s queue (if any) for the time it may take effect.
  void announce(LineId line);
  // Grants the hint at the head of `line`'s queue if its time has come (the event announce()
  // scheduled for it).
  void grant_hint(LineId line);
  // Asks for store `b` at `at`: commits its value and returns true when it took effect; otherwise
  // it waits in its line's queue and false is returned (the caller buffers it, then announces).
  bool try_store(Thread& t, CpuId cpu, const Buffered& b, Picos at);
  // The earliest time store `b` may be performed (TSO): once the thread's older stores are. A store
  // that hits in the core's own cache completes a first-level latency after it starts, so it may
  // start that much before them; any other asks for its line only when they are performed.
  Picos store_order_start(const Thread& t, CpuId cpu, LineId line) const;
  // The ownership prefetch of a store that must wait for the older ones, as a store miss issues
  // when it executes, if no other request waits for the line (a hint never jumps a queue): it takes
  // effect at its grant (grant_hint). Another core may take the line back before the store is
  // performed.
  void prefetch_for_store(Thread& t, CpuId cpu, Buffered& b);
  // Commits the oldest buffered store of `cpu` if its grant came, then issues the next ones.
  void drain_stores(CpuId cpu);
  // The thread's own view of a word: the global value with its buffered stores to it applied.
  // Sets `buffered` when the thread has a buffered store to the word's line (else returns 0: the
  // load goes to the memory system).
  std::uint64_t forwarded(CpuId cpu, const Thread& t, const Op& op, bool& buffered);
  // A write performed by a thread running ahead of the next event (a store or a locked operation
  // on a line it holds Modified), with the word's value before it. A load that finds its own
  // buffered store to the line reads the line's value at its issue, not through a request
  // (execute, kLoad); a thread that steps may issue one at a time before such a write, and must
  // read the value from before it, as it would have had the writer stepped too. Kept while the
  // write may be after some thread's clock (no earlier than the event being run).
  struct AheadWrite {
    Picos at;
    CpuId cpu;
    LineId line;
    std::uint32_t word;
    std::uint64_t old;
  };
  void note_ahead_write(CpuId cpu, Picos at, const Op& op, std::uint64_t old);
  // The word's value as a thread at `at` on `cpu` sees it: before the writes run ahead of it.
  std::uint64_t value_before_ahead_writes(CpuId cpu, Picos at, const Op& op);
  // A hit in the core's own caches takes its time at the thread's (SMT-shared) speed.
  static void at_core_speed(const Thread& t, coherence::AccessResult& r) {
    // A hit is the core's own pipeline work; the wait for this core's in-flight prefetch before it
    // (r.start) is not. Anything beyond the private caches waits on the memory system at full speed.
    if (r.served == coherence::ServedBy::kPrivate && !t.speed.full()) {
      r.done = r.start + t.speed(r.done - r.start);
      r.visible = r.done;
    }
  }
  // Parks the thread until its store buffer drained, with `op` to run then.
  bool wait_for_drain(Thread& t, const Op& op);
  // The access through the memory system's grants, into `r`; false when it waits in the line's queue
  // (the thread then parks with `op` pending until head() names it).
  bool request(Thread& t, CpuId cpu, const Op& op, coherence::AccessKind kind, std::uint64_t value,
               coherence::AccessResult& r) {
    check_issue(cpu, t.clock);
    if (!mem_.request(t.clock, cpu, op.line, kind, value, r)) return park_for_grant(t, op);
    if (t.waiting_line != kNoLine) granted_after_wait(t, op.line);
    at_core_speed(t, r);
    return true;
  }
  // request()'s two rarer ends, out of line: the access joined its line's queue (the thread parks
  // with `op` pending; false), or it was granted after waiting there.
  bool park_for_grant(Thread& t, const Op& op);
  void granted_after_wait(Thread& t, LineId line);
  // Executes one op; returns false when the thread parked. `ahead`: the thread is past the next
  // event (its writes are noted: note_ahead_write).
  bool execute(CpuId cpu, Thread& t, const Op& op, bool ahead);
  // The value store's word of `op`, grown first if the op names one past its end. The common case
  // is inline and small; growing is out of line so that it costs the hot path no stack frame.
  std::uint64_t& word_ref(const Op& op) {
    auto& store = op.word == kLineWord ? words_ : named_words_;
    const std::size_t i = op.word == kLineWord ? op.line : op.word;
    return i < store.size() ? store[i] : grown_word_ref(store, i);
  }
  [[gnu::cold, gnu::noinline]] static std::uint64_t& grown_word_ref(coherence::GrowingArray<std::uint64_t>& store,
                                                                    std::size_t i);
  // Gives every hardware thread of `core` its speed: shared when two or more of them host programs.
  void set_core_speed(machine::CoreId core);
  void wake_watchers(LineId line, Picos at);

  sim::Simulation& sim_;
  coherence::MemorySystem& mem_;
  std::vector<Thread> threads_;
  std::vector<std::uint8_t> hosts_;  // per CPU: a program was started on it
  // The logical value of each line's own word (huge pages, as the line records: one word per line).
  coherence::GrowingArray<std::uint64_t> words_;
  coherence::GrowingArray<std::uint64_t> named_words_;  // named words (Op::on_word)
  // Parked waiters, per line that has had any (in the order they parked; emptied, not erased, when
  // they wake), and a byte per line saying whether it has some now: most lines never have a waiter,
  // and a write to one must not cost a lookup.
  std::unordered_map<LineId, std::vector<CpuId>> watchers_;
  std::vector<std::uint8_t> watched_;
  std::uint32_t parked_ = 0;
  Picos run_ahead_ = 0;                   // the window in use (set_run_ahead; 0: step by step)
  bool locked_ahead_ = false;             // locked operations may be run ahead over (an exact window)
  std::vector<AheadWrite> ahead_writes_;  // oldest first
  static constexpr std::size_t kAheadWritesKept = 64;
  std::size_t prune_at_ = kAheadWritesKept;  // the log's length at which it is next pruned
  std::vector<PendingGrant> grants_;         // note_grant, earliest first
};

}  // namespace walksim::exec
