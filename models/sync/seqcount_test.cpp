// seqcount: readers store nothing and share the line; a writer's increments make a concurrent
// reader retry; a reader that begins during a write waits for it to end.
#include "models/sync/seqcount.hpp"

#include <gtest/gtest.h>

#include "models/sync/sync_test_rig.hpp"

namespace walksim::sync {
namespace {

using exec::Op;
using sim::from_ns;
using testing::Rig;
using testing::Script;
using testing::Step;

TEST(Seqcount, ReadersStoreNothingAndAllKeepACopyOfTheLine) {
  Rig r(testing::small_machine());
  const LineId line = r.mem.add_line(0);
  Seqcount seq(line);
  std::vector<std::unique_ptr<Script>> readers;
  std::vector<std::uint64_t> retry(r.m.cpus(), 9);
  for (CpuId c = 0; c < r.m.cpus(); ++c) {
    std::vector<Step> steps;
    for (int i = 0; i < 10; ++i) {
      steps.push_back(Step::act(seq, SyncAction::kSeqReadBegin));
      steps.push_back(Step::raw(Op::compute(from_ns(20))));
      steps.push_back(Step::act(
          seq, SyncAction::kSeqReadRetry, [&retry, c](std::uint64_t x) { retry[c] = x; }, 0));
    }
    readers.push_back(std::make_unique<Script>(c, std::move(steps)));
    r.ex.start(c, *readers.back());
  }
  r.ex.run();
  EXPECT_EQ(seq.stats().stores, 0u);
  EXPECT_EQ(seq.stats().rmws, 0u);
  EXPECT_EQ(seq.stats().retries, 0u);
  for (CpuId c = 0; c < r.m.cpus(); ++c) EXPECT_EQ(retry[c], 0u);
  EXPECT_EQ(r.mem.line(line).holders.size(), r.m.cores());
}

TEST(Seqcount, AWriteThatInterleavesMakesTheReaderRetryAndOneThatDoesNotDoesNot) {
  Rig r(testing::small_machine());
  const LineId line = r.mem.add_line(0);
  Seqcount seq(line);
  std::uint64_t begin = 99, retry_overlapped = 9, begin_after = 99, retry_after = 9;
  // The reader's first section spans the write (1 us .. 2 us); its second starts after it.
  Script reader(5, {Step::act(seq, SyncAction::kSeqReadBegin, [&](std::uint64_t s) { begin = s; }),
                    Step::raw(Op::compute(from_ns(5000))),
                    Step::act(
                        seq, SyncAction::kSeqReadRetry, [&](std::uint64_t x) { retry_overlapped = x; }, 0),
                    Step::act(seq, SyncAction::kSeqReadBegin, [&](std::uint64_t s) { begin_after = s; }),
                    Step::raw(Op::compute(from_ns(100))),
                    Step::act(
                        seq, SyncAction::kSeqReadRetry, [&](std::uint64_t x) { retry_after = x; }, 2)});
  Script writer(0, {Step::raw(Op::compute(from_ns(1000))), Step::act(seq, SyncAction::kWriteBegin),
                    Step::raw(Op::compute(from_ns(1000))), Step::act(seq, SyncAction::kWriteEnd)});
  r.ex.start(5, reader);
  r.ex.start(0, writer);
  r.ex.run();
  EXPECT_EQ(begin, 0u);
  EXPECT_EQ(retry_overlapped, 1u);
  EXPECT_EQ(begin_after, 2u);
  EXPECT_EQ(retry_after, 0u);
  EXPECT_EQ(seq.stats().retries, 1u);
  EXPECT_EQ(seq.stats().stores, 2u);  // the writer: two plain stores, no RMW
  EXPECT_EQ(seq.stats().rmws, 0u);
}

TEST(Seqcount, AReaderThatBeginsDuringAWriteWaitsForAnEvenSequence) {
  Rig r(testing::small_machine());
  Seqcount seq(r.mem.add_line(0));
  std::uint64_t begin = 99;
  Script writer(0, {Step::act(seq, SyncAction::kWriteBegin), Step::raw(Op::compute(from_ns(10000))),
                    Step::act(seq, SyncAction::kWriteEnd)});
  Script reader(1, {Step::raw(Op::compute(from_ns(1000))),
                    Step::act(seq, SyncAction::kSeqReadBegin, [&](std::uint64_t s) { begin = s; })});
  r.ex.start(0, writer);
  r.ex.start(1, reader);
  r.ex.run();
  EXPECT_EQ(begin, 2u);
  EXPECT_GT(r.ex.stats(1).finished, from_ns(10000));
  EXPECT_GT(r.ex.stats(1).spin, from_ns(8000));
}

}  // namespace
}  // namespace walksim::sync
