// Closed forms: an unloaded transaction costs exactly the sum of its parts, protocol transitions
// leave the states each protocol defines, and N simultaneous requesters finish in N transfer times.
#include "models/coherence/memory_system.hpp"

#include <gtest/gtest.h>

#include "models/coherence/test_machines.hpp"

namespace walksim::coherence {
namespace {

using machine::Inclusion;
using machine::Machine;
using machine::ProtocolKind;
using sim::from_ns;

// The request the home takes next on line `l`, which must be CPU `cpu`'s.
Grant next_waiting(MemorySystem& mem, LineId l, machine::CpuId cpu) {
  const auto g = mem.head(l);
  EXPECT_TRUE(g.has_value());
  if (!g) return Grant{cpu, 0, AccessKind::kLoad};
  EXPECT_EQ(g->cpu, cpu);
  return *g;
}

Picos latency_of(MemorySystem& mem, Picos now, machine::CpuId cpu, LineId line, AccessKind k) {
  auto r = mem.access(now, cpu, line, k, 1);
  return r.done - now;
}

TEST(Moesi, AMissHomedLocallyCostsTheLongerOfDramAndTheSlowestProbe) {
  Machine m(testing::two_socket(ProtocolKind::kMoesiBroadcast, Inclusion::kVictim));
  MemorySystem mem(m, true);
  LineId local = mem.add_line(0);
  // L3 miss 10 + max(DRAM 50, probe to the other socket 20 + 5 + 20) = 60 ns.
  EXPECT_EQ(latency_of(mem, 0, 0, local, AccessKind::kLoad), from_ns(60));
}

TEST(Moesi, AMissHomedRemotelyAddsTheTripToTheHome) {
  Machine m(testing::two_socket(ProtocolKind::kMoesiBroadcast, Inclusion::kVictim));
  MemorySystem mem(m, true);
  LineId remote = mem.add_line(1);
  // 10 + request to home 20 + max(DRAM 50 + data back 20, probes 25) = 100 ns.
  EXPECT_EQ(latency_of(mem, 0, 0, remote, AccessKind::kLoad), from_ns(100));
}

TEST(Sources, EachAccessSaysWhereItWasServed) {
  Machine m(testing::two_socket(ProtocolKind::kMoesiBroadcast, Inclusion::kVictim));
  MemorySystem mem(m, true);
  const LineId local = mem.add_line(0), remote = mem.add_line(1);
  EXPECT_EQ(mem.access(0, 0, local, AccessKind::kLoad).source, Source::kLocalMemory);
  EXPECT_EQ(mem.access(from_ns(1000), 0, local, AccessKind::kLoad).source, Source::kL1);
  EXPECT_EQ(mem.access(from_ns(2000), 0, remote, AccessKind::kLoad).source, Source::kRemoteMemory);
  // Another socket's core reads the line core 0 holds (E: its cache answers the probe), then core 0
  // writes its now shared copy.
  EXPECT_EQ(mem.access(from_ns(3000), 2, local, AccessKind::kLoad).source, Source::kCache);
  EXPECT_EQ(mem.access(from_ns(4000), 0, local, AccessKind::kStore, 5).source, Source::kPermission);
  // The other socket reads the modified line: a cache supplies it.
  EXPECT_EQ(mem.access(from_ns(5000), 2, local, AccessKind::kLoad).source, Source::kCache);
  // A line homed on node 0 that nobody holds, read from node 1.
  EXPECT_EQ(mem.access(from_ns(6000), 2, mem.add_line(0), AccessKind::kLoad).source, Source::kRemoteMemory);
}

TEST(Moesi, ReadingAModifiedLineLeavesTheOldOwnerInOwnedState) {
  Machine m(testing::two_socket(ProtocolKind::kMoesiBroadcast, Inclusion::kVictim));
  MemorySystem mem(m, true);
  LineId l = mem.add_line(0);
  mem.access(0, 0, l, AccessKind::kStore, 7);
  auto r = mem.access(from_ns(1000), 2, l, AccessKind::kLoad);
  EXPECT_EQ(r.value, 7u);
  EXPECT_TRUE(r.transfer);
  // 10 + to home (remote requester) 20 + probe responses max(0+5+20, 20+5+0) = 55 ns.
  EXPECT_EQ(r.done - from_ns(1000), from_ns(55));
  EXPECT_EQ(mem.line(l).owner, 0);
  EXPECT_EQ(mem.line(l).owner_state, OwnerState::kOwned);
  EXPECT_EQ(mem.line(l).dirty_domain, 0);
}

TEST(Moesi, AStoreToASharedLineInvalidatesEveryOtherCopy) {
  Machine m(testing::two_socket(ProtocolKind::kMoesiBroadcast, Inclusion::kVictim));
  MemorySystem mem(m, true);
  LineId l = mem.add_line(0);
  mem.access(0, 0, l, AccessKind::kLoad);
  mem.access(from_ns(100), 2, l, AccessKind::kLoad);
  mem.access(from_ns(200), 3, l, AccessKind::kStore, 9);
  EXPECT_EQ(mem.line(l).holders.size(), 1u);
  EXPECT_EQ(mem.line(l).owner, 3);
  EXPECT_EQ(mem.line(l).owner_state, OwnerState::kModified);
}

TEST(Mesif, AnOnDieSnoopOfACleanLineCostsTheL3HitPlusTheCleanSnoop) {
  Machine m(testing::two_socket(ProtocolKind::kMesifInclusive, Inclusion::kInclusive));
  MemorySystem mem(m, true);
  LineId l = mem.add_line(0);
  mem.access(0, 0, l, AccessKind::kLoad);
  EXPECT_EQ(latency_of(mem, from_ns(100), 1, l, AccessKind::kLoad), from_ns(10 + 8));
}

// A line the die's cores share clean is answered by the inclusive L3 alone: no core snoop (SSYNC
// Table 2, Westmere-EX: 44 cycles for a Shared line, its L3's latency, 92 for an Exclusive one).
// Core 0 reads it (Exclusive), core 2 on the other socket reads it (core 0 keeps it Shared, core 2
// forwards); core 1, core 0's sibling, then reads it from the L3.
TEST(Mesif, ALineTheDiesCoresShareCleanIsAnsweredByTheL3WithoutASnoop) {
  Machine m(testing::two_socket(ProtocolKind::kMesifInclusive, Inclusion::kInclusive));
  MemorySystem mem(m, true);
  LineId l = mem.add_line(0);
  mem.access(0, 0, l, AccessKind::kLoad);
  mem.access(from_ns(100), 2, l, AccessKind::kLoad);
  const auto r = mem.access(from_ns(200), 1, l, AccessKind::kLoad);
  EXPECT_EQ(r.done - from_ns(200), from_ns(10));
  EXPECT_EQ(r.source, Source::kSharedCache);
  mem.check_all();
}

// The L3 answers a line its cores share clean in its own pipeline, but it takes the requests for
// one line in the order they reached it: a read that finds an earlier request for the line still
// waiting (here an atomic queued behind a snoop in flight) waits its turn and reads the value that
// request wrote, where reading the clean copy at once would have read past it (docs/model.md,
// "Reads inside a domain").
TEST(Mesif, AReadTheL3AnswersWaitsBehindAnEarlierRequestForTheLine) {
  Machine m(testing::two_socket(ProtocolKind::kMesifInclusive, Inclusion::kInclusive, 4));
  MemorySystem mem(m, true);
  const LineId l = mem.add_line(0);
  mem.access(0, 0, l, AccessKind::kRmw, 1);  // Modified in CPU 0
  const Picos t0 = from_ns(1000);
  // A snoop of CPU 0's Modified copy, through the line's queue: the line is then shared clean.
  EXPECT_FALSE(mem.request(t0, 1, l, AccessKind::kLoad).has_value());
  const Grant snoop = next_waiting(mem, l, 1);
  ASSERT_TRUE(mem.request(snoop.at, 1, l, AccessKind::kLoad).has_value());  // in flight until its data is in
  EXPECT_FALSE(mem.request(snoop.at + from_ns(1), 2, l, AccessKind::kRmw, 2).has_value());  // queued behind it
  // CPU 3's read could be answered by the L3's clean copy, but CPU 2's atomic reached it first.
  EXPECT_FALSE(mem.request(snoop.at + from_ns(2), 3, l, AccessKind::kLoad).has_value());
  const Grant first = next_waiting(mem, l, 2);
  ASSERT_TRUE(mem.request(first.at, 2, l, AccessKind::kRmw, 2).has_value());
  const Grant second = next_waiting(mem, l, 3);
  EXPECT_GE(second.at, first.at);
  const auto read = mem.request(second.at, 3, l, AccessKind::kLoad);
  ASSERT_TRUE(read.has_value());
  EXPECT_EQ(read->value, 2u);  // the atomic's value, not the clean copy's 1
  EXPECT_EQ(mem.waiting(), 0u);
  mem.check_all();
}

TEST(Mesif, AnOnDieSnoopOfAModifiedLineCostsTheDirtySnoop) {
  Machine m(testing::two_socket(ProtocolKind::kMesifInclusive, Inclusion::kInclusive));
  MemorySystem mem(m, true);
  LineId l = mem.add_line(0);
  mem.access(0, 0, l, AccessKind::kStore, 3);
  auto r = mem.access(from_ns(100), 1, l, AccessKind::kLoad);
  EXPECT_EQ(r.done - from_ns(100), from_ns(10 + 12));
  EXPECT_EQ(r.value, 3u);
}

TEST(Mesif, ALocalMissWaitsForTheSourceSnoopOfTheOtherSocket) {
  Machine m(testing::two_socket(ProtocolKind::kMesifInclusive, Inclusion::kInclusive));
  MemorySystem mem(m, true);
  LineId local = mem.add_line(0), remote = mem.add_line(1);
  EXPECT_EQ(latency_of(mem, 0, 0, local, AccessKind::kLoad), from_ns(10 + 50));
  EXPECT_EQ(latency_of(mem, 0, 0, remote, AccessKind::kLoad), from_ns(10 + 20 + 50 + 20));
}

TEST(Mesif, ARemoteReadOfAModifiedLineWritesItBackAndMakesTheReaderTheForwarder) {
  Machine m(testing::two_socket(ProtocolKind::kMesifInclusive, Inclusion::kInclusive));
  MemorySystem mem(m, true);
  LineId l = mem.add_line(0);
  mem.access(0, 0, l, AccessKind::kStore, 5);
  auto r = mem.access(from_ns(100), 2, l, AccessKind::kLoad);
  EXPECT_EQ(r.value, 5u);
  EXPECT_EQ(mem.line(l).dirty_domain, kNone);
  EXPECT_EQ(mem.line(l).owner, 2);
  EXPECT_EQ(mem.line(l).owner_state, OwnerState::kForward);
}

// A read forwarded to a socket whose cores share the line clean: with `remote_shared_reads: llc`
// that socket's inclusive L3 answers without the core snoop `probe_lookup` stands for. Cores 2 and
// 3 (node 1) share the line, homed on core 0's node 0; core 0 reads it. The L3's 10 (the home is on
// its own node), the 7 ns directory, 20 to node 1, then the 5 ns probe or none, and 20 back.
TEST(Directory, ARemoteSocketThatSharesALineCleanAnswersFromItsL3WhenTheMachineSaysSo) {
  for (const bool from_llc : {false, true}) {
    auto spec = testing::two_socket(ProtocolKind::kDirectory, Inclusion::kInclusive);
    spec.remote_shared_reads_from_llc = from_llc;
    Machine m(spec);
    MemorySystem mem(m, true);
    LineId l = mem.add_line(0);
    mem.access(0, 2, l, AccessKind::kLoad);
    mem.access(from_ns(100), 3, l, AccessKind::kLoad);
    EXPECT_EQ(latency_of(mem, from_ns(200), 0, l, AccessKind::kLoad), from_ns(10 + 7 + 20 + (from_llc ? 0 : 5) + 20))
        << (from_llc ? "llc" : "core snoop");
    mem.check_all();
  }
}

TEST(Directory, AnOwnedLineIsForwardedInThreeHops) {
  Machine m(testing::chain(3, ProtocolKind::kDirectory));
  MemorySystem mem(m, true);
  LineId l = mem.add_line(1);
  mem.access(0, 2, l, AccessKind::kStore, 1);
  // L2 miss 4 + to home 20 + directory 7 + home to owner 20 + probe 5 + owner to requester 40 = 96 ns.
  EXPECT_EQ(latency_of(mem, from_ns(1000), 0, l, AccessKind::kLoad), from_ns(96));
}

TEST(Directory, AWriteToASharedLineWaitsForTheFarthestAcknowledgement) {
  Machine m(testing::chain(3, ProtocolKind::kDirectory));
  MemorySystem mem(m, true);
  LineId l = mem.add_line(0);
  mem.access(0, 1, l, AccessKind::kLoad);
  mem.access(from_ns(200), 2, l, AccessKind::kLoad);
  // Data from memory 4 + 50 = 54; invalidation of core 2: 4 + 7 + 40 + 5 + 40 = 96 ns.
  EXPECT_EQ(latency_of(mem, from_ns(1000), 0, l, AccessKind::kStore), from_ns(96));
  EXPECT_EQ(mem.line(l).holders.size(), 1u);
}

TEST(Directory, AnAtomicOnAnOwnLineCostsTheL1HitPlusTheAtomicOverhead) {
  Machine m(testing::chain(2, ProtocolKind::kDirectory));
  MemorySystem mem(m, true);
  LineId l = mem.add_line(0);
  mem.access(0, 0, l, AccessKind::kRmw, 1);
  EXPECT_EQ(latency_of(mem, from_ns(1000), 0, l, AccessKind::kRmw), from_ns(1 + 3));
}

TEST(Queueing, NSimultaneousRequestersFinishInNTransferTimes) {
  auto spec = testing::chain(1, ProtocolKind::kDirectory);
  spec.cores_per_socket = 4;
  Machine m(spec);
  MemorySystem mem(m, true);
  LineId l = mem.add_line(0);
  mem.access(0, 0, l, AccessKind::kRmw, 1);
  // Each transfer: L2 miss 4 + directory 7 + owner probe 5 = 16, plus the atomic's 3 = 19 ns.
  const Picos t0 = from_ns(1000);
  std::vector<Picos> done;
  for (machine::CpuId c = 1; c <= 3; ++c) done.push_back(mem.access(t0, c, l, AccessKind::kRmw, c).done);
  EXPECT_EQ(done[0], t0 + from_ns(19));
  EXPECT_EQ(done[1], t0 + from_ns(38));
  EXPECT_EQ(done[2], t0 + from_ns(57));
  EXPECT_EQ(mem.line_stats(l).queued, from_ns(19 + 38));
}

// The owner's window (docs/model.md, "Grants", "Legs"): after a new owner's data arrived, the next
// request takes effect once the owner's completion has reached the home (ack: half the outermost
// cache's latency, the miss's departure, plus the trip to the home: 4 / 2 = 2 ns) and the home has
// looked it up and forwarded it to the owner's cache (directory 7, no link): 9 ns. The probe's
// lookup (5 ns) and the fill (2 ns) are after the owner lost the line, in the next transfer's data
// leg, so the period at which the line moves is still the whole 19-ns transfer.
TEST(Queueing, ANewOwnerKeepsTheLineForTheCompletionAndTheForwardOnly) {
  auto spec = testing::chain(1, ProtocolKind::kDirectory);
  spec.cores_per_socket = 4;
  Machine m(spec);
  MemorySystem mem(m, true);
  const LineId l = mem.add_line(0);
  mem.access(0, 0, l, AccessKind::kRmw, 1);
  const Picos t0 = from_ns(1000);
  EXPECT_FALSE(mem.request(t0, 1, l, AccessKind::kRmw, 2).has_value());
  EXPECT_FALSE(mem.request(t0 + from_ns(1), 2, l, AccessKind::kRmw, 3).has_value());
  const auto first = mem.request(next_waiting(mem, l, 1).at, 1, l, AccessKind::kRmw, 2);
  ASSERT_TRUE(first.has_value());
  EXPECT_EQ(first->done, t0 + from_ns(19));
  const auto next = mem.head(l);
  ASSERT_TRUE(next.has_value());
  EXPECT_EQ(next->at, first->done + from_ns(2 + 7));
  // Inside the window the owner's own atomic is a hit; the waiting request then takes effect.
  const auto again = mem.request(first->done + from_ns(8), 1, l, AccessKind::kRmw, 4);
  ASSERT_TRUE(again.has_value());
  EXPECT_EQ(again->done - (first->done + from_ns(8)), from_ns(1 + 3));
  const auto second = mem.request(next->at, 2, l, AccessKind::kRmw, 5);
  ASSERT_TRUE(second.has_value());
  EXPECT_EQ(second->done, first->done + from_ns(19));
  mem.check_all();
}

// Effect at grant with nobody else on the line: a request that finds the home free and no queue
// still changes the line only when the home has taken it and forwarded it to the owner (the
// miss's request leg, 2 ns, and the directory's lookup and forward, 7 ns, after its issue); until
// then the owner's accesses are hits, and the requester reads what the owner stored in between.
// Its data arrives when the same access served in the order of issue (access()) would have had it.
TEST(Queueing, AnUncontendedRequestTakesEffectAtItsGrantAndTheOwnerHitsUntilThen) {
  auto spec = testing::chain(1, ProtocolKind::kDirectory);
  spec.cores_per_socket = 4;
  Machine m(spec);
  MemorySystem mem(m, true);
  MemorySystem in_issue_order(m, true);
  const LineId l = mem.add_line(0);
  ASSERT_EQ(in_issue_order.add_line(0), l);
  mem.access(0, 0, l, AccessKind::kStore, 1);
  in_issue_order.access(0, 0, l, AccessKind::kStore, 1);
  const Picos t0 = from_ns(1000);
  EXPECT_FALSE(mem.request(t0, 1, l, AccessKind::kLoad).has_value());
  const Grant grant = next_waiting(mem, l, 1);
  EXPECT_EQ(grant.at, t0 + from_ns(2 + 7));
  const auto owner = mem.request(grant.at - from_ns(1), 0, l, AccessKind::kStore, 7);
  ASSERT_TRUE(owner.has_value());
  EXPECT_EQ(owner->served, ServedBy::kPrivate);
  const auto read = mem.request(grant.at, 1, l, AccessKind::kLoad);
  ASSERT_TRUE(read.has_value());
  EXPECT_EQ(read->value, 7u);
  EXPECT_TRUE(read->transfer);
  EXPECT_EQ(read->done, in_issue_order.access(t0, 1, l, AccessKind::kLoad).done);
  EXPECT_EQ(mem.waiting(), 0u);
  mem.check_all();
}

// Which waiting request the home takes next (machine::ServiceOrder). Two nodes of two cores, the
// line homed on node 0. CPU 1 (node 0) asks first and takes the line; CPU 0 (node 0) and CPU 2 (node 1) ask
// for it 1 ns later, at the same time. CPU 0's request reaches the home first (no link to cross): in order of
// arrival it is served next; by node in turn, CPU 2's is, since the last request served was node 0's.
TEST(Queueing, TheHomeTakesTheNextRequestByArrivalOrByNodeInTurn) {
  for (const auto order : {machine::ServiceOrder::kArrival, machine::ServiceOrder::kNodeRoundRobin}) {
    auto spec = testing::two_socket(ProtocolKind::kDirectory, Inclusion::kInclusive, 2, 1);
    spec.service_order = order;
    Machine m(spec);
    MemorySystem mem(m, true);
    const LineId l = mem.add_line(0);
    const Picos t0 = from_ns(1000);
    EXPECT_FALSE(mem.request(t0, 1, l, AccessKind::kRmw, 1).has_value());
    EXPECT_FALSE(mem.request(t0 + from_ns(1), 0, l, AccessKind::kRmw, 2).has_value());
    EXPECT_FALSE(mem.request(t0 + from_ns(1), 2, l, AccessKind::kRmw, 3).has_value());
    ASSERT_TRUE(mem.request(next_waiting(mem, l, 1).at, 1, l, AccessKind::kRmw, 1).has_value());
    const auto first = mem.head(l);
    ASSERT_TRUE(first.has_value());
    const machine::CpuId expected = order == machine::ServiceOrder::kArrival ? 0 : 2;
    EXPECT_EQ(first->cpu, expected) << (order == machine::ServiceOrder::kArrival ? "arrival" : "node round robin");
    // Only the request the home takes next may take effect; the other is told to wait.
    const machine::CpuId other = expected == 0 ? 2 : 0;
    EXPECT_FALSE(mem.request(first->at, other, l, AccessKind::kRmw, 9).has_value());
    ASSERT_TRUE(mem.request(first->at, expected, l, AccessKind::kRmw, 5).has_value());
    const auto second = mem.head(l);
    ASSERT_TRUE(second.has_value());
    EXPECT_EQ(second->cpu, other);
    ASSERT_TRUE(mem.request(second->at, other, l, AccessKind::kRmw, 6).has_value());
    EXPECT_EQ(mem.waiting(), 0u);
    mem.check_all();
  }
}

// A CPU may wait on two lines at once (its thread's access and its store buffer's oldest store),
// and requests reach a home at equal times: each request asked again is found in its own line's
// queue (by its arrival and CPU), and only the one the home takes next goes.
TEST(Queueing, ACpuWaitingOnTwoLinesIsFoundInEachQueue) {
  auto spec = testing::chain(1, ProtocolKind::kDirectory);
  spec.cores_per_socket = 4;
  Machine m(spec);
  MemorySystem mem(m, true);
  const LineId a = mem.add_line(0), b = mem.add_line(0);
  const Picos t0 = from_ns(1000);
  Picos taken = 0;
  for (const auto& [cpu, line] : {std::pair{1u, a}, std::pair{3u, b}}) {
    EXPECT_FALSE(mem.request(t0, cpu, line, AccessKind::kRmw, 1).has_value());
    taken = next_waiting(mem, line, cpu).at;
    ASSERT_TRUE(mem.request(taken, cpu, line, AccessKind::kRmw, 1).has_value());
  }
  // CPUs 0 and 2 ask for `a` at the same time (equal arrivals); CPU 0 also for `b`.
  EXPECT_FALSE(mem.request(taken + from_ns(1), 2, a, AccessKind::kRmw, 2).has_value());
  EXPECT_FALSE(mem.request(taken + from_ns(1), 0, a, AccessKind::kRmw, 3).has_value());
  EXPECT_FALSE(mem.request(taken + from_ns(1), 0, b, AccessKind::kStore, 4).has_value());
  EXPECT_EQ(mem.waiting(), 3u);
  ASSERT_TRUE(mem.request(next_waiting(mem, b, 0).at, 0, b, AccessKind::kStore, 4).has_value());
  // Equal arrivals and issues: either may be first (QueueTies), the other waits for it.
  const auto first = mem.head(a);
  ASSERT_TRUE(first.has_value());
  const machine::CpuId later = first->cpu == 0 ? 2 : 0;
  const auto value = [](machine::CpuId cpu) -> std::uint64_t { return cpu == 0 ? 3 : 2; };
  EXPECT_FALSE(mem.request(first->at, later, a, AccessKind::kRmw, value(later)).has_value());  // not its turn
  ASSERT_TRUE(mem.request(first->at, first->cpu, a, AccessKind::kRmw, value(first->cpu)).has_value());
  ASSERT_TRUE(mem.request(next_waiting(mem, a, later).at, later, a, AccessKind::kRmw, value(later)).has_value());
  EXPECT_EQ(mem.waiting(), 0u);
  mem.check_all();
}

TEST(Prefetch, ALaterLoadPaysOnlyWhatRemainsOfThePrefetch) {
  Machine m(testing::two_socket(ProtocolKind::kMoesiBroadcast, Inclusion::kVictim));
  MemorySystem mem(m, true);
  LineId l = mem.add_line(0);
  auto p = mem.access(0, 0, l, AccessKind::kPrefetch);
  EXPECT_EQ(p.done, from_ns(60));
  auto r = mem.access(from_ns(40), 0, l, AccessKind::kLoad);
  EXPECT_EQ(r.done, from_ns(60 + 1));
  auto late = mem.access(from_ns(500), 0, l, AccessKind::kLoad);
  EXPECT_EQ(late.done, from_ns(501));
}

TEST(Smt, ASiblingThreadHitsInTheSharedL1) {
  Machine m(testing::two_socket(ProtocolKind::kMesifInclusive, Inclusion::kInclusive, 2, 2));
  MemorySystem mem(m, true);
  LineId l = mem.add_line(0);
  mem.access(0, 0, l, AccessKind::kStore, 4);
  auto r = mem.access(from_ns(100), 1, l, AccessKind::kLoad);
  EXPECT_EQ(r.served, ServedBy::kPrivate);
  EXPECT_EQ(r.done - from_ns(100), from_ns(1));
  EXPECT_EQ(r.value, 4u);
}

TEST(FirstTouch, ALineWithoutAHomeIsHomedOnTheFirstToucher) {
  Machine m(testing::two_socket(ProtocolKind::kMoesiBroadcast, Inclusion::kVictim));
  MemorySystem mem(m, true);
  LineId l = mem.add_line();
  mem.access(0, 3, l, AccessKind::kLoad);
  EXPECT_EQ(mem.line(l).home, 1u);
}

}  // namespace
}  // namespace walksim::coherence

