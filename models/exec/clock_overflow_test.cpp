// Simulated time is an int64 of picoseconds: a run whose clock would pass its end must stop with a
// std::runtime_error naming the CPU (reported as bad input, exit 2), never go on with negative
// times (which used to print negative CPU seconds with exit code 0).
#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "models/coherence/test_machines.hpp"
#include "models/exec/executor.hpp"
#include "models/exec/test_rig.hpp"

namespace walksim::exec {
namespace {

using machine::ProtocolKind;

// The overflow checks do not need the invariant checker.
struct Rig : testing::Rig {
  explicit Rig(machine::MachineSpec spec) : testing::Rig(std::move(spec), false) {}
};
using testing::Script;

constexpr Picos kHuge = 5'000'000'000'000'000'000;  // 5e18 ps: two of them pass INT64_MAX

// Runs the rig and returns the message of the runtime_error it must end with.
std::string overflow_message(Rig& r) {
  try {
    r.ex.run();
  } catch (const std::logic_error& e) {
    ADD_FAILURE() << "an overflow was reported as an internal error: " << e.what();
    return "";
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  ADD_FAILURE() << "the run overflowed silently; CPU 1 finished at " << r.ex.stats(1).finished << " ps";
  return "";
}

TEST(ClockOverflow, ComputeTimesThatPassTheEndOfTheClockStopTheRunNamingTheCpu) {
  Rig r(coherence::testing::chain(2, ProtocolKind::kDirectory));
  int step = 0;
  Script p([&](std::uint64_t, Op& op) {
    op = Op::compute(kHuge);
    return step++ < 2;
  });
  r.ex.start(1, p);
  const std::string msg = overflow_message(r);
  EXPECT_NE(msg.find("simulated time overflowed on CPU 1"), std::string::npos) << msg;
  EXPECT_NE(msg.find("a time input"), std::string::npos) << msg;
}

TEST(ClockOverflow, AMemoryAccessIssuedInTheSecondHalfOfTheClockStopsTheRun) {
  // The memory system adds a transaction's parts to the issue time without checks, so accesses
  // must start early enough for any transaction to end before the clock does.
  Rig r(coherence::testing::chain(2, ProtocolKind::kDirectory));
  const LineId a = r.mem.add_line(0);
  int step = 0;
  Script p([&](std::uint64_t, Op& op) {
    if (step == 0) op = Op::compute(INT64_MAX / 2 + 1);
    if (step == 1) op = Op::load(a);
    return step++ < 2;
  });
  r.ex.start(1, p);
  const std::string msg = overflow_message(r);
  EXPECT_NE(msg.find("simulated time overflowed on CPU 1"), std::string::npos) << msg;
}

TEST(ClockOverflow, AWakeUpLatencyThatPassesTheClockStopsTheRun) {
  Rig r(coherence::testing::chain(2, ProtocolKind::kDirectory));
  const LineId flag = r.mem.add_line(0);
  int a = 0, b = 0;
  Script sleeper([&](std::uint64_t, Op& op) {
    op = Op::sleep_until(flag, 1, INT64_MAX - 1000);  // woken at ~4e18 ps plus this: past the end
    return a++ < 1;
  });
  Script writer([&](std::uint64_t, Op& op) {
    if (b == 0) op = Op::compute(4'000'000'000'000'000'000);
    if (b == 1) op = Op::store(flag, 1);
    return b++ < 2;
  });
  r.ex.start(1, sleeper);
  r.ex.start(0, writer);
  const std::string msg = overflow_message(r);
  EXPECT_NE(msg.find("simulated time overflowed on CPU 1"), std::string::npos) << msg;
}

TEST(ClockOverflow, TimesUpToTheEndOfTheClockStillRun) {
  Rig r(coherence::testing::chain(2, ProtocolKind::kDirectory));
  int step = 0;
  Script p([&](std::uint64_t, Op& op) {
    op = Op::compute(step == 0 ? kHuge : INT64_MAX - kHuge);
    return step++ < 2;
  });
  r.ex.start(1, p);
  r.ex.run();
  EXPECT_EQ(r.ex.stats(1).finished, INT64_MAX);
}

}  // namespace
}  // namespace walksim::exec
