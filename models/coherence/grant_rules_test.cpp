// Hints (prefetch, prefetchw, the store buffer's ownership prefetch) take effect at their grant like
// demand requests: until then the line's holders keep their copies and hit. A demand access behind
// its own core's queued hint waits for it; a second hint beside a request in flight adds nothing.
// So does a request issued behind its own core's transaction still in flight (OwnInFlight). Requests
// that reach the home at the same time, issued at the same time, wait in an order that the host's
// order of issue does not change and that favours no CPU (QueueTies).
#include <gtest/gtest.h>

#include <map>
#include <vector>

#include "models/coherence/memory_system.hpp"
#include "models/coherence/test_machines.hpp"

namespace walksim::coherence {
namespace {

using machine::Machine;
using machine::ProtocolKind;
using sim::from_ns;
using sim::Picos;

// One socket of four cores on a directory (request leg 2 ns, lookup and forward 7 ns: the memory
// system tests' chain machine); the line is homed on node 0 and CPU 0 holds it Modified.
struct HintRig {
  HintRig() : m(spec()), mem(m, true), line(mem.add_line(0)) { mem.access(0, 0, line, AccessKind::kStore, 1); }
  static machine::MachineSpec spec() {
    auto s = testing::chain(1, ProtocolKind::kDirectory);
    s.cores_per_socket = 4;
    return s;
  }
  // Nothing left queued, and every copy and the directory agree.
  void expect_drained() const {
    EXPECT_EQ(mem.waiting(), 0u);
    mem.check_all();
  }
  Machine m;
  MemorySystem mem;
  LineId line;
};

TEST(Hints, AnOwnershipPrefetchTakesEffectAtItsGrantAndTheOwnerHitsUntilThen) {
  HintRig r;
  const Picos t0 = from_ns(1000);
  AccessResult out;
  EXPECT_FALSE(r.mem.hint(t0, 1, r.line, AccessKind::kPrefetchExclusive, out));
  const auto g = r.mem.head(r.line);
  ASSERT_TRUE(g.has_value());
  EXPECT_EQ(g->cpu, 1u);
  EXPECT_EQ(g->kind, AccessKind::kPrefetchExclusive);
  EXPECT_EQ(g->at, t0 + from_ns(2 + 7));
  // The owner still hits just before the grant, and what it stores is what the prefetch fetches.
  const auto owner = r.mem.request(g->at - from_ns(1), 0, r.line, AccessKind::kStore, 7);
  ASSERT_TRUE(owner.has_value());
  EXPECT_EQ(owner->served, ServedBy::kPrivate);
  const auto granted = r.mem.request(g->at, 1, r.line, AccessKind::kPrefetchExclusive);
  ASSERT_TRUE(granted.has_value());
  EXPECT_EQ(granted->value, 7u);
  EXPECT_TRUE(r.mem.owns_exclusively(1, r.line));
  EXPECT_FALSE(r.mem.line(r.line).holders.contains(0));
  r.expect_drained();
}

TEST(Hints, AStoreBehindItsOwnQueuedPrefetchWaitsForItAndHitsOnWhatItBrought) {
  HintRig r;
  const Picos t0 = from_ns(1000);
  AccessResult hint;
  ASSERT_FALSE(r.mem.hint(t0, 1, r.line, AccessKind::kPrefetchExclusive, hint));
  const Picos grant = r.mem.head(r.line)->at;
  AccessResult store;
  // Asked before the hint's grant: it waits (it does not queue a second request of its own).
  EXPECT_FALSE(r.mem.request(t0 + from_ns(1), 1, r.line, AccessKind::kStore, 5, store));
  EXPECT_EQ(r.mem.waiting(), 1u);
  EXPECT_EQ(r.mem.head(r.line)->at, grant);
  ASSERT_TRUE(r.mem.request(grant, 1, r.line, AccessKind::kStore, 5, store));
  EXPECT_TRUE(store.after_hint);
  EXPECT_EQ(store.hint_source, Source::kCache);  // the hint took the line from CPU 0's cache
  EXPECT_EQ(store.served, ServedBy::kPrivate);
  // The store is a hit that waits for the prefetch's data.
  MemorySystem in_issue_order(r.m, true);
  ASSERT_EQ(in_issue_order.add_line(0), r.line);
  in_issue_order.access(0, 0, r.line, AccessKind::kStore, 1);
  EXPECT_GE(store.done, in_issue_order.access(t0, 1, r.line, AccessKind::kPrefetchExclusive).done);
  r.expect_drained();
}

TEST(Hints, AHintBesideTheCoresOwnQueuedRequestAddsNothing) {
  HintRig r;
  const Picos t0 = from_ns(1000);
  AccessResult out;
  EXPECT_FALSE(r.mem.request(t0, 1, r.line, AccessKind::kLoad, 0, out));
  EXPECT_FALSE(r.mem.hint(t0 + from_ns(1), 1, r.line, AccessKind::kPrefetchExclusive, out));
  EXPECT_EQ(r.mem.waiting(), 1u);
  const auto g = r.mem.head(r.line);
  ASSERT_TRUE(g.has_value());
  EXPECT_EQ(g->kind, AccessKind::kLoad);
}

TEST(Hints, ALoadHitBesideTheCoresOwnQueuedUpgradeLeavesTheUpgradeQueued) {
  HintRig r;
  // CPUs 1 and 2 read the line (all three now share it), then CPU 1 prefetches it for writing: an
  // upgrade. (CPU 2's read comes last, so the upgrade is not behind CPU 1's own transaction.)
  const Picos t0 = from_ns(1000);
  AccessResult out;
  for (const machine::CpuId cpu : {1u, 2u}) {
    ASSERT_FALSE(r.mem.request(t0, cpu, r.line, AccessKind::kLoad, 0, out));
    ASSERT_TRUE(r.mem.request(r.mem.head(r.line)->at, cpu, r.line, AccessKind::kLoad, 0, out));
  }
  const Picos t1 = from_ns(2000);
  ASSERT_FALSE(r.mem.hint(t1, 1, r.line, AccessKind::kPrefetchExclusive, out));
  ASSERT_TRUE(r.mem.request(t1 + from_ns(1), 1, r.line, AccessKind::kLoad, 0, out));
  EXPECT_EQ(out.served, ServedBy::kPrivate);
  EXPECT_FALSE(out.after_hint);
  EXPECT_EQ(r.mem.waiting(), 1u);
  const auto g = r.mem.head(r.line);
  ASSERT_TRUE(g.has_value());
  ASSERT_TRUE(r.mem.request(g->at, 1, r.line, AccessKind::kPrefetchExclusive, 0, out));
  EXPECT_TRUE(r.mem.owns_exclusively(1, r.line));
  r.mem.check_all();
}

// CPU 1 reads the line CPU 0 wrote and, while that read's data is still on its way, stores to it:
// the upgrade is taken by the home as soon as the read's data is in (its completion travels ahead
// of the upgrade), as before, but CPU 0's copy goes only at the upgrade's grant: it hits until then.
TEST(OwnInFlight, AnUpgradeBehindTheCoresOwnReadTakesEffectAtItsGrant) {
  HintRig r;
  MemorySystem in_issue_order(r.m, true);
  ASSERT_EQ(in_issue_order.add_line(0), r.line);
  in_issue_order.access(0, 0, r.line, AccessKind::kStore, 1);
  const Picos t0 = from_ns(1000);
  AccessResult read;
  ASSERT_FALSE(r.mem.request(t0, 1, r.line, AccessKind::kLoad, 0, read));
  const Picos read_grant = r.mem.head(r.line)->at;
  ASSERT_TRUE(r.mem.request(read_grant, 1, r.line, AccessKind::kLoad, 0, read));
  const Picos t1 = read_grant + from_ns(1);
  ASSERT_LT(t1, read.done);
  AccessResult store;
  EXPECT_FALSE(r.mem.request(t1, 1, r.line, AccessKind::kStore, 9, store));
  const auto g = r.mem.head(r.line);
  ASSERT_TRUE(g.has_value());
  EXPECT_EQ(g->cpu, 1u);
  AccessResult owner;
  ASSERT_TRUE(r.mem.request(g->at - from_ns(1), 0, r.line, AccessKind::kLoad, 0, owner));
  EXPECT_EQ(owner.served, ServedBy::kPrivate);
  ASSERT_TRUE(r.mem.request(g->at, 1, r.line, AccessKind::kStore, 9, store));
  EXPECT_FALSE(r.mem.line(r.line).holders.contains(0));
  in_issue_order.access(t0, 1, r.line, AccessKind::kLoad);
  EXPECT_EQ(store.done, in_issue_order.access(t1, 1, r.line, AccessKind::kStore, 9).done);
  r.mem.check_all();
}

// CPUs 1, 2 and 3 (one socket, equal request legs) ask for the line CPU 0 holds at the same time.
// The order they are granted in does not depend on the order the host issued them in, and no CPU
// wins every tie: over many such ties at different times each is granted first about a third of
// the time.
std::vector<machine::CpuId> grant_order(Picos t0, const std::vector<machine::CpuId>& issue_order) {
  HintRig r;
  AccessResult out;
  for (const machine::CpuId cpu : issue_order) EXPECT_FALSE(r.mem.request(t0, cpu, r.line, AccessKind::kRmw, 1, out));
  std::vector<machine::CpuId> granted;
  while (const auto g = r.mem.head(r.line)) {
    EXPECT_TRUE(r.mem.request(g->at, g->cpu, r.line, AccessKind::kRmw, 1, out));
    granted.push_back(g->cpu);
  }
  return granted;
}

TEST(QueueTies, EqualArrivalsAreGrantedInAnOrderTheHostsIssueOrderDoesNotChangeAndNoCpuAlwaysWins) {
  std::map<machine::CpuId, int> first;
  constexpr int kTies = 300;
  for (int k = 0; k < kTies; ++k) {
    const Picos t0 = from_ns(1000) + k * 1234;
    const auto order = grant_order(t0, {3, 1, 2});
    ASSERT_EQ(order.size(), 3u);
    EXPECT_EQ(order, grant_order(t0, {2, 3, 1}));
    EXPECT_EQ(order, grant_order(t0, {1, 2, 3}));
    ++first[order.front()];
  }
  for (const machine::CpuId cpu : {1u, 2u, 3u}) EXPECT_GT(first[cpu], kTies / 5) << "CPU " << cpu;
}

}  // namespace
}  // namespace walksim::coherence
