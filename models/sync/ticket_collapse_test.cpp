// The ticket-lock collapse cross-check: the lock microbenchmark (think -> acquire -> hold ->
// release on N cores) simulated on a machine where every coherence transaction costs the same c,
// compared with the Markov model of Boyd-Wickizer et al. (2012) given that c, measured on the
// simulator beforehand and never fitted to the result. And a queued (MCS) lock on the same
// machine, which does not collapse.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <vector>

#include "models/sync/lock_loop.hpp"
#include "models/sync/sync_registry.hpp"
#include "models/sync/sync_test_rig.hpp"
#include "models/sync/ticket_markov.hpp"

namespace walksim::sync {
namespace {

using machine::Inclusion;
using machine::MachineSpec;
using machine::ProtocolKind;
using sim::from_ns;
using testing::Rig;

constexpr std::uint32_t kMaxCores = 32;
constexpr Picos kTransfer = from_ns(50);  // c
constexpr Picos kThink = from_ns(2000);   // a (mean of an exponential)
constexpr Picos kHold = from_ns(100);     // s

// One node, private L1 and L2 only, directory protocol. A read of a line another core modified
// costs L2 miss 4 + directory + probe 10; a read from memory costs 4 + DRAM; a write that must
// invalidate sharers costs the larger of the two. The components are chosen so that all three are
// exactly c, and the topology has one node, so distance plays no part.
MachineSpec uniform_machine(std::uint32_t cores, Picos c) {
  MachineSpec m;
  m.name = "uniform";
  m.clock_hz = 1e9;
  m.line_size = 64;
  m.nodes = 1;
  m.sockets_per_node = 1;
  m.cores_per_socket = cores;
  m.threads_per_core = 1;
  m.caches = {{"L1D", 1, 32 * 1024, 8, from_ns(1), Inclusion::kInclusive},
              {"L2", 1, 256 * 1024, 8, from_ns(4), Inclusion::kNonInclusive}};
  m.protocol = ProtocolKind::kDirectory;
  m.probe_origin = machine::ProbeOrigin::kHome;
  m.costs.probe_lookup = from_ns(10);
  m.costs.directory_lookup = c - from_ns(14);
  m.dram_access = c - from_ns(4);
  return m;
}

// Measures the cost of moving a line between two cores on the machine: a load of a line another
// core modified.
Picos probe_transfer(const MachineSpec& spec) {
  Rig r(spec);
  const LineId l = r.mem.add_line(0);
  r.mem.access(0, 1, l, coherence::AccessKind::kStore, 1);
  const auto read = r.mem.access(from_ns(1000), 0, l, coherence::AccessKind::kLoad);
  return read.done - from_ns(1000);
}

struct LoopResult {
  double throughput = 0;  // acquisitions per second
  Picos mean_think = 0;   // the mean of the think times the loops drew
};

LoopResult run_lock_loop(std::string_view kind, std::uint32_t n) {
  Rig r(uniform_machine(kMaxCores, kTransfer), false);
  const auto lines = add_sync_lines(r.mem, kind, 0);
  SyncConfig cfg;
  cfg.lines = lines;
  cfg.cpus = r.m.cpus();
  auto lock = make_sync(kind, cfg);
  LockLoopParams p;
  p.think = kThink;
  p.hold = kHold;
  // Enough acquisitions for a steady state: 16000 at low N, 200 per core (6400) at 32.
  p.iterations = std::max<std::uint64_t>(200, 16000 / n);
  LockLoopTally tally;
  std::vector<std::unique_ptr<LockLoop>> loops;
  for (CpuId c = 0; c < n; ++c) {
    loops.push_back(std::make_unique<LockLoop>(*lock, c, p, &tally));
    r.ex.start(c, *loops.back());
  }
  r.ex.run();
  const Picos t = r.ex.stats(*tally.first_finished).finished;
  Picos drawn = 0;
  std::uint64_t draws = 0;
  for (const auto& l : loops) {
    drawn += l->think_total();
    draws += l->thinks();
  }
  return {static_cast<double>(tally.at_first_finish) / sim::to_ns(t) * 1e9, drawn / static_cast<Picos>(draws)};
}

TEST(TicketCollapse, EveryTransferOnTheUniformMachineCostsTheSameC) {
  const MachineSpec spec = uniform_machine(4, kTransfer);
  EXPECT_EQ(probe_transfer(spec), kTransfer);
  Rig r(spec);
  const LineId l = r.mem.add_line(0);
  r.mem.access(0, 1, l, coherence::AccessKind::kStore, 1);
  r.mem.access(from_ns(1000), 2, l, coherence::AccessKind::kLoad);                        // from the owner
  const auto mem_read = r.mem.access(from_ns(2000), 3, l, coherence::AccessKind::kLoad);  // clean: from memory
  EXPECT_EQ(mem_read.done - from_ns(2000), kTransfer);
  const auto rmw = r.mem.access(from_ns(3000), 0, l, coherence::AccessKind::kRmw);  // invalidates 2 and 3
  EXPECT_EQ(rmw.done - from_ns(3000), kTransfer);
}

TEST(TicketCollapse, TheSimulatedTicketLockCollapsesAsTheMarkovModelPredictsWithinStatedBounds) {
  const Picos c = probe_transfer(uniform_machine(kMaxCores, kTransfer));
  const double s_ns = sim::to_ns(kHold), c_ns = sim::to_ns(c);
  const std::vector<std::uint32_t> cores = {1, 2, 4, 8, 16, 32};
  std::vector<double> simulated, model;
  std::printf("cores  simulated/s      model/s   sim/model   model with c*k hand-off   sim/that\n");
  for (std::uint32_t n : cores) {
    // The model is given the think time the loops actually drew (an input, not a fit), so the
    // sampling error of the exponential draws does not count against the comparison.
    const LoopResult run = run_lock_loop("ticket", n);
    simulated.push_back(run.throughput);
    model.push_back(solve_ticket_model({n, run.mean_think, kHold, c}).throughput);
    const double full = solve_ticket_model({n, run.mean_think, kHold, 2 * c}).throughput;
    std::printf("%5u %12.4g %12.4g %11.3f %25.4g %10.3f\n", n, simulated.back(), model.back(),
                simulated.back() / model.back(), full, simulated.back() / full);

    // Low N (1, 2, 4): the lock is rarely contended and both reduce to think + hold per
    // acquisition. What separates them is the model's c/2 hand-off even with one core (1.2% of a
    // cycle here), the private-cache hits the simulator adds (a few ns), and the randomness of
    // the arrivals' interleaving (at most a few percent of contended acquisitions at 4 cores):
    // 5% covers these.
    if (n <= 4) {
      EXPECT_NEAR(simulated.back() / model.back(), 1.0, 0.05) << n << " cores";
    }
    // Every N: the same birth-death chain with the simulator's hand-off law. In the simulator
    // the release's store queues behind every waiter's re-read (each re-read is a full
    // transaction at a blocking home), so a hand-off with k cores at the lock costs c * k, not
    // the paper's c * k / 2. That is what SSYNC measured on a real ticket lock (Fig. 3: c * k with
    // c the machine's transfer latency; docs/model.md, "Grants"), not a pessimism of the model.
    // No parameter is fitted: the factor 2 follows from the protocol. 15% allows for the chain's exponential service
    // times (the hold here is fixed), which matter most at the knee of the curve.
    EXPECT_NEAR(simulated.back() / full, 1.0, 0.15) << n << " cores";
  }
  // High N (32): both saturated, k ~ n, so the simulator must fall below the paper's model by the
  // ratio of the two hand-off laws, (s + c n / 2) / (s + c n) = 0.52 here; within 10%. This is
  // the paper's own finding that the real collapse is steeper than the model's.
  const double n32 = 32;
  const double expected_ratio = (s_ns + c_ns * n32 / 2) / (s_ns + c_ns * n32);
  EXPECT_NEAR(simulated.back() / model.back() / expected_ratio, 1.0, 0.10);

  // Shape: both rise, peak at an interior N, and lose at least half their peak by 32 cores.
  const auto sim_peak = std::max_element(simulated.begin(), simulated.end());
  const auto model_peak = std::max_element(model.begin(), model.end());
  EXPECT_GT(sim_peak - simulated.begin(), 0);
  EXPECT_LT(sim_peak - simulated.begin(), static_cast<std::ptrdiff_t>(cores.size()) - 1);
  EXPECT_LT(simulated.back(), 0.5 * *sim_peak);
  EXPECT_LT(model_peak - model.begin(), static_cast<std::ptrdiff_t>(cores.size()) - 1);
  EXPECT_LT(model.back(), 0.5 * *model_peak);
  // The simulator collapses no later than the model does.
  EXPECT_LE(sim_peak - simulated.begin(), model_peak - model.begin());
}

TEST(TicketCollapse, AQueuedLockDoesNotCollapseWhereTheTicketLockDoes) {
  const std::vector<std::uint32_t> cores = {1, 2, 4, 8, 16, 32};
  std::vector<double> queued;
  for (std::uint32_t n : cores) queued.push_back(run_lock_loop("queued", n).throughput);
  // Past saturation a queued hand-off costs a constant number of transfers (the release, the
  // queue head's re-read and set_locked, the next head's grant, an arrival's cmpxchgs), so the
  // throughput stays on a plateau: from 16 to 32 cores, where the ticket lock loses half of it,
  // the queued lock loses less than 5%, and it stays within 15% of its best.
  const double best = *std::max_element(queued.begin(), queued.end());
  EXPECT_GT(queued[5], 0.95 * queued[4]);
  EXPECT_GT(queued[5], 0.85 * best);
  const double ticket16 = run_lock_loop("ticket", 16).throughput;
  const double ticket32 = run_lock_loop("ticket", 32).throughput;
  EXPECT_LT(ticket32, 0.6 * ticket16);
  EXPECT_GT(queued[5], 3.0 * ticket32);
}

}  // namespace
}  // namespace walksim::sync
