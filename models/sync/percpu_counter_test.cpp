// Per-CPU counters: an add stays on the CPU's own line and issues no locked op; the sum reads
// every CPU's line.
#include "models/sync/percpu_counter.hpp"

#include <gtest/gtest.h>

#include "models/sync/sync_registry.hpp"
#include "models/sync/sync_test_rig.hpp"

namespace walksim::sync {
namespace {

using testing::Rig;
using testing::Script;
using testing::Step;

TEST(PercpuCounter, AddsStayOnEachCpusOwnLineWithoutRmwsOrTransfers) {
  Rig r(testing::small_machine());
  const auto lines = add_sync_lines(r.mem, "percpu");
  PercpuCounter cnt(lines);
  std::vector<std::unique_ptr<Script>> progs;
  for (CpuId c = 0; c < r.m.cpus(); ++c) {
    std::vector<Step> steps(10, Step::act(cnt, SyncAction::kPercpuAdd, {}, c + 1));
    progs.push_back(std::make_unique<Script>(c, std::move(steps)));
    r.ex.start(c, *progs.back());
  }
  r.ex.run();
  EXPECT_EQ(cnt.stats().rmws, 0u);
  for (CpuId c = 0; c < r.m.cpus(); ++c) {
    const auto& line = r.mem.line(lines[c]);
    EXPECT_EQ(r.mem.line_stats(lines[c]).transfers, 0u);
    EXPECT_EQ(line.holders.size(), 1u);
    EXPECT_TRUE(line.holders.contains(r.m.core_of(c)));
    EXPECT_EQ(line.home, r.m.node_of(r.m.core_of(c)));  // allocated on the CPU's own node
    EXPECT_EQ(r.ex.word(lines[c]), 10u * (c + 1));
  }
}

TEST(PercpuCounter, TheSumLoadsEveryCpusLine) {
  Rig r(testing::small_machine());
  const auto lines = add_sync_lines(r.mem, "percpu");
  PercpuCounter cnt(lines);
  std::vector<std::unique_ptr<Script>> progs;
  for (CpuId c = 0; c < r.m.cpus(); ++c) {
    progs.push_back(std::make_unique<Script>(c, std::vector<Step>{Step::act(cnt, SyncAction::kPercpuAdd, {}, 3)}));
    r.ex.start(c, *progs.back());
  }
  r.ex.run();
  std::uint64_t sum = 0;
  const auto loads_before = cnt.stats().loads;
  Script reader(0, {Step::act(cnt, SyncAction::kRead, [&](std::uint64_t s) { sum = s; })});
  r.ex.start(0, reader, r.ex.stats(0).finished);
  r.ex.run();
  EXPECT_EQ(sum, 3u * r.m.cpus());
  EXPECT_EQ(cnt.stats().loads - loads_before, r.m.cpus());
}

}  // namespace
}  // namespace walksim::sync
