// The thread scheduler and the semantics of each operation: loads wait for their data, stores go
// to the store buffer, atomics and fences drain it first, spin-waits park on the line.
#include "models/exec/executor.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace walksim::exec {

using coherence::AccessKind;
using coherence::ServedBy;

Executor::Executor(sim::Simulation& sim, coherence::MemorySystem& mem)
    : sim_(sim), mem_(mem), threads_(mem.machine().cpus()), hosts_(mem.machine().cpus(), 0) {}

void Executor::start(CpuId cpu, Program& program, Picos at) {
  Thread& t = threads_.at(cpu);
  if (t.state == State::kRunnable || t.state == State::kParked) {
    throw std::logic_error("cpu " + std::to_string(cpu) + " already runs a program");
  }
  t = Thread{};
  t.program = &program;
  t.state = State::kRunnable;
  t.clock = at;
  t.stats.started = at;
  hosts_[cpu] = 1;
  set_core_speed(mem_.machine().core_of(cpu));
  schedule_run(cpu, at);
}

// Event tags: the CPU in the low 32 bits, bit 32 set for a store-buffer drain, the generation above.
// A hint's grant has all ones where the CPU would be (no CPU has that number) and its line above.
namespace {
constexpr std::uint64_t kDrainBit = std::uint64_t{1} << 32;
constexpr std::uint64_t kHintCpu = 0xffffffffu;
std::uint64_t tag_of(CpuId cpu, bool drain, std::uint32_t gen) {
  return std::uint64_t{cpu} | (drain ? kDrainBit : 0) | (std::uint64_t{gen} << 33);
}
std::uint64_t hint_tag(LineId line) { return kHintCpu | (std::uint64_t{line} << 32); }

// Events of one picosecond run in an order drawn from what they are (the CPU and whether it is a
// thread's turn or its drain, or a hint's line) and the time, not in the order they were
// scheduled: a thread that runs ahead schedules its events in another host order than one that
// steps, and the two must run the same simulation. The low 35 bits are the event's identity (no
// two kinds of event share a rank), the high ones a hash of identity and time, so that no CPU
// goes first at every tie.
constexpr unsigned kIdentityBits = 35;
std::uint64_t rank_of(Picos at, std::uint64_t identity) {
  return (sim::mix64(static_cast<std::uint64_t>(at) ^ (identity * 0x9e3779b97f4a7c15ull)) << kIdentityBits) | identity;
}
std::uint64_t thread_rank(Picos at, CpuId cpu, bool drain) {
  return rank_of(at, (std::uint64_t{cpu} << 1) | (drain ? 1 : 0));
}
std::uint64_t hint_rank(Picos at, LineId line) { return rank_of(at, (std::uint64_t{1} << 34) | line); }
}  // namespace

// A thread's event that a later turn replaces stays queued (the heap cannot remove it) and is
// ignored when dispatched. Were the thread's turn then set for that event's time again, a second
// event of that thread, time and kind would have the first one's time and rank, and which of the
// two the queue gave first would be its history's choice: a stale one left behind the live one is
// the next event's time for the others' run-ahead (docs/performance.md, "Twenty-sixth step"). So
// the turn takes the superseded event back instead. Out of line: most turns are set while none is
// queued (a thread that yields from its own event).
bool Executor::take_back_superseded(Thread& t, Picos at, bool drain) {
  Picos& announced = drain ? t.drain_announced : t.run_announced;
  std::uint32_t& event = drain ? t.drain_event : t.run_event;
  if (announced != sim::kNever) t.superseded.push_back({announced, event, drain});
  announced = at;
  for (std::size_t i = 0; i < t.superseded.size(); ++i) {
    const Superseded& s = t.superseded[i];
    if (s.at != at || s.drain != drain) continue;
    event = s.event;
    t.superseded[i] = t.superseded.back();
    t.superseded.pop_back();
    return true;
  }
  return false;
}

void Executor::forget_superseded(Thread& t, std::uint32_t event, bool drain) {
  for (std::size_t i = 0; i < t.superseded.size(); ++i) {
    if (t.superseded[i].event != event || t.superseded[i].drain != drain) continue;
    t.superseded[i] = t.superseded.back();
    t.superseded.pop_back();
    return;
  }
}

