// A program may hand out a run of operations with the one next() returns (Program::take_run):
// the executor replays them without asking the program again. That is a host-time saving only:
// however a program cuts its operations into runs, the run is the same, operation for operation.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <tuple>
#include <vector>

#include "models/coherence/test_machines.hpp"
#include "models/exec/executor.hpp"
#include "models/exec/test_rig.hpp"

namespace walksim::exec {
namespace {

using machine::ProtocolKind;
using sim::from_ns;
using testing::Rig;

// Hands out `ops` in runs of `run` operations (1: one by one, as next() alone would).
class InRuns : public Program {
 public:
  InRuns(std::vector<Op> ops, std::size_t run) : ops_(std::move(ops)), run_(run) {}
  bool next(std::uint64_t, Op& out) override {
    ++asked_;
    if (i_ >= ops_.size()) return false;
    out = ops_[i_++];
    const std::size_t end = std::min(ops_.size(), i_ + run_ - 1);
    if (end > i_) {
      hand_out_run(ops_.data() + i_, ops_.data() + end);
      i_ = end;
    }
    return true;
  }
  bool next_is_own(std::uint64_t) const override { return i_ < ops_.size(); }
  std::size_t asked() const { return asked_; }

 private:
  std::vector<Op> ops_;
  std::size_t run_;
  std::size_t i_ = 0;
  std::size_t asked_ = 0;
};

// Thread c's operations: its own line read and written, private work, and every few operations
// a load, a store or a locked add on a line all four threads share, so that runs meet misses,
// stores waiting in the store buffer, queued grants and the other threads' events. Half way, the
// other threads wait (parked, within their runs) until thread 0 has raised `flag`.
std::vector<Op> ops_of(CpuId c, LineId own, LineId shared, LineId flag) {
  std::vector<Op> ops;
  for (std::uint32_t i = 0; i < 60; ++i) {
    if (i == 30) ops.push_back(c == 0 ? Op::store(flag, 1) : Op::spin_until(flag, 1));
    ops.push_back(Op::load(own));
    ops.push_back(Op::compute(from_ns(1 + c)));
    ops.push_back(Op::store(own, i));
    if (i % 5 == c % 3) ops.push_back(Op::load(shared));
    if (i % 7 == c) ops.push_back(Op::store(shared, c));
    if (i % 11 == c) ops.push_back(Op::rmw_add(shared, 1));
    if (i % 13 == 0) ops.push_back(Op::fence());
  }
  return ops;
}

struct Outcome {
  std::vector<std::tuple<Picos, std::uint64_t, std::uint64_t, std::uint64_t, std::uint64_t, std::uint64_t, Picos>>
      threads;  // finished, ops, loads, stores, atomics, misses, memory stall
  std::uint64_t events = 0;
  std::uint64_t shared_word = 0;
  std::size_t asked = 0;  // next() calls of all threads (fewer with longer runs)
};

Outcome run(std::size_t run_length, Picos run_ahead) {
  Rig r(coherence::testing::chain(4, ProtocolKind::kDirectory));
  r.ex.set_run_ahead(run_ahead);
  const LineId shared = r.mem.add_line(0), flag = r.mem.add_line(1);
  std::vector<std::unique_ptr<InRuns>> progs;
  for (CpuId c = 0; c < 4; ++c) {
    const LineId own = r.mem.add_line(static_cast<machine::NodeId>(c));
    progs.push_back(std::make_unique<InRuns>(ops_of(c, own, shared, flag), run_length));
  }
  for (CpuId c = 0; c < 4; ++c) r.ex.start(c, *progs[c]);
  r.ex.run();
  Outcome o;
  for (CpuId c = 0; c < 4; ++c) {
    const ThreadStats& s = r.ex.stats(c);
    o.threads.emplace_back(s.finished, s.ops, s.loads, s.stores, s.atomics, s.misses, s.memory_stall);
    o.asked += progs[c]->asked();
  }
  o.events = r.sim.events_run();
  o.shared_word = r.ex.word(shared);
  return o;
}

TEST(OpRuns, ReplayTheSameRunWhateverTheirLength) {
  for (Picos run_ahead : {Executor::kRunAheadOff, Executor::kRunAheadExact, from_ns(20)}) {
    SCOPED_TRACE(run_ahead);
    const Outcome one = run(1, run_ahead);
    EXPECT_GT(std::get<5>(one.threads[0]), 0u);  // the shared line misses: the runs meet other threads
    for (std::size_t len : {2u, 3u, 7u, 1000u}) {
      SCOPED_TRACE(len);
      const Outcome runs = run(len, run_ahead);
      EXPECT_EQ(runs.threads, one.threads);
      EXPECT_EQ(runs.events, one.events);
      EXPECT_EQ(runs.shared_word, one.shared_word);
      EXPECT_LT(runs.asked, one.asked);  // the runs were taken, not asked for again
    }
  }
}

}  // namespace
}  // namespace walksim::exec
