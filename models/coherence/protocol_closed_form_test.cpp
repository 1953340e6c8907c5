// One closed-form suite over every protocol family (machine::kProtocolFamilies): the same accesses on
// the same hand-checkable two-socket machine (test_machines.hpp: L1 1 ns, L3 10 ns shared per
// socket, link 20 ns, DRAM 50 ns, probe 5 ns, directory 7 ns, on-die snoops 8/12 ns, atomic 3 ns),
// each expected latency written down by hand per family. A new family fails to compile here
// (-Wswitch) until its column is written, so it cannot ship without its closed forms.
//
// Cores 0 and 1 share socket 0 (node 0), cores 2 and 3 socket 1 (node 1). Each family runs on the
// cache it was built for: MOESI with AMD's victim L3 (it cannot see its cores' copies), MESI (MOESI's
// messages without the O state) on the same, MESIF with Intel's inclusive L3, the directory with an
// inclusive L3 and sharers tracked.
#include <gtest/gtest.h>

#include "models/coherence/memory_system.hpp"
#include "models/coherence/test_machines.hpp"

namespace walksim::coherence {
namespace {

using machine::Inclusion;
using machine::ProtocolKind;
using sim::from_ns;

struct ClosedForm : ::testing::TestWithParam<machine::ProtocolFamily> {
  ProtocolKind kind() const { return GetParam().kind; }
  machine::Machine machine() const {
    const bool amd = kind() == ProtocolKind::kMoesiBroadcast || kind() == ProtocolKind::kMesiBroadcast;
    return machine::Machine(testing::two_socket(kind(), amd ? Inclusion::kVictim : Inclusion::kInclusive));
  }
  // Expected latency in ns for MOESI, MESI, MESIF and the directory.
  Picos expect(double moesi, double mesi, double mesif, double directory) const {
    switch (kind()) {
      case ProtocolKind::kMoesiBroadcast:
        return from_ns(moesi);
      case ProtocolKind::kMesiBroadcast:
        return from_ns(mesi);
      case ProtocolKind::kMesifInclusive:
        return from_ns(mesif);
      case ProtocolKind::kDirectory:
        return from_ns(directory);
    }
    return -1;
  }
};

Picos latency(MemorySystem& mem, Picos now, machine::CpuId cpu, LineId line, AccessKind k, std::uint64_t v = 1) {
  return mem.access(now, cpu, line, k, v).done - now;
}

TEST_P(ClosedForm, AnL1HitCostsTheL1Latency) {
  const auto m = machine();
  MemorySystem mem(m, true);
  const LineId l = mem.add_line(0);
  mem.access(0, 0, l, AccessKind::kLoad);
  EXPECT_EQ(latency(mem, from_ns(1000), 0, l, AccessKind::kLoad), from_ns(1));
}

TEST_P(ClosedForm, AnAtomicOnAnOwnModifiedLineCostsTheL1HitPlusTheAtomicOverhead) {
  const auto m = machine();
  MemorySystem mem(m, true);
  const LineId l = mem.add_line(1);
  mem.access(0, 0, l, AccessKind::kStore, 1);
  EXPECT_EQ(latency(mem, from_ns(1000), 0, l, AccessKind::kRmw), from_ns(1 + 3));
}

// Nobody holds the line: the L3 miss, then DRAM at the home. MOESI's probes (20 + 5 + 20 to the
// other socket) and MESIF's source snoop (the same) end before DRAM does; the directory's lookup
// (7) runs alongside DRAM.
TEST_P(ClosedForm, AColdMissHomedLocallyCostsTheL3MissPlusDram) {
  const auto m = machine();
  MemorySystem mem(m, true);
  const LineId l = mem.add_line(0);
  EXPECT_EQ(latency(mem, 0, 0, l, AccessKind::kLoad), expect(10 + 50, 10 + 50, 10 + 50, 10 + 50));
}

TEST_P(ClosedForm, AColdMissHomedRemotelyAddsTheTripToTheHomeAndBack) {
  const auto m = machine();
  MemorySystem mem(m, true);
  const LineId l = mem.add_line(1);
  EXPECT_EQ(latency(mem, 0, 0, l, AccessKind::kLoad),
            expect(10 + 20 + 50 + 20, 10 + 20 + 50 + 20, 10 + 20 + 50 + 20, 10 + 20 + 50 + 20));
}

// The line is Modified on the other socket, homed here. MOESI: the home's probe reaches the owner
// (20 + 5) and its data comes back (20); MESIF: the requester's own snoop does the same; the
// directory first looks the line up (7), then forwards to the owner.
TEST_P(ClosedForm, AStoreToALineModifiedOnTheOtherSocketTakesItFromTheOwner) {
  const auto m = machine();
  MemorySystem mem(m, true);
  const LineId l = mem.add_line(0);
  mem.access(0, 2, l, AccessKind::kStore, 5);
  EXPECT_EQ(latency(mem, from_ns(1000), 0, l, AccessKind::kStore, 6),
            expect(10 + 20 + 5 + 20, 10 + 20 + 5 + 20, 10 + 20 + 5 + 20, 10 + 7 + 20 + 5 + 20));
  EXPECT_EQ(mem.line(l).owner, 0);
  EXPECT_EQ(mem.line(l).holders.size(), 1u);
}

// The line is Modified by the sibling core on the same die. MESIF's inclusive L3 knows and snoops
// it (the dirty on-die snoop, 12); the directory's inclusive L3 likewise, at its probe cost (5);
// MOESI's and MESI's victim L3 does not, so the request goes to the home, whose broadcast must hear
// from the other socket too (max(0 + 5 + 0, 20 + 5 + 20) = 45) before the line is the requester's.
TEST_P(ClosedForm, ALoadOfALineModifiedByTheSiblingCoreIsServedOnTheDieWhereTheL3KnowsOfIt) {
  const auto m = machine();
  MemorySystem mem(m, true);
  const LineId l = mem.add_line(0);
  mem.access(0, 0, l, AccessKind::kStore, 3);
  const auto r = mem.access(from_ns(1000), 1, l, AccessKind::kLoad);
  EXPECT_EQ(r.value, 3u);
  EXPECT_EQ(r.done - from_ns(1000), expect(10 + 45, 10 + 45, 10 + 12, 10 + 5));
}

// Both sockets hold the line Shared; the writer has the data and needs only the other copy
// invalidated. MOESI and MESI: the home's broadcast (45 to the far socket and back); MESIF: the far
// socket's copy is the Forward one, snooped by the requester (20 + 5 + 20); the directory: its
// lookup, then the invalidation from the home and the acknowledgement (7 + 20 + 5 + 20).
TEST_P(ClosedForm, AStoreToALineSharedByBothSocketsInvalidatesTheFarCopy) {
  const auto m = machine();
  MemorySystem mem(m, true);
  const LineId l = mem.add_line(0);
  mem.access(0, 0, l, AccessKind::kLoad);
  mem.access(from_ns(500), 2, l, AccessKind::kLoad);
  EXPECT_EQ(latency(mem, from_ns(1000), 0, l, AccessKind::kStore, 9),
            expect(10 + 45, 10 + 45, 10 + 20 + 5 + 20, 10 + 7 + 20 + 5 + 20));
  EXPECT_EQ(mem.line(l).holders.size(), 1u);
  EXPECT_EQ(mem.line(l).owner, 0);
}

// A line written on the far socket, then read by core 0, then by its sibling core 1. Only MOESI keeps
// the dirty copy (Owned) at the far socket, which answers core 1's read: the home's probes, the
// slowest the far socket's 20 + 5 + 20 = 45. MESI wrote the data back when core 0 read it, so the
// read of a line no cache owns waits for the DRAM read at the home (50, the probes' 45 inside it).
// MESIF's and the directory's inclusive L3 hold core 0's copy, which is clean and shared (Forward,
// or Shared with the far socket), so the L3 answers by itself (10): no core may have written it.
TEST_P(ClosedForm, AReadOfALineADirtyOwnerSharedIsAnsweredByTheOwnerOnlyWithAnOwnedState) {
  const auto m = machine();
  MemorySystem mem(m, true);
  const LineId l = mem.add_line(0);
  mem.access(0, 2, l, AccessKind::kStore, 7);
  mem.access(from_ns(500), 0, l, AccessKind::kLoad);
  const auto r = mem.access(from_ns(1000), 1, l, AccessKind::kLoad);
  EXPECT_EQ(r.value, 7u);
  EXPECT_EQ(r.done - from_ns(1000), expect(10 + 45, 10 + 50, 10, 10));
}

// Two requesters from the far socket at once for a line Modified here: the home grants one, then
// the other (docs/model.md, "Grants"), so the second finishes one whole transfer after the first
// at least, and the line ends with one owner.
TEST_P(ClosedForm, TwoSimultaneousWritersAreServedOneAfterTheOther) {
  const auto m = machine();
  MemorySystem mem(m, true);
  const LineId l = mem.add_line(0);
  mem.access(0, 0, l, AccessKind::kStore, 1);
  const Picos t = from_ns(1000);
  const auto a = mem.access(t, 2, l, AccessKind::kStore, 2);
  const auto b = mem.access(t, 3, l, AccessKind::kStore, 3);
  const Picos first = std::min(a.done, b.done), second = std::max(a.done, b.done);
  EXPECT_GE(second - t, 2 * (first - t) - from_ns(10 + 20)) << "the second waited for the first's transfer";
  EXPECT_EQ(mem.line(l).holders.size(), 1u);
}

INSTANTIATE_TEST_SUITE_P(EveryProtocol, ClosedForm, ::testing::ValuesIn(machine::kProtocolFamilies),
                         [](const ::testing::TestParamInfo<machine::ProtocolFamily>& p) {
                           std::string name;
                           for (const char* c = p.param.name; *c; ++c) {
                             if (*c != '-') name += *c;
                           }
                           return name;
                         });

}  // namespace
}  // namespace walksim::coherence