void Executor::schedule_run(CpuId cpu, Picos at) {
  Thread& t = threads_[cpu];
  ++t.run_gen;
  if (t.run_announced != sim::kNever || !t.superseded.empty()) [[unlikely]] {
    if (take_back_superseded(t, at, false)) return;
  }
  t.run_announced = at;
  t.run_event = ++t.events_made;
  sim_.schedule_ranked(at, thread_rank(at, cpu, false), this, tag_of(cpu, false, t.run_event));
}

void Executor::schedule_drain(CpuId cpu, Picos at) {
  Thread& t = threads_[cpu];
  ++t.drain_gen;
  note_grant({at, cpu, t.drain_gen, PendingGrant::kDrain, kNoLine});
  if (t.drain_announced != sim::kNever || !t.superseded.empty()) [[unlikely]] {
    if (take_back_superseded(t, at, true)) return;
  }
  t.drain_announced = at;
  t.drain_event = ++t.events_made;
  sim_.schedule_ranked(at, thread_rank(at, cpu, true), this, tag_of(cpu, true, t.drain_event));
}

// A grant takes effect on more than its line: the line it fills into a shared cache may evict
// another there, and an inclusive cache takes its victim from its cores too; a probe filter that
// runs out of entries does the same. So a thread runs ahead only to before the earliest grant
// scheduled (one scheduled later is a request leg away at least).
void Executor::note_grant(const PendingGrant& g) {
  if (run_ahead_ == 0) return;
  // Entries of the past go here too: a run whose threads seldom try to run ahead (so seldom ask
  // earliest_listed_grant, which drops them too) would otherwise keep one per grant of the run.
  while (!grants_.empty() && grants_.front().at < sim_.now()) {
    std::pop_heap(grants_.begin(), grants_.end(), PendingGrant::Later{});
    grants_.pop_back();
  }
  grants_.push_back(g);
  std::push_heap(grants_.begin(), grants_.end(), PendingGrant::Later{});
}

Picos Executor::earliest_listed_grant() {
  const Picos now = sim_.now();
  while (!grants_.empty()) {
    const PendingGrant& g = grants_.front();
    bool pending = g.at >= now;
    if (pending && g.kind == PendingGrant::kRun) {
      pending = threads_[g.cpu].run_gen == g.gen && threads_[g.cpu].run_announced == g.at;
    } else if (pending && g.kind == PendingGrant::kDrain) {
      pending = threads_[g.cpu].drain_gen == g.gen && threads_[g.cpu].drain_announced == g.at;
    } else if (pending) {
      const auto head = mem_.head(g.line);
      pending = head && coherence::is_hint(head->kind);
    }
    if (pending) return g.at;
    std::pop_heap(grants_.begin(), grants_.end(), PendingGrant::Later{});
    grants_.pop_back();
  }
  return sim::kNever;
}

void Executor::announce(LineId line) {
  const auto g = mem_.head(line);
  if (!g) return;
  Thread& h = threads_[g->cpu];
  const Picos at = std::max(g->at, sim_.now());
  if (h.state == State::kAwaitGrant && h.waiting_line == line) {
    if (h.run_announced != at) {
      schedule_run(g->cpu, at);
      note_grant({at, g->cpu, h.run_gen, PendingGrant::kRun, kNoLine});
    }
  } else if (!h.store_buffer.empty() && h.store_buffer.front().line == line) {
    if (h.drain_announced != at) schedule_drain(g->cpu, at);
  } else if (coherence::is_hint(g->kind)) {
    // Nobody waits for a hint: it is granted by an event of its own (grant_hint).
    sim_.schedule_ranked(at, hint_rank(at, line), this, hint_tag(line));
    note_grant({at, g->cpu, 0, PendingGrant::kHint, line});
  } else {
    throw std::logic_error("line " + std::to_string(line) + " has a queued request of CPU " + std::to_string(g->cpu) +
                           " that no thread or store buffer waits for");
  }
}

