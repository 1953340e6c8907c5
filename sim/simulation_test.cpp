#include "sim/simulation.hpp"

#include <gtest/gtest.h>

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
