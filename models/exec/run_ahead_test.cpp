// The executor's run-ahead: which operations it runs ahead over, and what it keeps exact.
#include <gtest/gtest.h>

#include <algorithm>
#include <utility>
#include <vector>

#include "models/coherence/test_machines.hpp"
#include "models/exec/executor.hpp"
#include "models/exec/test_rig.hpp"

namespace walksim::exec {
namespace {

using machine::ProtocolKind;
using sim::from_ns;
using testing::Rig;

// `ops` loads of its own line with `work` ns of private work between, every next() noting the
// thread's clock; `own` is what it answers to next_is_own.
class Walker : public Program {
 public:
  Walker(LineId line, int ops, double work, bool own, std::vector<Picos>& asked)
      : line_(line), ops_(ops), work_(work), own_(own), asked_(asked) {}
  bool next(std::uint64_t, Op& out) override {
    asked_.push_back(now());
    if (step_ >= 2 * ops_) return false;
    out = step_ % 2 == 0 ? Op::load(line_) : Op::compute(from_ns(work_));
    ++step_;
    return true;
  }
  bool next_is_own(std::uint64_t) const override { return own_ && step_ < 2 * ops_; }

 private:
  LineId line_;
  int ops_;
  double work_;
  bool own_;
  std::vector<Picos>& asked_;
  int step_ = 0;
};

// `pattern`, `times` times over, every operation its own.
class Repeat : public Program {
 public:
  Repeat(std::vector<Op> pattern, std::size_t times) : pattern_(std::move(pattern)), total_(times * pattern_.size()) {}
  bool next(std::uint64_t, Op& out) override {
    if (done_ == total_) return false;
    out = pattern_[done_++ % pattern_.size()];
    return true;
  }
  bool next_is_own(std::uint64_t) const override { return done_ < total_; }

