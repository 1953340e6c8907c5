// Contract tests run against every registered primitive: the registry's errors, supports() agreeing
// with what step() accepts, mutual exclusion for every kind that is a lock, and determinism.
#include "models/sync/sync_registry.hpp"

#include <gtest/gtest.h>

#include <string>

#include "models/sync/lock_loop.hpp"
#include "models/sync/sync_test_rig.hpp"
#include "models/sync/ticket_spinlock.hpp"

namespace walksim::sync {
namespace {

using sim::from_ns;
using testing::Rig;

// A primitive built by name on a fresh rig, with a ticket lock for atomic_dec_and_lock.
struct Built {
  explicit Built(std::string_view kind)
      : r(testing::small_machine()), spin(r.mem.add_line(0)), sched(testing::make_scheduler(r, {})) {
    lines = add_sync_lines(r.mem, kind, 0);
    SyncConfig cfg;
    cfg.lines = lines;
    cfg.cpus = r.m.cpus();
    cfg.scheduler = sched.get();
    cfg.callback_cost = from_ns(20);
    cfg.lock = &spin;
    prim = make_sync(kind, cfg);
  }
  Rig r;
  TicketSpinlock spin;
  std::unique_ptr<Scheduler> sched;
  std::vector<LineId> lines;
  std::unique_ptr<SyncPrimitive> prim;
};

TEST(SyncRegistry, AnUnknownKindIsAnErrorThatListsTheValidOnes) {
  try {
    find_sync_kind("spinlock");
    FAIL() << "no error";
  } catch (const std::invalid_argument& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("'spinlock'"), std::string::npos);
    for (const auto& k : sync_kinds()) EXPECT_NE(msg.find(std::string(k.name)), std::string::npos) << k.name;
  }
}

TEST(SyncRegistry, AWrongNumberOfLinesIsRefused) {
  std::vector<LineId> lines = {0};
  SyncConfig cfg;
  cfg.lines = lines;
  cfg.cpus = 8;
  EXPECT_THROW(make_sync("queued", cfg), std::invalid_argument);
  EXPECT_THROW(make_sync("percpu", cfg), std::invalid_argument);
  EXPECT_NO_THROW(make_sync("ticket", cfg));
}

TEST(SyncRegistry, EveryKindAcceptsExactlyTheActionsItSaysItSupports) {
  for (const auto& kind : sync_kinds()) {
    for (std::size_t a = 0; a < kSyncActionCount; ++a) {
      const auto action = static_cast<SyncAction>(a);
      Built b(kind.name);  // fresh, so that a first step's side effects do not matter
      SyncCall call;
      exec::Op op;
      if (b.prim->supports(action)) {
        EXPECT_NO_THROW(b.prim->step(action, 0, call, 0, op)) << kind.name << " " << action_name(action);
      } else {
        EXPECT_THROW(b.prim->step(action, 0, call, 0, op), std::logic_error) << kind.name << " " << action_name(action);
      }
    }
  }
}

std::vector<Picos> run_lock_loops(std::string_view kind, std::uint64_t* count = nullptr) {
  Built b(kind);
  const LineId counter = b.r.mem.add_line(1);
  LockLoopParams p;
  p.think = from_ns(300);
  p.hold = from_ns(100);
  p.iterations = 12;
  p.counter = counter;
  std::vector<std::unique_ptr<LockLoop>> loops;
  for (CpuId c = 0; c < b.r.m.cpus(); ++c) {
    loops.push_back(std::make_unique<LockLoop>(*b.prim, c, p));
    b.r.ex.start(c, *loops.back());
  }
  b.r.ex.run();
  b.r.mem.check_all();
  if (count) *count = b.r.ex.word(counter);
  std::vector<Picos> t;
  for (CpuId c = 0; c < b.r.m.cpus(); ++c) t.push_back(b.r.ex.stats(c).finished);
  return t;
}

TEST(SyncRegistry, EveryKindThatIsALockGivesMutualExclusionUnderContention) {
  int locks = 0;
  for (const auto& kind : sync_kinds()) {
    Built probe(kind.name);
    if (!probe.prim->supports(SyncAction::kAcquire) || !probe.prim->supports(SyncAction::kRelease)) continue;
    ++locks;
    std::uint64_t count = 0;
    run_lock_loops(kind.name, &count);
    EXPECT_EQ(count, 12u * probe.r.m.cpus()) << kind.name;
  }
  EXPECT_GE(locks,
            11);  // ticket, ticket-backoff, decb, tas, ttas, mcs, clh, queued, rwlock, lglock, brlock, mutex, lockref
}

TEST(SyncRegistry, EveryLockRunsTheSameWayTwice) {
  for (const auto& kind : sync_kinds()) {
    Built probe(kind.name);
    if (!probe.prim->supports(SyncAction::kAcquire)) continue;
    EXPECT_EQ(run_lock_loops(kind.name), run_lock_loops(kind.name)) << kind.name;
  }
}

TEST(SyncRegistry, PerCpuLinesAreHomedOnTheirCpusNode) {
  Rig r(testing::small_machine());
  const auto lines = add_sync_lines(r.mem, "queued", 1);
  ASSERT_EQ(lines.size(), 1u + r.m.cpus());
  EXPECT_EQ(r.mem.line(lines[0]).home, 1u);
  for (CpuId c = 0; c < r.m.cpus(); ++c) EXPECT_EQ(r.mem.line(lines[1 + c]).home, r.m.node_of(r.m.core_of(c)));
}

}  // namespace
}  // namespace walksim::sync
