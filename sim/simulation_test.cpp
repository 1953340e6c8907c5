#include "sim/simulation.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

namespace walksim::sim {
namespace {

// Records when it ran, and reschedules itself `hops` more times.
class Recorder : public EventHandler {
 public:
  Recorder(Simulation& sim, std::vector<std::pair<Picos, std::uint64_t>>& log) : sim_(sim), log_(log) {}
  void on_event(std::uint64_t tag) override {
    log_.emplace_back(sim_.now(), tag);
    if (tag > 0) sim_.schedule(sim_.now() + 10, this, tag - 1);
  }

 private:
  Simulation& sim_;
  std::vector<std::pair<Picos, std::uint64_t>>& log_;
};

TEST(Simulation, TheClockAdvancesToEachEventInTurn) {
  Simulation sim(1);
  std::vector<std::pair<Picos, std::uint64_t>> log;
  Recorder r(sim, log);
  sim.schedule(5, &r, 2);
  EXPECT_EQ(sim.run(), 3u);
  ASSERT_EQ(log.size(), 3u);
  EXPECT_EQ(log[0], (std::pair<Picos, std::uint64_t>{5, 2}));
  EXPECT_EQ(log[1], (std::pair<Picos, std::uint64_t>{15, 1}));
  EXPECT_EQ(log[2], (std::pair<Picos, std::uint64_t>{25, 0}));
  EXPECT_EQ(sim.now(), 25);
}

TEST(Simulation, RunStopsBeforeEventsLaterThanTheLimit) {
  Simulation sim(1);
  std::vector<std::pair<Picos, std::uint64_t>> log;
  Recorder r(sim, log);
  sim.schedule(5, &r, 5);
  sim.run(20);
  EXPECT_EQ(log.size(), 2u);
  EXPECT_EQ(sim.next_event_time(), 25);
}

TEST(Simulation, SchedulingInThePastIsRefused) {
  Simulation sim(1);
  std::vector<std::pair<Picos, std::uint64_t>> log;
  Recorder r(sim, log);
  sim.schedule(100, &r, 0);
  sim.run();
  EXPECT_THROW(sim.schedule(50, &r, 0), std::logic_error);
}

// A handler that throws leaves the queue whole: its own event is gone (it ran), the others stay,
// and next_event_time() is theirs. And one that asks while it runs sees the next event, not its own.
class Thrower : public EventHandler {
 public:
  explicit Thrower(Simulation& sim) : sim_(sim) {}
  void on_event(std::uint64_t tag) override {
    seen_next = sim_.next_event_time();
    if (tag == 1) throw std::runtime_error("handler failed");
  }
  Picos seen_next = 0;

 private:
  Simulation& sim_;
};

TEST(Simulation, AHandlerThatThrowsLeavesTheOtherEventsInOrder) {
  Simulation sim(1);
  Thrower t(sim);
  sim.schedule(10, &t, 1);
  sim.schedule(20, &t, 0);
  sim.schedule(30, &t, 0);
  EXPECT_THROW(sim.step(), std::runtime_error);
  EXPECT_EQ(t.seen_next, 20);
  EXPECT_FALSE(sim.idle());
  EXPECT_EQ(sim.next_event_time(), 20);
  EXPECT_TRUE(sim.step());
  EXPECT_EQ(sim.now(), 20);
  EXPECT_EQ(t.seen_next, 30);
  EXPECT_TRUE(sim.step());
  EXPECT_EQ(t.seen_next, kNever);
  EXPECT_TRUE(sim.idle());
  EXPECT_FALSE(sim.step());
}

TEST(Simulation, TwoSimulationsDoNotShareAClock) {
  Simulation a(1), b(2);
  std::vector<std::pair<Picos, std::uint64_t>> la, lb;
  Recorder ra(a, la), rb(b, lb);
  a.schedule(100, &ra, 0);
  b.schedule(7, &rb, 0);
  a.run();
  EXPECT_EQ(a.now(), 100);
  EXPECT_EQ(b.now(), 0);
}

}  // namespace
}  // namespace walksim::sim