namespace walksim::coherence {
namespace {

TEST(Bandwidth, DataCrossingABusyLinkWaitsForTheDataAheadOfIt) {
  auto spec = testing::two_socket(ProtocolKind::kMoesiBroadcast, Inclusion::kVictim, 2);
  spec.topology.model_bandwidth = true;
  spec.topology.links[0].bandwidth_bytes_per_s = 64e9 / 100;  // 100 ns to pass one 64-byte line
  Machine m(spec);
  MemorySystem mem(m, true);
  LineId a = mem.add_line(1), b = mem.add_line(1);
  // Both lines' data leave node 1 for node 0 at the same moment: the second queues behind the first.
  const Picos first = latency_of(mem, 0, 0, a, AccessKind::kLoad);
  const Picos second = latency_of(mem, 0, 1, b, AccessKind::kLoad);
  EXPECT_EQ(second - first, from_ns(100));
}

TEST(Bandwidth, WithoutBandwidthModellingSimultaneousTransfersDoNotInterfere) {
  auto spec = testing::two_socket(ProtocolKind::kMoesiBroadcast, Inclusion::kVictim, 2);
  spec.topology.links[0].bandwidth_bytes_per_s = 64e9 / 100;
  Machine m(spec);
  MemorySystem mem(m, true);
  LineId a = mem.add_line(1), b = mem.add_line(1);
  EXPECT_EQ(latency_of(mem, 0, 0, a, AccessKind::kLoad), latency_of(mem, 0, 1, b, AccessKind::kLoad));
}

}  // namespace
}  // namespace walksim::coherence