void Executor::grant_hint(LineId line) {
  // Scheduled for the hint at the head of the line's queue; if the line's state has changed since,
  // or the hint was granted already, the head is another request or later (announced anew).
  const auto g = mem_.head(line);
  if (!g || !coherence::is_hint(g->kind) || g->at > sim_.now()) return;
  coherence::AccessResult r;
  if (!mem_.request(sim_.now(), g->cpu, line, g->kind, 0, r)) return;
  // A buffered store to the line counts its hit under the source the ownership prefetch got.
  auto& buffer = threads_[g->cpu].store_buffer;
  for (std::size_t i = 0; i < buffer.size(); ++i) {
    Buffered& b = buffer[i];
    if (b.line == line && !b.prefetched) {
      b.prefetched = true;
      b.prefetch_source = r.source;
    }
  }
  if (g->kind == AccessKind::kPrefetchExclusive) wake_watchers(line, r.visible);
  announce(line);
}

void Executor::on_event(std::uint64_t tag) {
  const auto cpu = static_cast<CpuId>(tag & 0xffffffffu);
  if (cpu == kHintCpu) {
    grant_hint(static_cast<LineId>(tag >> 32));
    return;
  }
  const auto event = static_cast<std::uint32_t>(tag >> 33);
  Thread& t = threads_[cpu];
  if (tag & kDrainBit) {
    if (event != t.drain_event) [[unlikely]] {
      forget_superseded(t, event, true);  // superseded
      return;
    }
    t.drain_announced = sim::kNever;
    drain_stores(cpu);
    return;
  }
  if (event != t.run_event) [[unlikely]] {
    forget_superseded(t, event, false);
    return;
  }
  t.run_announced = sim::kNever;
  run_thread(cpu);
}

void Executor::run_thread(CpuId cpu) {
  Thread& t = threads_[cpu];
  // A thread woken for its grant (or its drained buffer) resumes at the event's time.
  t.clock = std::max(t.clock, sim_.now());
  if (t.state == State::kAwaitGrant || t.state == State::kAwaitDrain) t.state = State::kRunnable;
  while (true) {
    // Run on only while no other event comes first (at a tie, the one of lower rank: the thread
    // goes on as if its turn were an event), or, running ahead, over operations of its own.
    const bool ahead = !before_next_event(cpu, t.clock);
    if (ahead && !may_run_ahead(cpu, t)) {
      schedule_run(cpu, t.clock);
      return;
    }
    // The operation runs from t.pending (no copy per operation): execute() writes t.pending only
    // with the operation itself, when the thread parks with it.
    if (t.has_pending) {
      t.has_pending = false;
    } else if (t.run.begin != t.run.end) {
      // The program's run, replayed without asking the program for each operation.
      if (!execute(cpu, t, *t.run.begin++, ahead)) return;
      continue;
    } else if (t.finishing) {
      if (!t.store_buffer.empty()) {
        t.state = State::kAwaitDrain;
        return;
      }
      t.state = State::kDone;
      t.clock = std::max(t.clock, t.store_drain);
      t.stats.finished = t.clock;
      return;
    } else if (t.program->set_now(t.clock), !t.program->next(t.last_result, t.pending)) {
      t.finishing = true;
      continue;
    } else {
      t.run = t.program->take_run();
    }
    if (!execute(cpu, t, t.pending, ahead)) return;
  }
}

bool Executor::before_next_event(CpuId cpu, Picos at) const {
  const Picos next = sim_.next_event_time();
  if (at != next) return at < next;
  // The floor (no timing) has every thread at one time: its order does not matter, and a thread
  // that goes on is cheapest.
  return mem_.floor_mode() || sim_.idle() || thread_rank(at, cpu, false) <= sim_.next_event_rank();
}

bool Executor::make_own_pending(Thread& t) {
  if (!t.program->next_is_own(t.last_result)) return false;
  t.program->set_now(t.clock);
  // An own operation exists by the program's word: next() hands it out.
  if (!t.program->next(t.last_result, t.pending)) throw std::logic_error("a program's own next operation was missing");
  t.run = t.program->take_run();
  t.has_pending = true;
  return true;
}

bool Executor::park_for_grant(Thread& t, const Op& op) {
  if (t.waiting_line == kNoLine) t.op_issued = t.clock;
  t.waiting_line = op.line;
  t.state = State::kAwaitGrant;
  if (&op != &t.pending) t.pending = op;  // run_thread runs most ops from t.pending itself
  t.has_pending = true;
  t.granted_retry = true;
  announce(op.line);
  return false;
}

void Executor::granted_after_wait(Thread& t, LineId line) {
  // The waiting counts from the first issue; the next request in line is scheduled.
  t.clock = std::min(t.clock, t.op_issued);
  t.waiting_line = kNoLine;
  announce(line);
}

