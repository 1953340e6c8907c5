// SMT in the executor: a hardware thread whose core's other thread runs a program does its private
// work and its cache hits at the machine's smt_throughput (1 / 0.6 = 5/3 as long here); one whose
// sibling hosts nothing keeps its single-thread times, and misses are not scaled.
#include <gtest/gtest.h>

#include <vector>

#include "models/coherence/test_machines.hpp"
#include "models/exec/core_speed.hpp"
#include "models/exec/executor.hpp"

namespace walksim::exec {
namespace {

using machine::ProtocolKind;
using sim::from_ns;

// 2 nodes x 2 cores x 2 threads: CPUs 0,1 share core 0, CPUs 2,3 core 1 (both on node 0).
// L1 hit 1 ns, 1 GHz clock (one cycle is 1 ns).
machine::MachineSpec smt_machine(double throughput) {
  auto spec = coherence::testing::two_socket(ProtocolKind::kDirectory, machine::Inclusion::kInclusive, 2, 2);
  spec.smt_throughput = throughput;
  return spec;
}

struct Rig {
  explicit Rig(machine::MachineSpec spec) : m(std::move(spec)), sim(1), mem(m, true), ex(sim, mem) {}
  machine::Machine m;
  sim::Simulation sim;
  coherence::MemorySystem mem;
  Executor ex;
};

// Runs a fixed list of operations and records the thread's clock before each one (and at the end).
class Recorder : public Program {
 public:
  explicit Recorder(std::vector<Op> ops) : ops_(std::move(ops)) {}
  bool next(std::uint64_t, Op& op) override {
    at.push_back(now());
    if (i_ == ops_.size()) return false;
    op = ops_[i_++];
    return true;
  }
  // How long operation k took.
  Picos took(std::size_t k) const { return at[k + 1] - at[k]; }
  std::vector<Picos> at;

 private:
  std::vector<Op> ops_;
  std::size_t i_ = 0;
};

TEST(CoreSpeed, DividesByTheThroughputAndRoundsToTheNearestPicosecond) {
  EXPECT_EQ(CoreSpeed()(1234), 1234);
  EXPECT_EQ(CoreSpeed(600'000)(600), 1000);
  EXPECT_EQ(CoreSpeed(600'000)(1000), 1667);  // 1666.67
  EXPECT_EQ(CoreSpeed(800'000)(2), 3);        // 2.5 rounds up
  EXPECT_EQ(CoreSpeed(800'000)(1), 1);        // 1.25 rounds down
  // Whole simulated hours do not overflow: 3.6e15 ps / 0.59.
  EXPECT_EQ(CoreSpeed(590'000)(3'600'000'000'000'000), 6'101'694'915'254'237);
}

TEST(SmtExecutor, AThreadWhoseSiblingRunsDoesItsPrivateWorkSlowerByExactlyTheFactor) {
  Rig r(smt_machine(0.6));
  Recorder shared({Op::compute(from_ns(600))});
  Recorder sibling({Op::compute(from_ns(600))});
  Recorder alone({Op::compute(from_ns(600))});  // on core 1, whose other thread hosts nothing
  r.ex.start(0, shared);
  r.ex.start(1, sibling);
  r.ex.start(2, alone);
  r.ex.run();
  EXPECT_EQ(r.ex.stats(0).finished, from_ns(1000));
  EXPECT_EQ(r.ex.stats(0).compute, from_ns(1000));
  EXPECT_EQ(r.ex.stats(1).finished, from_ns(1000));
  EXPECT_EQ(r.ex.stats(2).finished, from_ns(600));
  EXPECT_EQ(r.ex.stats(2).compute, from_ns(600));
}

TEST(SmtExecutor, AHitAndAStoreIssueAreSlowerByTheFactorButAMissIsNot) {
  Rig r(smt_machine(0.6));
  const LineId a = r.mem.add_line(0), b = r.mem.add_line(0);  // both homed on node 0, like cores 0 and 1
  // load (a miss), load again (an L1 hit), store to the now exclusive line (one issue cycle).
  Recorder shared({Op::load(a), Op::load(a), Op::store(a, 1), Op::compute(0)});
  Recorder sibling({Op::compute(from_ns(10'000))});
  Recorder alone({Op::load(b), Op::load(b), Op::store(b, 1), Op::compute(0)});
  r.ex.start(0, shared);
  r.ex.start(1, sibling);
  r.ex.start(2, alone);
  r.ex.run();
  ASSERT_EQ(shared.at.size(), 5u);
  ASSERT_EQ(alone.at.size(), 5u);
  EXPECT_EQ(shared.took(0), alone.took(0));  // the miss waits on the memory system: same time
  EXPECT_GT(alone.took(0), from_ns(10));
  EXPECT_EQ(alone.took(1), from_ns(1));  // L1 hit
  EXPECT_EQ(shared.took(1), 1667);       // 1 ns / 0.6, rounded
  EXPECT_EQ(alone.took(2), from_ns(1));  // one cycle to issue the store
  EXPECT_EQ(shared.took(2), 1667);
}

TEST(SmtExecutor, ProgramsLearnTheirSpeedAndTheRunCountsItsSharedCores) {
  Rig r(smt_machine(0.6));
  Recorder first({Op::compute(1)}), second({Op::compute(1)}), alone({Op::compute(1)});
  r.ex.start(0, first);
  EXPECT_TRUE(first.core_speed().full());  // its sibling has not started yet
  r.ex.start(1, second);
  r.ex.start(2, alone);
  EXPECT_EQ(first.core_speed()(600), 1000);  // told when the sibling started
  EXPECT_EQ(second.core_speed()(600), 1000);
  EXPECT_TRUE(alone.core_speed().full());
  EXPECT_EQ(r.ex.smt_cores(), 1u);
  r.ex.run();
}

TEST(SmtExecutor, AThroughputOfOneChangesNothing) {
  Rig r(smt_machine(1.0));
  Recorder a({Op::compute(from_ns(600))}), b({Op::compute(from_ns(600))});
  r.ex.start(0, a);
  r.ex.start(1, b);
  r.ex.run();
  EXPECT_EQ(r.ex.stats(0).finished, from_ns(600));
  EXPECT_EQ(r.ex.smt_cores(), 1u);
}

}  // namespace
}  // namespace walksim::exec
