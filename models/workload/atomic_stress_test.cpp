// atomic-stress (SSYNC's atomic stress test): what one operation is for each op, counts rather than
// timings (so that they hold whatever the coherence engine's timing), the derived pause, and its
// parameter errors.
#include <gtest/gtest.h>

#include "models/config/config_error.hpp"
#include "models/workload/bench_rig.hpp"
#include "models/workload/ssync_pause.hpp"

namespace walksim::workload {
namespace {

using testing::BenchRun;

std::unique_ptr<Workload> stress(const std::string& params) { return testing::make(kAtomicStressKind, params); }

RunResult run(const std::string& params, std::uint32_t threads, std::uint64_t ops = 200,
              const std::string& machine = "nehalem-ex-4s32c") {
  auto w = stress(params);
  testing::RunArgs a;
  a.machine = machine;
  a.threads = threads;
  a.control.ops_per_process = ops;
  return testing::run(a, *w);
}

const HotLine& line_of(const RunResult& r) {
  for (const auto& h : r.hot) {
    if (h.object == "atomic-stress line") return h;
  }
  throw std::logic_error("no atomic-stress line among the hot lines");
}

TEST(AtomicStress, ACasBasedFaiCompletesExactlyOneSuccessfulCmpxchgPerOperation) {
  for (std::uint32_t threads : {1u, 4u, 12u}) {
    auto w = stress("op: cas-fai");
    BenchRun run("nehalem-ex-4s32c", *w, threads, 150);
    std::uint64_t ops = 0, rmw = 0;
    for (std::size_t i = 0; i < w->process_count(); ++i) {
      ops += w->source(i).measured().total_ops;
      rmw += run.programs[i]->stats().atomic_rmw;
    }
    EXPECT_EQ(ops, 150u * threads);
    // Every operation added exactly one to the counter, whatever number of attempts it took.
    EXPECT_EQ(run.ex.word(run.line("atomic-stress line")), ops) << threads << " threads";
    EXPECT_GE(rmw, ops);
    if (threads == 1) {
      EXPECT_EQ(rmw, ops);  // alone, no cmpxchg ever fails
    }
  }
}

TEST(AtomicStress, PlainFaiAddsOnePerOperationAndCasAndTasCountEveryAttempt) {
  {
    auto w = stress("op: fai");
    BenchRun run("barcelona-2s8c", *w, 6, 100);
    EXPECT_EQ(run.ex.word(run.line("atomic-stress line")), 600u);
  }
  for (const char* op : {"op: cas", "op: swap", "op: tas"}) {
    const RunResult r = run(op, 8);
    EXPECT_DOUBLE_EQ(r.atomic_rmw_per_op, 1.0) << op;  // one locked RMW per operation, failed or not
  }
  const RunResult tas = run("op: tas", 8);
  EXPECT_LE(tas.stores_per_op, 1.0);  // the store of 0 only after an xchg that took the byte
  EXPECT_GT(tas.stores_per_op, 0.0);
  const RunResult alone = run("op: tas", 1);
  EXPECT_DOUBLE_EQ(alone.stores_per_op, 1.0);  // alone, every xchg takes it
}

// SSYNC's Fig. 4 reading: about one line transfer per completed atomic. The bounds are loose on
// purpose: they hold for any engine in which each operation needs the line once.
TEST(AtomicStress, FaiOnOneLineAtNThreadsMovesTheLineAboutOncePerOperation) {
  for (std::uint32_t threads : {2u, 8u, 32u}) {
    const RunResult r = run("op: fai", threads, 200);
    const auto& h = line_of(r);
    const double ops = 200.0 * threads;
    EXPECT_GE(static_cast<double>(h.transfers), 0.75 * ops) << threads;
    EXPECT_LE(static_cast<double>(h.transfers), 1.05 * ops + threads) << threads;
    EXPECT_DOUBLE_EQ(r.atomic_rmw_per_op, 1.0);
  }
}

TEST(AtomicStress, TheLineIsHomedOnTheFirstParticipatingNode) {
  auto w = stress("op: fai");
  testing::Built b("nehalem-ex-4s32c", "linux-2.6.35");
  const std::vector<CpuId> cpus{b.m.first_cpu_of(8), b.m.first_cpu_of(0)};  // socket 1's core first
  w->build(b.vfs, cpus, b.control, b.rng);
  for (machine::LineId l = 0; l < b.mem.line_count(); ++l) {
    if (b.vfs.label(l).object == "atomic-stress line") {
      EXPECT_EQ(b.mem.line(l).home, b.m.node_of(8));
      return;
    }
  }
  FAIL() << "no atomic-stress line";
}

TEST(AtomicStress, TheDefaultPauseIsZeroAloneAndTheOwnersLongestWindowOtherwise) {
  const machine::Machine m(machine::load_machine("nehalem-ex-4s32c", testing::config_dir("machines")));
  const auto& c = m.spec().costs;
  const Picos lookups = c.directory_lookup + c.probe_lookup + c.onchip_snoop_dirty;
  EXPECT_EQ(ssync_pause(m, {0}), 0);
  EXPECT_EQ(ssync_pause(m, {0, 1}), 0);  // SMT siblings: one core
  const CpuId same_socket = m.first_cpu_of(1), other_socket = m.first_cpu_of(m.spec().cores_per_socket * 3);
  EXPECT_EQ(ssync_pause(m, {0, same_socket}), 2 * m.miss_detect() + lookups);
  const Picos far = m.domain_to_domain(m.domain_of(0), m.domain_of(m.core_of(other_socket)));
  EXPECT_GT(far, 0);
  EXPECT_EQ(ssync_pause(m, {0, same_socket, other_socket}), 2 * (m.miss_detect() + far) + lookups);
  // And that is what a run's operations wait between them: user time = pause x operations.
  const RunResult r = run("op: fai", 2, 100);
  EXPECT_EQ(r.user, 2 * 100 * ssync_pause(m, {0, m.first_cpu_of(1)}));
  EXPECT_EQ(run("op: fai\npause: 300ns", 2, 100).user, 2 * 100 * sim::from_ns(300));
}

// What the default pause is for: with it, no thread does two operations in a row from its own cache
// while others wait, on every shipped machine, inside one cache domain and across the machine.
TEST(AtomicStress, WithTheDefaultPauseEveryOperationTakesTheLineFromAnotherCore) {
  for (const char* name : {"opteron-6172-4p", "nehalem-ex-4s32c", "barcelona-2s8c", "altix-32n64c", "epyc-zen4-2s"}) {
    const machine::Machine m(machine::load_machine(name, testing::config_dir("machines")));
    for (std::uint32_t threads : {m.cores_per_domain(), m.cores()}) {
      if (threads < 2) continue;
      auto w = stress("op: fai");
      testing::RunArgs a;
      a.machine = name;
      a.threads = threads;
      a.control.ops_per_process = 150;
      const RunResult r = testing::run(a, *w);
      const double per_op = static_cast<double>(line_of(r).transfers) / (150.0 * threads);
      EXPECT_GE(per_op, 0.9) << name << " x" << threads;
    }
  }
}

TEST(AtomicStress, BadParametersAreErrorsAtTheirKey) {
  const auto error = [](const std::string& yaml) -> config::ConfigError {
    try {
      stress(yaml);
    } catch (const config::ConfigError& e) {
      return e;
    }
    ADD_FAILURE() << "accepted " << yaml;
    return config::ConfigError({}, "", "");
  };
  auto e = error("op: faa");
  EXPECT_EQ(e.key_path(), "op");
  EXPECT_NE(e.message().find("'fai', 'cas', 'swap', 'tas', 'cas-fai'"), std::string::npos) << e.what();
  e = error("pause: soon");
  EXPECT_EQ(e.key_path(), "pause");
  EXPECT_NE(e.message().find("or 'auto'"), std::string::npos) << e.what();
  e = error("pause: 2s");
  EXPECT_EQ(e.key_path(), "pause");
  EXPECT_NE(e.message().find("above the limit of 1s"), std::string::npos) << e.what();
  e = error("opp: fai");
  EXPECT_NE(e.message().find("did you mean 'op'"), std::string::npos) << e.what();
}

}  // namespace
}  // namespace walksim::workload