std::uint64_t Executor::forwarded(CpuId cpu, const Thread& t, const Op& op, bool& buffered) {
  buffered = false;
  for (std::size_t i = 0; i < t.store_buffer.size() && !buffered; ++i) buffered = t.store_buffer[i].line == op.line;
  if (!buffered) return 0;
  std::uint64_t v = ahead_writes_.empty() ? word_ref(op) : value_before_ahead_writes(cpu, t.clock, op);
  for (std::size_t i = 0; i < t.store_buffer.size(); ++i) {
    const Buffered& b = t.store_buffer[i];
    if (b.line == op.line && b.word == op.word) v = (v & ~b.mask) | (b.value & b.mask);
  }
  return v;
}

void Executor::note_ahead_write(CpuId cpu, Picos at, const Op& op, std::uint64_t old) {
  if (mem_.floor_mode()) return;  // the floor's values decide nothing it reports
  if (ahead_writes_.size() >= prune_at_) {
    // A write before the event being run is before every thread's clock: no read needs it undone.
    // The next pruning waits until the log has doubled, so that each write is looked at a bounded
    // number of times however many are run ahead within the window.
    const Picos now = sim_.now();
    std::erase_if(ahead_writes_, [now](const AheadWrite& w) { return w.at < now; });
    prune_at_ = std::max<std::size_t>(kAheadWritesKept, 2 * ahead_writes_.size());
  }
  ahead_writes_.push_back({at, cpu, op.line, op.word, old});
}

std::uint64_t Executor::value_before_ahead_writes(CpuId cpu, Picos at, const Op& op) {
  // Writes to one word are logged in the order of their times (one core holds its line Modified
  // at a time; the next takes it by a grant, after): the first one after the reader's turn holds
  // the value the reader sees. Turns of one time are ordered by rank, as events are. Writes that
  // left the value as it was are not logged (most of the kernel model's plain stores): leaving
  // them out changes no first logged value after a time.
  for (const AheadWrite& w : ahead_writes_) {
    if (w.line != op.line || w.word != op.word) continue;
    if (w.at > at || (w.at == at && thread_rank(at, w.cpu, false) > thread_rank(at, cpu, false))) return w.old;
  }
  return word_ref(op);
}

bool Executor::wait_for_drain(Thread& t, const Op& op) {
  t.state = State::kAwaitDrain;
  if (&op != &t.pending) t.pending = op;  // run_thread runs most ops from t.pending itself
  t.has_pending = true;
  return false;
}

Picos Executor::store_order_start(const Thread& t, CpuId cpu, LineId line) const {
  if (!mem_.owns_exclusively(cpu, line)) return t.store_drain;
  return t.store_drain - t.speed(mem_.machine().spec().caches[0].latency);
}

void Executor::prefetch_for_store(Thread& t, CpuId cpu, Buffered& b) {
  if (mem_.owns_exclusively(cpu, b.line)) return;
  check_issue(cpu, t.clock);
  if (!mem_.served_at_once(t.clock, cpu, b.line, AccessKind::kPrefetchExclusive)) return;
  coherence::AccessResult r;
  if (!mem_.hint(t.clock, cpu, b.line, AccessKind::kPrefetchExclusive, r)) {
    announce(b.line);  // granted later by its own event (grant_hint)
    return;
  }
  b.prefetched = true;
  b.prefetch_source = r.source;
  wake_watchers(b.line, r.visible);
}

bool Executor::try_store(Thread& t, CpuId cpu, const Buffered& b, Picos at) {
  Op op = Op::store(b.line, b.value, b.mask);
  op.word = b.word;
  std::uint64_t& w = word_ref(op);
  const std::uint64_t next = (w & ~b.mask) | (b.value & b.mask);
  check_issue(cpu, at);
  coherence::AccessResult r;
  if (!mem_.request(at, cpu, b.line, AccessKind::kStore, next, r)) return false;
  at_core_speed(t, r);
  const bool hit = r.served == ServedBy::kPrivate;
  const coherence::Source prefetched = r.after_hint ? r.hint_source : b.prefetch_source;
  ++t.stats.served[static_cast<std::size_t>((b.prefetched || r.after_hint) && hit ? prefetched : r.source)];
  w = next;
  t.store_drain = std::max(t.store_drain, r.done);
  wake_watchers(b.line, r.visible);
  return true;
}

