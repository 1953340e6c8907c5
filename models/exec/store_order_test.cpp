// TSO store order (docs/model.md, "Stores"): a thread's stores become visible in program order.
// A store that hits in the core's own cache is not performed before an older store whose miss is
// still in flight, and a store behind older ones fetches its line for ownership when it is issued,
// as a hint that another core may take back before the store is performed.
#include <gtest/gtest.h>

#include <vector>

#include "models/coherence/test_machines.hpp"
#include "models/exec/test_rig.hpp"

namespace walksim::exec {
namespace {

using machine::ProtocolKind;
using sim::from_ns;
using testing::Rig;

// A fixed list of operations, recording the time each one is asked for (the previous one's
// completion) and the result the previous one gave.
class Timed : public Program {
 public:
  explicit Timed(std::vector<Op> ops) : ops_(std::move(ops)) {}
  bool next(std::uint64_t last, Op& out) override {
    starts.push_back(now());
    results.push_back(last);
    if (starts.size() > ops_.size()) return false;
    out = ops_[starts.size() - 1];
    return true;
  }
  std::vector<Picos> starts;           // starts[i]: when op i was asked for (op i-1 done)
  std::vector<std::uint64_t> results;  // results[i]: the result of op i-1

 private:
  std::vector<Op> ops_;
};

// Three nodes in a chain, one core each, 20 ns per hop (coherence/test_machines.cpp). CPU 0 writes;
// `data` is homed two hops away on node 2, `flag` and `near` on the writer's own node 0.
struct Chain {
  Chain() : r(coherence::testing::chain(3, ProtocolKind::kDirectory)) {}
  Rig r;
  LineId flag = r.mem.add_line(0);
  LineId data = r.mem.add_line(2);
  LineId near = r.mem.add_line(0);
};

// The writer takes `flag` exclusive (a store and a fence), then stores 1 to `data` (a miss to a
// memory two hops away) and 1 to `flag` (a hit), then fences. With the line homes above:
//   store flag 0: L2 4 + max(directory 7, DRAM 50) = 54 ns, the fence 2 ns: 56 ns;
//   store data 1 at 56 ns: 4 + 40 + 50 + 40 = 134 ns, done at 190 ns;
//   store flag 1 at 57 ns (a store's issue takes a cycle): a hit, performed when the data store is.
Timed writer(const Chain& c) {
  return Timed({Op::store(c.flag, 0), Op::fence(), Op::store(c.data, 1), Op::store(c.flag, 1), Op::fence()});
}

TEST(StoreOrder, AHitBehindAStoreMissCostsTheThreadNothingMore) {
  Chain c;
  Timed w = writer(c);
  c.r.ex.start(0, w);
  c.r.ex.run();
  // The flag store completes with the data store (190 ns), not a first-level latency after it: the
  // hit's own pipeline work overlaps the wait. Then the 2 ns fence.
  EXPECT_EQ(c.r.ex.stats(0).finished, from_ns(192));
  EXPECT_EQ(c.r.ex.word(c.flag), 1u);
  EXPECT_EQ(c.r.ex.word(c.data), 1u);
}

// Message passing: a reader that sees the flag set sees it no earlier than the data store is
// performed. Performed at its issue, the flag store (a hit) would have been read at about 156 ns,
// while the data store was still on its way.
TEST(StoreOrder, AStoreThatHitsIsNotVisibleBeforeTheOlderStoreMiss) {
  Chain c;
  Timed w = writer(c);
  // After the writer's fence (56 ns): wait for the flag, then read the data.
  Timed reader({Op::compute(from_ns(100)), Op::spin_until(c.flag, 1), Op::load(c.data)});
  c.r.ex.start(0, w);
  c.r.ex.start(1, reader);
  c.r.ex.run();
  ASSERT_EQ(reader.starts.size(), 4u);
  EXPECT_GE(reader.starts[2], from_ns(190)) << "the flag was seen before the data store was performed";
  EXPECT_EQ(reader.results[3], 1u);  // and the data it then read is the new value
  // The reader's read of the flag at 100 ns took the line while the flag store waited in the store
  // buffer, so that store needed a transaction of its own: the writer finishes later than alone.
  EXPECT_GT(c.r.ex.stats(0).finished, from_ns(192));
}

// A store behind an older miss fetches its line for ownership when it is issued; another core that
// reads the line before the store is performed reads the old value and takes the line back, and
// the store must then ask for it again.
TEST(StoreOrder, AnOwnershipPrefetchIsAHintAnotherCoreMayTakeBack) {
  Picos alone = 0;
  for (const bool with_reader : {false, true}) {
    Chain c;
    // The data store is done at 134 ns; the near store's line is prefetched at 1 ns (memory, 54 ns).
    Timed w({Op::store(c.data, 1), Op::store(c.near, 7), Op::fence()});
    // At 80 ns the prefetch is in and the data store is not.
    Timed reader({Op::compute(from_ns(80)), Op::load(c.near)});
    c.r.ex.start(0, w);
    if (with_reader) c.r.ex.start(1, reader);
    c.r.ex.run();
    EXPECT_EQ(c.r.ex.word(c.near), 7u);
    if (!with_reader) {
      alone = c.r.ex.stats(0).finished;
      // The near store, prefetched long before, is a hit when the data store is performed.
      EXPECT_EQ(alone, from_ns(134 + 2));
      continue;
    }
    ASSERT_EQ(reader.results.size(), 3u);
    EXPECT_EQ(reader.results[2], 0u) << "the reader saw a store that was not yet performed";
    EXPECT_GT(c.r.ex.stats(0).finished, alone) << "the store did not have to ask for its line again";
  }
}

}  // namespace
}  // namespace walksim::exec
