// The randomized coherence tester (after gem5's ruby tester): random loads, stores, atomics and
// prefetches from random CPUs on a few lines through caches small enough to evict constantly.
// Every access checks the invariants (check mode throws), and every load is compared with a
// shadow memory holding the last value stored.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "models/coherence/memory_system.hpp"
#include "models/coherence/test_machines.hpp"
#include "models/machine/machine_loader.hpp"
#include "sim/rng.hpp"

namespace walksim::coherence {
namespace {

using machine::Inclusion;
using machine::MachineSpec;
using machine::ProtocolKind;

void run_random_test(const MachineSpec& spec, std::uint64_t seed, int ops) {
  machine::Machine m(spec);
  MemorySystem mem(m, true);
  const LineId lines = 48;
  for (LineId i = 0; i < lines; ++i) {
    if (i % 3 == 0) {
      mem.add_line();
    } else {
      mem.add_line(i % m.nodes());
    }
  }
  std::vector<std::uint64_t> shadow(lines, 0);
  sim::Rng rng(seed);
  Picos now = 0;
  std::uint64_t next_value = 1;
  for (int i = 0; i < ops; ++i) {
    now += static_cast<Picos>(rng.below(40000));
    const auto cpu = static_cast<machine::CpuId>(rng.below(m.cpus()));
    const auto line = static_cast<LineId>(rng.below(lines));
    const auto pick = rng.below(10);
    AccessKind kind = pick < 5   ? AccessKind::kLoad
                      : pick < 7 ? AccessKind::kStore
                      : pick < 8 ? AccessKind::kRmw
                      : pick < 9 ? AccessKind::kPrefetch
                                 : AccessKind::kPrefetchExclusive;
    const std::uint64_t v = next_value++;
    AccessResult r;
    ASSERT_NO_THROW(r = mem.access(now, cpu, line, kind, v)) << "op " << i;
    ASSERT_GE(r.done, now);
    if (kind == AccessKind::kStore || kind == AccessKind::kRmw) {
      shadow[line] = v;
    } else {
      ASSERT_EQ(r.value, shadow[line]) << "op " << i << " cpu " << cpu << " line " << line;
    }
  }
  ASSERT_NO_THROW(mem.check_all());
}

struct Case {
  std::string name;
  MachineSpec spec;
};

std::vector<Case> cases() {
  return {
      {"moesi_victim", testing::tiny_caches(testing::two_socket(ProtocolKind::kMoesiBroadcast, Inclusion::kVictim, 4))},
      {"moesi_noninclusive",
       testing::tiny_caches(testing::two_socket(ProtocolKind::kMoesiBroadcast, Inclusion::kNonInclusive, 2))},
      {"mesi_victim", testing::tiny_caches(testing::two_socket(ProtocolKind::kMesiBroadcast, Inclusion::kVictim, 4))},
      {"mesif_inclusive_smt",
       testing::tiny_caches(testing::two_socket(ProtocolKind::kMesifInclusive, Inclusion::kInclusive, 4, 2))},
      {"directory_chain", testing::tiny_caches(testing::chain(4, ProtocolKind::kDirectory))},
      {"directory_victim_l3",
       testing::tiny_caches(testing::two_socket(ProtocolKind::kDirectory, Inclusion::kVictim, 3))},
      {"directory_inclusive_l3",
       testing::tiny_caches(testing::two_socket(ProtocolKind::kDirectory, Inclusion::kInclusive, 2, 2))},
  };
}

class RandomTester : public ::testing::TestWithParam<Case> {};

TEST_P(RandomTester, EveryLoadSeesTheLastStoreAndNoInvariantBreaks) {
  for (std::uint64_t seed = 1; seed <= 4; ++seed) run_random_test(GetParam().spec, seed, 20000);
}

INSTANTIATE_TEST_SUITE_P(TestMachines, RandomTester, ::testing::ValuesIn(cases()),
                         [](const auto& param_info) { return param_info.param.name; });

// The same tester on every machine of configs/machines, with its caches shrunk so that the
// random operations evict constantly, and with the real topology, protocol and cache layout.
class RandomTesterOnRealMachines : public ::testing::TestWithParam<std::string> {};

TEST_P(RandomTesterOnRealMachines, EveryLoadSeesTheLastStoreAndNoInvariantBreaks) {
  const std::vector<std::string> dirs{std::string(WALKSIM_SOURCE_DIR) + "/configs/machines"};
  auto spec = testing::tiny_caches(machine::load_machine(GetParam(), dirs));
  spec.topology.model_bandwidth = true;  // exercise link occupancy too
  for (std::uint64_t seed = 1; seed <= 2; ++seed) run_random_test(spec, seed, 20000);
}

INSTANTIATE_TEST_SUITE_P(ConfigMachines, RandomTesterOnRealMachines,
                         ::testing::ValuesIn(machine::list_machines({std::string(WALKSIM_SOURCE_DIR) +
                                                                     "/configs/machines"})),
                         [](const auto& param_info) {
                           std::string n = param_info.param;
                           for (auto& ch : n) {
                             if (ch == '-') ch = '_';
                           }
                           return n;
                         });

}  // namespace
}  // namespace walksim::coherence