 private:
  std::vector<Op> pattern_;
  std::size_t total_;
  std::size_t done_ = 0;
};

struct Outcome {
  std::vector<Picos> finished;
  std::vector<Picos> asked;  // every next() of every thread, in the order they were made
  std::uint64_t events = 0;
};

// Starts programs on CPUs 0-3, runs them to the end and returns when each finished.
template <class P>
std::vector<Picos> run_four(Rig& r, const std::vector<std::unique_ptr<P>>& progs, std::uint64_t& events) {
  for (CpuId c = 0; c < 4; ++c) r.ex.start(c, *progs[c]);
  r.ex.run();
  std::vector<Picos> finished;
  for (CpuId c = 0; c < 4; ++c) finished.push_back(r.ex.stats(c).finished);
  events = r.sim.events_run();
  return finished;
}

// Four threads on four nodes, each walking its own line at its own pace (in `floor` mode: walksim
// bench's generation floor, every access 1 ns and no state).
Outcome walk(Picos run_ahead, bool own, bool floor = false) {
  Rig r(coherence::testing::chain(4, ProtocolKind::kDirectory));
  r.mem.set_floor_mode(floor);
  r.ex.set_run_ahead(run_ahead);
  Outcome o;
  std::vector<std::unique_ptr<Walker>> progs;
  for (CpuId c = 0; c < 4; ++c) {
    progs.push_back(std::make_unique<Walker>(r.mem.add_line(static_cast<machine::NodeId>(c)), 50, 3 + c, own, o.asked));
  }
  o.finished = run_four(r, progs, o.events);
  return o;
}

TEST(RunAhead, AProgramThatDoesNotSayItsNextOperationIsItsOwnIsAskedInGlobalTimeOrder) {
  const Outcome o = walk(from_ns(100), false);
  for (std::size_t i = 1; i < o.asked.size(); ++i) ASSERT_LE(o.asked[i - 1], o.asked[i]) << "call " << i;
  const Outcome exact = walk(0, false);
  EXPECT_EQ(o.events, exact.events);
  EXPECT_EQ(o.finished, exact.finished);
}

// Threads that share nothing: running ahead over their own hits and work changes no result, and
// each thread then runs in far fewer turns.
TEST(RunAhead, ThreadsThatShareNothingGetTheExactResultInFewerEvents) {
  const Outcome exact = walk(0, true);
  const Outcome ahead = walk(from_ns(100), true);
  EXPECT_EQ(ahead.finished, exact.finished);
  EXPECT_LT(ahead.events * 3, exact.events) << exact.events << " events exact, " << ahead.events << " ahead";
  // It did run ahead: some thread was asked for an operation at a time later than another's after it.
  bool out_of_order = false;
  for (std::size_t i = 1; i < ahead.asked.size(); ++i) out_of_order |= ahead.asked[i] < ahead.asked[i - 1];
  EXPECT_TRUE(out_of_order);
}

// A prefetch of a line the core already holds is served as a load's hit is, without the wait: a
// thread runs ahead over it as over the load (the kernel prefetches the next dentry of a walk, which
// a stat loop already holds). The same finish times as the stepped run, in a third of the turns.
TEST(RunAhead, APrefetchOfALineTheCoreHoldsIsRunAheadOverLikeALoad) {
  auto run = [](Picos run_ahead) {
    Rig r(coherence::testing::chain(4, ProtocolKind::kDirectory));
    r.ex.set_run_ahead(run_ahead);
    std::vector<std::unique_ptr<Repeat>> progs;
    for (CpuId c = 0; c < 4; ++c) {
      const LineId line = r.mem.add_line(c);
      progs.push_back(std::make_unique<Repeat>(
          std::vector<Op>{Op::prefetch(line), Op::load(line), Op::compute(from_ns(3 + c))}, 50));
    }
    Outcome o;
    o.finished = run_four(r, progs, o.events);
    return o;
  };
  const Outcome stepped = run(exec::Executor::kRunAheadOff);
  const Outcome ahead = run(from_ns(100));
  EXPECT_EQ(ahead.finished, stepped.finished);
  EXPECT_LT(ahead.events * 3, stepped.events) << stepped.events << " events stepped, " << ahead.events << " ahead";
}

// The generation floor runs ahead as the simulation does, over every access (it keeps no state
// another core's request could change): the same finish times in fewer turns. A floor that stepped
// while the simulation ran ahead was no floor: the stat loop's simulation ran faster than it.
TEST(RunAhead, TheFloorRunsAheadOverEveryAccess) {
  const Outcome stepped = walk(0, true, true);
  const Outcome ahead = walk(from_ns(100), true, true);
  EXPECT_EQ(ahead.finished, stepped.finished);
  EXPECT_LT(ahead.events * 3, stepped.events) << stepped.events << " events stepped, " << ahead.events << " ahead";
  // Each access took the floor's 1 ns: 50 loads and 50 x (3 + c) ns of work.
  for (CpuId c = 0; c < 4; ++c) EXPECT_EQ(ahead.finished[c], from_ns(50 * (1 + 3 + c))) << "CPU " << c;
}

// In the floor every line is the core's own: a store is performed at once, so stores back to back
// neither wait in the store buffer (a drain event each) nor end a thread's run ahead.
TEST(RunAhead, TheFloorPerformsStoresAtOnce) {
  auto run = [](Picos run_ahead) {
    auto spec = coherence::testing::chain(4, ProtocolKind::kDirectory);
    spec.clock_hz = 2e9;  // a store issues in 0.5 ns, before the floor's 1 ns access of the one before
    Rig r(spec);
    r.mem.set_floor_mode(true);
    r.ex.set_run_ahead(run_ahead);
    std::vector<std::unique_ptr<Repeat>> progs;  // two stores back to back, then private work
    for (CpuId c = 0; c < 4; ++c) {
      const LineId line = r.mem.add_line(c);
      progs.push_back(std::make_unique<Repeat>(
          std::vector<Op>{Op::store(line, 1), Op::store(line, 2), Op::compute(from_ns(3 + c))}, 50));
    }
    Outcome o;
    o.finished = run_four(r, progs, o.events);
    return o;
  };
  const Outcome stepped = run(0);
  const Outcome ahead = run(from_ns(100));
  EXPECT_EQ(ahead.finished, stepped.finished);
  EXPECT_LT(ahead.events * 3, stepped.events) << stepped.events << " events stepped, " << ahead.events << " ahead";
  // Each store issues in one 0.5-ns cycle: 50 x (2 x 0.5 + 3 + c) ns.
  for (CpuId c = 0; c < 4; ++c) EXPECT_EQ(ahead.finished[c], from_ns(50 * (1 + 3 + c))) << "CPU " << c;
}

// A thread past another's pending event may not run ahead over a miss: B stores to X at 50 ns (its
// request reaches X's home on A's node, across the 20-ns link, at 72 ns), A (its own work done
// first, at 90 ns) then reads X, a line its core does not hold (its request is there at 92 ns). Run
// ahead, A's access would be served before B's earlier store and see 0; kept in time order, it is
// granted after B's and sees B's 1.
TEST(RunAhead, AnAccessToALineTheCoreDoesNotHoldWaitsForEarlierAccessesOfOtherCores) {
  for (const bool rmw : {false, true}) {
    Rig r(coherence::testing::chain(2, ProtocolKind::kDirectory));
    r.ex.set_run_ahead(from_ns(100));
    const LineId x = r.mem.add_line(0);
    class Two : public Program {
     public:
      Two(Op first, Op second, std::uint64_t* seen) : ops_{first, second}, seen_(seen) {}
      bool next(std::uint64_t last, Op& out) override {
        if (step_ == 2 && seen_) *seen_ = last;
        if (step_ >= 2) return false;
        out = ops_[step_++];
        return true;
      }
      bool next_is_own(std::uint64_t) const override { return step_ < 2; }

     private:
      Op ops_[2];
      std::uint64_t* seen_;
      int step_ = 0;
    };
    std::uint64_t seen = 99;
    Two a(Op::compute(from_ns(90)), rmw ? Op::rmw_add(x, 0) : Op::load(x), &seen);
    Two b(Op::compute(from_ns(50)), Op::store(x, 1), nullptr);
    r.ex.start(0, a);  // A first: it is past B's start when its work is done
    r.ex.start(1, b);
    r.ex.run();
    EXPECT_EQ(seen, 1u) << (rmw ? "locked add" : "load");
  }
}

// Locked adds on one line from four threads, each thread running ahead over its private work: no
// add is lost, and the invariants (checked after every access by the rig) hold.
TEST(RunAhead, LockedAddsOnASharedLineStayAtomic) {
  Rig r(coherence::testing::chain(4, ProtocolKind::kDirectory));
  r.ex.set_run_ahead(from_ns(200));
  const LineId shared = r.mem.add_line(0);
  constexpr int kAdds = 200;
  class Adder : public Program {
   public:
    Adder(LineId l, double work) : l_(l), work_(work) {}
    bool next(std::uint64_t, Op& out) override {
      if (step_ >= 2 * kAdds) return false;
      out = step_ % 2 == 0 ? Op::rmw_add(l_, 1) : Op::compute(from_ns(work_));
      ++step_;
      return true;
    }
    bool next_is_own(std::uint64_t) const override { return step_ < 2 * kAdds; }

   private:
    LineId l_;
    double work_;
    int step_ = 0;
  };
  std::vector<std::unique_ptr<Adder>> progs;
  for (CpuId c = 0; c < 4; ++c) {
    progs.push_back(std::make_unique<Adder>(shared, 1 + 2 * c));
    r.ex.start(c, *progs.back());
  }
  r.ex.run();
  EXPECT_EQ(r.ex.word(shared), 4u * kAdds);
}

// Four cores of one socket each do 6 ns of private work in steps of their own size (3, 2, 1 and
// 0.5 ns), then a locked add on a shared line, so their adds reach the line's home at the same
// picosecond. Running ahead by less than the shortest request leg (2 ns on this machine), the
// threads with short steps reach their adds earlier in host order than the others; which add the
// home takes first must not depend on that: every thread sees the adds' old values and finishes
// when it does without run-ahead, in fewer events. (With equal arrivals kept in the host's order
// the grants followed the order the threads got there.)
struct AddOutcome {
  std::vector<std::vector<std::uint64_t>> seen;  // per thread, the old value of each of its adds
  std::vector<Picos> finished;
  std::uint64_t events = 0;
};

AddOutcome in_step_adds(Picos run_ahead) {
  auto spec = coherence::testing::chain(1, ProtocolKind::kDirectory);
  spec.cores_per_socket = 4;
  Rig r(spec);
  r.ex.set_run_ahead(run_ahead);
  const LineId shared = r.mem.add_line(0);
  constexpr int kRounds = 20;
  class InStep : public Program {
   public:
    InStep(int steps, LineId shared, std::vector<std::uint64_t>& seen) : steps_(steps), shared_(shared), seen_(seen) {}
    bool next(std::uint64_t last, Op& out) override {
      const int per_round = steps_ + 1;
      if (step_ > 0 && step_ % per_round == 0) seen_.push_back(last);
      if (step_ >= kRounds * per_round) return false;
      const bool add = step_++ % per_round == steps_;
      out = add ? Op::rmw_add(shared_, 1) : Op::compute(from_ns(6.0 / steps_));
      return true;
    }
    bool next_is_own(std::uint64_t) const override { return step_ < kRounds * (steps_ + 1); }

   private:
    int steps_;
    LineId shared_;
    std::vector<std::uint64_t>& seen_;
    int step_ = 0;
  };
  AddOutcome o;
  o.seen.resize(4);
  std::vector<std::unique_ptr<InStep>> progs;
  for (const int steps : {2, 3, 6, 12}) progs.push_back(std::make_unique<InStep>(steps, shared, o.seen[progs.size()]));
  o.finished = run_four(r, progs, o.events);
  return o;
}

TEST(RunAhead, SimultaneousRequestsAreGrantedInTheSameOrderWhenThreadsRunAhead) {
  const AddOutcome exact = in_step_adds(0);
  const AddOutcome ahead = in_step_adds(from_ns(2));
  EXPECT_EQ(ahead.seen, exact.seen);
  EXPECT_EQ(ahead.finished, exact.finished);
  EXPECT_LT(ahead.events, exact.events);  // it did run ahead
}

// The exact window is the shortest time from another core's issue to its access taking effect:
// where a domain has several cores, a sibling's request leg is the lookup that found the miss; where
// each core is a domain of its own, another core's request also crosses to a home, a domain_link
// at least (Executor::exact_window).
TEST(RunAhead, TheExactWindowIsTheShortestRequestLegFromAnotherCore) {
  auto shared_l3 = coherence::testing::two_socket(ProtocolKind::kMesifInclusive, machine::Inclusion::kInclusive, 4);
  shared_l3.topology.domain_link = from_ns(15);
  const Rig siblings(shared_l3);
  EXPECT_EQ(siblings.ex.exact_window(), siblings.m.miss_departure() - 1);
  auto single = coherence::testing::chain(3, ProtocolKind::kDirectory);
  single.topology.domain_link = from_ns(15);
  const Rig alone(single);
  EXPECT_EQ(alone.ex.exact_window(), alone.m.miss_departure() + from_ns(15) - 1);
}

// Reader A re-reads line X (homed on writer B's node) every 2.5 ns; B reads X too, then 150 ns later
// writes it. B's store is an upgrade of a Shared line, which the home (no directory lookup here)
// takes as it arrives, one request leg (miss_departure + domain_link) after the store: A's copy is
// invalidated then. Run ahead within the exact window, A sees the new value at the read the stepped
// run does; 5 ns more (an approximation) and it reads the old value past the invalidation, so a
// window longer than the leg would fail here.
struct ReadsSeen {
  std::vector<std::uint64_t> values;
  Picos finished = 0;
};
ReadsSeen reader_and_writer(Picos run_ahead) {
  auto spec = coherence::testing::chain(2, ProtocolKind::kDirectory);
  spec.topology.domain_link = from_ns(15);
  spec.costs.directory_lookup = 0;
  Rig r(spec);
  r.ex.set_run_ahead(run_ahead);
  const LineId x = r.mem.add_line(1);
  ReadsSeen out;
  std::vector<Op> reads;
  for (int i = 0; i < 80; ++i) {
    reads.push_back(Op::load(x));
    reads.push_back(Op::compute(from_ns(1.5)));
  }
  Repeat a(reads, 1);
  Repeat b({Op::load(x), Op::compute(from_ns(150)), Op::store(x, 7)}, 1);
  // Every value A's loads returned (the result the next operation is asked for with).
  class Recorder : public Program {
   public:
    Recorder(Program& inner, std::vector<std::uint64_t>& seen) : inner_(inner), seen_(seen) {}
    bool next(std::uint64_t last, Op& out) override {
      if (calls_++ % 2 == 1) seen_.push_back(last);  // after each load (loads and work alternate)
      return inner_.next(last, out);
    }
    bool next_is_own(std::uint64_t last) const override { return inner_.next_is_own(last); }

   private:
    Program& inner_;
    std::vector<std::uint64_t>& seen_;
    int calls_ = 0;
  } recorded(a, out.values);
  r.ex.start(0, recorded);
  r.ex.start(1, b);
  r.ex.run();
  out.finished = r.ex.stats(0).finished;
  return out;
}

TEST(RunAhead, AReaderRunAheadWithinTheExactWindowSeesAnotherCoresStoreWhenTheSteppedRunDoes) {
  const ReadsSeen stepped = reader_and_writer(exec::Executor::kRunAheadOff);
  ASSERT_NE(std::find(stepped.values.begin(), stepped.values.end(), 7u), stepped.values.end());
  const ReadsSeen exact = reader_and_writer(exec::Executor::kRunAheadExact);
  EXPECT_EQ(exact.values, stepped.values);
  EXPECT_EQ(exact.finished, stepped.finished);
  const Picos departure = machine::Machine(coherence::testing::chain(2, ProtocolKind::kDirectory)).miss_departure();
  const ReadsSeen longer = reader_and_writer(departure + from_ns(15) - 1 + from_ns(5));
  EXPECT_NE(longer.values, stepped.values);
}

// A locked operation on a line the core holds Modified, once its stores are performed, is a write
// that hits, as a store to it is: a thread runs ahead over it. Four threads each adding to a line of
// their own: the same adds' values and finish times as the stepped run, in far fewer turns.
TEST(RunAhead, ALockedOperationOnALineTheCoreHoldsModifiedIsRunAheadOver) {
  auto run = [](Picos run_ahead) {
    auto spec = coherence::testing::chain(4, ProtocolKind::kDirectory);
    spec.topology.domain_link = from_ns(15);  // an exact window of 2 + 15 ns less 1 ps
    Rig r(spec);
    r.ex.set_run_ahead(run_ahead);
    std::vector<std::unique_ptr<Repeat>> progs;
    std::vector<LineId> lines;
    for (CpuId c = 0; c < 4; ++c) {
      lines.push_back(r.mem.add_line(c));
      progs.push_back(
          std::make_unique<Repeat>(std::vector<Op>{Op::rmw_add(lines.back(), 1), Op::compute(from_ns(3 + c))}, 50));
    }
    Outcome o;
    o.finished = run_four(r, progs, o.events);
    for (const LineId l : lines) EXPECT_EQ(r.ex.word(l), 50u);
    return o;
  };
  const Outcome stepped = run(exec::Executor::kRunAheadOff);
  const Outcome ahead = run(exec::Executor::kRunAheadExact);
  EXPECT_EQ(ahead.finished, stepped.finished);
  // 77 turns of 392 (203 when a locked operation stopped a thread).
  EXPECT_LT(ahead.events * 4, stepped.events) << stepped.events << " events stepped, " << ahead.events << " ahead";
}

// Writer W (CPU 0) takes line L Modified (a store to its word B, then 100 ns of other work), then
// writes B every 0.5 ns (a store or a locked add). Y (CPU 1, on the other node), at 150 ns, stores
// to L's word A, which waits in its store buffer for the line, then loads B: a load of a line with
// its own store buffered reads the line's value at its issue (Executor::execute, kLoad), with no
// request whose leg the window is drawn from. W runs ahead of Y's turn by up to the window, so its
// later writes of B are in memory when Y's load comes; Y must read B as of its own time, as in the
// stepped run (the writes run ahead are kept with the values before them:
// Executor::value_before_ahead_writes). Without that, Y read a value W wrote up to the window
// later (in dbench-64 on 2.6.35, a d_count one locked operation later).
struct ForwardedRead {
  std::uint64_t seen = 0;  // Y's read of B
  std::vector<Picos> finished;
};
ForwardedRead forwarded_read(Picos run_ahead, bool locked) {
  auto spec = coherence::testing::chain(2, ProtocolKind::kDirectory);
  spec.topology.domain_link = from_ns(15);
  Rig r(spec);
  r.ex.set_run_ahead(run_ahead);
  const LineId l = r.mem.add_line(0);
  constexpr std::uint32_t kA = 1, kB = 2;
  std::vector<Op> writes{Op::store(l, 1).on_word(kB), Op::compute(from_ns(100))};
  for (int i = 0; i < 400; ++i) {
    writes.push_back(Op::compute(from_ns(0.5)));
    writes.push_back(locked ? Op::rmw_add(l, 1).on_word(kB) : Op::store(l, 2 + i).on_word(kB));
  }
  Repeat w(writes, 1);
  ForwardedRead out;
  class Reader : public Program {
   public:
    Reader(LineId l, std::uint64_t& seen) : l_(l), seen_(seen) {}
    bool next(std::uint64_t last, Op& out) override {
      switch (step_++) {
        case 0:
          out = Op::compute(from_ns(150));
          return true;
        case 1:
          out = Op::store(l_, 5).on_word(kA);
          return true;
        case 2:
          out = Op::load(l_).on_word(kB);
          return true;
        case 3:
          seen_ = last;
          return false;
        default:
          return false;
      }
    }

   private:
    LineId l_;
    std::uint64_t& seen_;
    int step_ = 0;
  } y(l, out.seen);
  r.ex.start(0, w);
  r.ex.start(1, y);
  r.ex.run();
  out.finished = {r.ex.stats(0).finished, r.ex.stats(1).finished};
  return out;
}

TEST(RunAhead, ALoadOfALineWithItsOwnStoreBufferedSeesNoWriteRunAheadOfIt) {
  for (const bool locked : {false, true}) {
    const char* what = locked ? "locked adds" : "stores";
    const ForwardedRead stepped = forwarded_read(exec::Executor::kRunAheadOff, locked);
    // Y read one of W's writes after the first (W's loop had begun).
    ASSERT_GT(stepped.seen, 1u) << what;
    const ForwardedRead exact = forwarded_read(exec::Executor::kRunAheadExact, locked);
    EXPECT_EQ(exact.seen, stepped.seen) << what;
    EXPECT_EQ(exact.finished, stepped.finished) << what;
    // However far W runs ahead: with a window of 100 ns (an approximation) Y reads the same value.
    EXPECT_EQ(forwarded_read(from_ns(100), locked).seen, stepped.seen) << what;
  }
}

}  // namespace
}  // namespace walksim::exec