namespace walksim::coherence {
namespace {

// A directory that records sharers invalidates the nodes holding the line; an owner-only probe
// filter (HT Assist) does not know them and invalidates every node. Chain n0-n1-n2-n3, 20 ns per
// link, home n0; cores 1 and 2 share the line; core 0 writes it: tracked = the farthest sharer
// (n2): L2 4 + directory 7 + 40 + probe 5 + 40 = 96 ns; owner-only = the farthest node (n3):
// 4 + 7 + 60 + 5 + 60 = 136 ns.
TEST(Directory, AnOwnerOnlyProbeFilterInvalidatesEveryNodeOnAWriteToASharedLine) {
  for (const bool tracked : {true, false}) {
    auto spec = testing::chain(4, ProtocolKind::kDirectory);
    spec.directory_tracks_sharers = tracked;
    Machine m(spec);
    MemorySystem mem(m, true);
    const LineId l = mem.add_line(0);
    mem.access(0, 1, l, AccessKind::kLoad);
    mem.access(from_ns(1000), 2, l, AccessKind::kLoad);
    const auto r = mem.access(from_ns(2000), 0, l, AccessKind::kStore, 1);
    EXPECT_EQ(r.done - from_ns(2000), from_ns(tracked ? 96 : 136)) << (tracked ? "tracked" : "owner-only");
  }
}

}  // namespace
}  // namespace walksim::coherence