void Executor::drain_stores(CpuId cpu) {
  Thread& t = threads_[cpu];
  const Picos now = sim_.now();
  while (!t.store_buffer.empty()) {
    const Buffered b = t.store_buffer.front();
    if (const Picos at = store_order_start(t, cpu, b.line); at > now) {
      schedule_drain(cpu, at);
      return;
    }
    if (!try_store(t, cpu, b, now)) {
      announce(b.line);
      return;
    }
    t.store_buffer.pop_front();
    if (mem_.line(b.line).has_waiters) announce(b.line);
  }
  if (t.state == State::kAwaitDrain) {
    t.state = State::kRunnable;
    schedule_run(cpu, std::max(t.clock, now));
  }
}

bool Executor::execute(CpuId cpu, Thread& t, const Op& op, bool ahead) {
  // A queued access asked again at its grant was counted when it was first issued.
  const bool counted = t.granted_retry;
  t.granted_retry = false;
  if (!counted) ++t.stats.ops;
  auto account = [&](const coherence::AccessResult& r) {
    const auto src = static_cast<std::size_t>(r.source);
    ++t.stats.served[src];
    t.stats.served_wait[src] += r.done - t.clock;
    if (r.served != ServedBy::kPrivate) {
      ++t.stats.misses;
      t.stats.memory_stall += r.done - t.clock;
    }
  };
  const auto& m = mem_.machine();
  switch (op.kind) {
    case OpKind::kLoad: {
      if (!counted) ++t.stats.loads;
      if (!t.store_buffer.empty()) {  // mostly empty: then nothing to forward, and no call
        bool buffered = false;
        const std::uint64_t v = forwarded(cpu, t, op, buffered);
        if (buffered) {
          // Store-to-load forwarding: the line's newest data for this thread is in its store buffer.
          t.clock = advance(cpu, t.clock, t.speed(m.spec().caches[0].latency));
          t.last_result = v;
          return true;
        }
      }
      coherence::AccessResult r;
      if (!request(t, cpu, op, AccessKind::kLoad, 0, r)) return false;
      account(r);
      t.clock = r.done;
      t.last_result = word_ref(op);
      return true;
    }
    case OpKind::kStore: {
      if (!counted) ++t.stats.stores;
      Buffered b{op.line, op.word, op.value, op.mask};
      const bool behind = !t.store_buffer.empty();
      if (behind || store_order_start(t, cpu, op.line) > t.clock) {
        // TSO: stores are performed in program order. This one waits in the store buffer behind
        // the older ones (buffered, or their misses still in flight) while its line is fetched.
        prefetch_for_store(t, cpu, b);
        t.store_buffer.push_back(b);
        if (!behind) schedule_drain(cpu, std::max(store_order_start(t, cpu, op.line), t.clock));
        t.clock = advance(cpu, t.clock, t.issue);
        return true;
      }
      // The thread goes on either way; a store that must wait takes effect when its line is granted.
      const std::uint64_t before = ahead ? word_ref(op) : 0;
      if (try_store(t, cpu, b, t.clock)) {
        if (ahead && word_ref(op) != before) note_ahead_write(cpu, t.clock, op, before);
      } else {
        t.store_buffer.push_back(b);
        announce(b.line);
      }
      t.clock = advance(cpu, t.clock, t.issue);
      return true;
    }
    case OpKind::kRmwAdd:
    case OpKind::kRmwXchg:
    case OpKind::kCas: {
      if (!t.store_buffer.empty()) return wait_for_drain(t, op);  // a locked instruction drains the store buffer
      if (!counted) ++t.stats.atomics;
      t.clock = std::max(t.clock, t.store_drain);
      std::uint64_t& w = word_ref(op);
      const std::uint64_t old = w;
      std::uint64_t next = old;
      if (op.kind == OpKind::kRmwAdd) next = old + op.value;
      if (op.kind == OpKind::kRmwXchg) next = (old & ~op.mask) | (op.value & op.mask);  // xchg of a sub-field
      if (op.kind == OpKind::kCas && old == op.expect) next = op.value;
      coherence::AccessResult r;
      if (!request(t, cpu, op, AccessKind::kRmw, next, r)) return false;
      // The value is read and written when the access takes effect (now, at its grant).
      word_ref(op) = next;
      if (ahead && next != old) note_ahead_write(cpu, t.clock, op, old);
      account(r);
      t.clock = r.done;
      t.last_result = old;
      // A failed cmpxchg: the branch that retries it was predicted to fall through.
      if (op.kind == OpKind::kCas && old != op.expect) {
        t.clock = advance(cpu, t.clock, t.speed(m.spec().costs.branch_mispredict));
      }
      wake_watchers(op.line, r.visible);
      return true;
    }
    case OpKind::kPrefetch:
    case OpKind::kPrefetchW: {
      // A hint, never waited for: it takes effect at its grant like any request (grant_hint).
      const bool excl = op.kind == OpKind::kPrefetchW;
      check_issue(cpu, t.clock);
      coherence::AccessResult r;
      if (mem_.hint(t.clock, cpu, op.line, excl ? AccessKind::kPrefetchExclusive : AccessKind::kPrefetch, r)) {
        if (excl) wake_watchers(op.line, r.visible);
      } else {
        announce(op.line);
      }
      t.clock = advance(cpu, t.clock, t.issue);
      return true;
    }
    case OpKind::kCompute: {
      if (op.expect) {  // compute_after_own_stores
        if (!t.store_buffer.empty()) return wait_for_drain(t, op);
        t.clock = std::max(t.clock, t.store_drain);
      }
      const Picos ps = t.speed(op.ps);
      t.clock = advance(cpu, t.clock, ps);
      t.stats.compute += ps;
      return true;
    }
    case OpKind::kIdle:  // counted as sleep: cpu_time() leaves it out
      t.clock = advance(cpu, t.clock, op.ps);
      t.stats.sleep += op.ps;
      return true;
    case OpKind::kFence:
      if (!t.store_buffer.empty()) return wait_for_drain(t, op);
      t.clock = advance(cpu, std::max(t.clock, t.store_drain), m.spec().costs.fence);
      return true;
    case OpKind::kSpinUntil:
    case OpKind::kSleepUntil: {
      // A wait re-reads a line another CPU writes; it starts with this thread's own stores visible.
      if (!t.store_buffer.empty()) return wait_for_drain(t, op);
      if (!counted) ++t.stats.loads;
      coherence::AccessResult r;
      if (!request(t, cpu, op, AccessKind::kLoad, 0, r)) return false;
      account(r);
      t.clock = r.done;
      const std::uint64_t w = word_ref(op);
      if ((w & op.mask) == op.expect) {
        t.last_result = w;
        return true;
      }
      // Park: the next write to the line wakes this thread, which then re-reads it.
      if (op.line >= watched_.size()) watched_.resize(std::max<std::size_t>(op.line + 1, watched_.size() * 2), 0);
      watched_[op.line] = 1;
      watchers_[op.line].push_back(cpu);
      t.state = State::kParked;
      t.parked_at = t.clock;
      t.sleeping = op.kind == OpKind::kSleepUntil;
      if (&op != &t.pending) t.pending = op;  // run_thread runs most ops from t.pending itself
      t.has_pending = true;
      ++parked_;
      return false;
    }
  }
  return true;
}

void Executor::wake_watchers(LineId line, Picos at) {
  if (line >= watched_.size() || !watched_[line]) return;  // nobody waits on it
  const auto it = watchers_.find(line);
  std::vector<CpuId>& list = it->second;
  for (CpuId cpu : list) {
    Thread& t = threads_[cpu];
    if (t.sleeping) {
      // A sleeper is made runnable by the writer and pays the op's wake-up latency (the kernel's
      // sleeping locks give 0 and model the wake-up's path as ops of their own: sync/scheduler.hpp).
      const Picos woken = advance(cpu, std::max(at, t.clock), t.pending.ps);
      t.stats.sleep += woken - t.parked_at;
      t.clock = woken;
    } else {
      t.stats.spin += std::max<Picos>(0, at - t.parked_at);
      t.clock = std::max(at, t.clock);
    }
    t.state = State::kRunnable;
    --parked_;
    schedule_run(cpu, t.clock);
  }
  // The entry and its storage stay for the line's next waiters: parking allocates nothing once a
  // line has had waiters (a contended lock's line has them again and again).
  list.clear();
  watched_[line] = 0;
}

}  // namespace walksim::exec
