// Placement: `compact` fills the machine in CPU order, so each socket — and each cache domain, a
// die of the Opteron 6172 or a CCD of the EPYC — is full before the next one gets a thread, as the
// SSYNC study placed its threads; `cores-first` takes one thread per core before any SMT sibling;
// a list ({cpus: [...]}) puts each thread on the CPU the experiment names.
#include <gtest/gtest.h>

#include <filesystem>
#include <set>

#include "models/workload/test_support.hpp"
#include "models/workload/workload_registry.hpp"

namespace walksim::workload {
namespace {

std::vector<std::string> shipped_machines() {
  std::vector<std::string> names;
  for (const auto& f : std::filesystem::directory_iterator(testing::config_dir("machines").front())) {
    if (f.path().extension() == ".yaml") names.push_back(f.path().stem().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

// Whether every group a prefix of `cpus` touches, but the last one it touched, is full.
template <typename GroupOf>
bool fills_in_order(const std::vector<CpuId>& cpus, std::uint32_t per_group, GroupOf group_of) {
  std::vector<std::uint32_t> seen;  // groups in the order first used
  std::map<std::uint32_t, std::uint32_t> count;
  for (CpuId c : cpus) {
    const std::uint32_t g = group_of(c);
    if (count[g]++ == 0) {
      if (!seen.empty() && count[seen.back()] != per_group) return false;  // moved on before it was full
      seen.push_back(g);
    }
    if (seen.back() != g) return false;  // went back to an earlier group
  }
  return std::is_sorted(seen.begin(), seen.end());
}

TEST(Placement, CompactFillsEachSocketAndEachCacheDomainBeforeTheNextOnEveryShippedMachine) {
  for (const auto& name : shipped_machines()) {
    SCOPED_TRACE(name);
    const machine::Machine m(machine::load_machine(name, testing::config_dir("machines")));
    const std::uint32_t per_socket = m.spec().cores_per_socket * m.spec().threads_per_core;
    const std::uint32_t per_domain = m.cores_per_domain() * m.spec().threads_per_core;
    for (std::uint32_t n = 1; n <= m.cpus(); n = n < 8 ? n + 1 : n * 2) {
      const auto cpus = place(m, n, Placement::kCompact);
      ASSERT_EQ(cpus.size(), n);
      EXPECT_TRUE(fills_in_order(cpus, per_socket, [&](CpuId c) { return m.socket_of(m.core_of(c)); })) << n;
      EXPECT_TRUE(fills_in_order(cpus, per_domain, [&](CpuId c) { return m.domain_of(m.core_of(c)); })) << n;
    }
  }
}

TEST(Placement, CoresFirstUsesEveryCoreOnceBeforeAnySmtSibling) {
  const machine::Machine m(machine::load_machine("nehalem-ex-4s32c", testing::config_dir("machines")));
  const auto cpus = place(m, m.cores() + 1, Placement::kCoresFirst);
  std::set<machine::CoreId> cores;
  for (std::size_t i = 0; i < m.cores(); ++i) cores.insert(m.core_of(cpus[i]));
  EXPECT_EQ(cores.size(), m.cores());
  EXPECT_EQ(m.core_of(cpus.back()), 0u);  // then the first core's sibling
  // Compact on the same machine puts the siblings together.
  const auto compact = place(m, 2, Placement::kCompact);
  EXPECT_EQ(m.core_of(compact[0]), m.core_of(compact[1]));
}

// An experiment's own CPUs (placement: {cpus: [...]}): thread i on the i-th, a count below the
// list's length takes its head, and a list that does not fit the machine is refused.
TEST(Placement, AListPutsThreadIOnTheIthCpuNamed) {
  const machine::Machine m(machine::load_machine("opteron-6172-4p", testing::config_dir("machines")));
  EXPECT_EQ(place(m, 3, Placement::kList, {18, 0, 6}), (std::vector<CpuId>{18, 0, 6}));
  EXPECT_EQ(place(m, 2, Placement::kList, {18, 0, 6}), (std::vector<CpuId>{18, 0}));
  EXPECT_THROW(place(m, 3, Placement::kList, {18, 0}), std::invalid_argument);
  EXPECT_THROW(place(m, 2, Placement::kList, {0, 48}), std::invalid_argument);
  EXPECT_THROW(place(m, 2, Placement::kList, {6, 6}), std::invalid_argument);
}

// The CPUs a run is given are the ones it runs on: two threads passing a TAS lock back and forth
// (uncontended: a long pause between acquisitions) pay a transfer of the lock's line per
// acquisition whose cost grows with the distance between their CPUs, die < other die of the
// package < one HT hop < two hops on the Opteron 6172 (SSYNC Fig. 6's order).
TEST(Placement, ALockPassedBetweenTwoListedCpusCostsMoreTheFurtherApartTheyAre) {
  double last = 0;
  for (const CpuId other : {1u, 6u, 12u, 18u}) {
    auto w = testing::make(kLockLoopKind, "lock: tas\nthink_time: 3us\nhold_time: 0ns");
    testing::RunArgs a;
    a.machine = "opteron-6172-4p";
    a.threads = 2;
    a.cpus = {0, other};
    a.control.ops_per_process = 60;
    a.control.warmup_ops = 10;
    const RunResult r = testing::run(a, *w);
    EXPECT_EQ(r.cpus, (std::vector<CpuId>{0, other}));
    EXPECT_GT(r.call_ns_per_op, last * 1.03) << "CPU " << other;
    last = r.call_ns_per_op;
  }
}

}  // namespace
}  // namespace walksim::workload