namespace walksim::coherence {
namespace {

// A victim L3 with shadow tags (Zen) finds a sibling core's copy on chip; without them (K10 under
// HT Assist) the miss goes to the home, whose probe finds the sibling: with the home on the other
// socket that adds the trip there and back (2 x 20 ns) and the directory lookup (7 ns).
TEST(Directory, WithoutShadowTagsASiblingsCopyIsFoundThroughTheHome) {
  Picos cost[2];
  for (const bool shadow : {true, false}) {
    auto spec = testing::two_socket(ProtocolKind::kDirectory, Inclusion::kVictim, 2);
    spec.victim_shadow_tags = shadow;
    Machine m(spec);
    MemorySystem mem(m, true);
    const LineId l = mem.add_line(1);
    mem.access(0, 1, l, AccessKind::kStore, 1);
    cost[shadow] = mem.access(from_ns(1000), 0, l, AccessKind::kLoad).done - from_ns(1000);
  }
  EXPECT_EQ(cost[false] - cost[true], from_ns(47));
}

}  // namespace
}  // namespace walksim::coherence

namespace walksim::coherence {
namespace {

// A machine and its memory system with the invariant checks on, for the directory tests below.
struct Checked {
  explicit Checked(machine::MachineSpec spec) : m(std::move(spec)), mem(m, true) {}
  Machine m;
  MemorySystem mem;
};

// HT Assist's directory records owners, not sharers: a store to a line that another core of the
// requester's own die shares (the writer kept it Owned, MOESI) still goes to every node and waits
// for the other socket's answer, 20 ns there and 20 back (SSYNC Table 2: a store to a Shared line
// costs 246 cycles with the holder on the same die, against 83 for a Modified one). A directory
// that tracks sharers invalidates the sibling only.
TEST(Directory, AnOwnerOnlyProbeFilterBroadcastsAWriteToALineSharedOnlyOnTheWritersOwnDie) {
  Picos cost[2];
  for (const bool tracked : {true, false}) {
    auto spec = testing::two_socket(ProtocolKind::kDirectory, Inclusion::kVictim, 2);
    spec.directory_tracks_sharers = tracked;
    Checked c(spec);
    MemorySystem& mem = c.mem;
    const LineId l = mem.add_line(0);
    mem.access(0, 1, l, AccessKind::kStore, 1);
    mem.access(from_ns(1000), 0, l, AccessKind::kLoad);
    cost[tracked] = mem.access(from_ns(2000), 0, l, AccessKind::kStore, 2).done - from_ns(2000);
    mem.check_all();
  }
  EXPECT_EQ(cost[false] - cost[true], from_ns(40));
}

// The owner-only directory is MOESI's: a read of a Modified line leaves the writer Owned (it keeps
// the dirty data and answers later reads); a sharer-tracking directory writes the data back.
TEST(Directory, AnOwnerOnlyProbeFilterKeepsTheWriterAsOwnerOfADirtySharedLine) {
  for (const bool tracked : {true, false}) {
    auto spec = testing::two_socket(ProtocolKind::kDirectory, Inclusion::kVictim, 2);
    spec.directory_tracks_sharers = tracked;
    Checked c(spec);
    MemorySystem& mem = c.mem;
    const LineId l = mem.add_line(0);
    mem.access(0, 2, l, AccessKind::kStore, 7);
    EXPECT_EQ(mem.access(from_ns(1000), 0, l, AccessKind::kLoad).value, 7u);
    const LineState& s = mem.line(l);
    if (tracked) {
      EXPECT_EQ(s.owner, kNone);
      EXPECT_EQ(s.dirty_domain, kNone);
    } else {
      EXPECT_EQ(s.owner, 2);
      EXPECT_EQ(s.owner_state, OwnerState::kOwned);
    }
    EXPECT_EQ(mem.access(from_ns(2000), 1, l, AccessKind::kLoad).value, 7u);
    mem.check_all();
  }
}

// A busy-on-forward home (SGI Origin/SHub: Laudon and Lenoski, ISCA 1997) answers reads of a Shared
// line from memory one after the other at its own pace, not one per completed transaction. Chain
// n0-n1-n2-n3, home n0; cores 1 and 2 share the line; at 2000 ns core 3 (3 hops) and then core 0
// (on the home node) read it. Core 3: L2 4 + 60 + DRAM 50 + 60 = 174 ns. Core 0 is taken when the
// home is free: blocking, after core 3's completion is back (2174 + 64), then 50 ns of DRAM; busy-
// on-forward, once the home has done core 3's part (2064 + 50), then 50 ns.
TEST(Directory, ABusyOnForwardHomeAnswersReadsOfASharedLineAtItsOwnPace) {
  for (const auto policy : {machine::HomePolicy::kBlocking, machine::HomePolicy::kBusyOnForward}) {
    auto spec = testing::chain(4, ProtocolKind::kDirectory);
    spec.home_policy = policy;
    Checked c(spec);
    MemorySystem& mem = c.mem;
    const LineId l = mem.add_line(0);
    mem.access(0, 1, l, AccessKind::kLoad);
    mem.access(from_ns(1000), 2, l, AccessKind::kLoad);
    EXPECT_EQ(mem.access(from_ns(2000), 3, l, AccessKind::kLoad).done, from_ns(2174));
    const Picos second = mem.access(from_ns(2000), 0, l, AccessKind::kLoad).done - from_ns(2000);
    EXPECT_EQ(second, from_ns(policy == machine::HomePolicy::kBlocking ? 288 : 164));
    mem.check_all();
  }
}

// A request that reaches a busy-on-forward home while a transaction it forwarded is still open is
// NACKed and sent again, once per round trip, until the busy state has ended. Core 1 owns the line
// (Modified); at 1000 ns core 3 reads it (forwarded to core 1: done 1136, the line busy until the
// completion is back at 1200) and core 2's read arrives at 1044: NACKed, it is retried every 87 ns
// (40 back + 40 again + the 7 ns lookup) and taken at 1218, then 50 ns of DRAM and 40 to core 2.
// A blocking home would have queued it and served it at 1200.
TEST(Directory, ARequestThatFindsTheLineBusyIsNackedAndRetriedUntilTheBusyStateEnds) {
  for (const auto policy : {machine::HomePolicy::kBlocking, machine::HomePolicy::kBusyOnForward}) {
    auto spec = testing::chain(4, ProtocolKind::kDirectory);
    spec.home_policy = policy;
    Checked c(spec);
    MemorySystem& mem = c.mem;
    const LineId l = mem.add_line(0);
    mem.access(0, 1, l, AccessKind::kStore, 5);
    EXPECT_EQ(mem.access(from_ns(1000), 3, l, AccessKind::kLoad).done, from_ns(1136));
    const auto r = mem.access(from_ns(1000), 2, l, AccessKind::kLoad);
    EXPECT_EQ(r.value, 5u);
    EXPECT_EQ(r.done, from_ns(policy == machine::HomePolicy::kBlocking ? 1290 : 1308));
    mem.check_all();
  }
}

}  // namespace
}  // namespace walksim::coherence
