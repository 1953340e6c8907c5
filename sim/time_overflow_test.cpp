// The end of the picosecond clock: an event at a negative time (a sum that wrapped) and a time in
// nanoseconds beyond the clock are reported as bad input (std::runtime_error), not converted.
#include <gtest/gtest.h>

#include <string>

#include "sim/simulation.hpp"
#include "sim/time.hpp"

namespace walksim::sim {
namespace {

class Nothing : public EventHandler {
 public:
  void on_event(std::uint64_t) override {}
};

TEST(TimeOverflow, AnEventAtANegativeTimeIsAnOverflowNotAnInternalError) {
  Simulation sim(1);
  Nothing h;
  try {
    sim.schedule(INT64_MIN + 5, &h, 0);
    ADD_FAILURE() << "an event at a negative time was scheduled";
  } catch (const std::logic_error& e) {
    ADD_FAILURE() << "reported as an internal error: " << e.what();
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("simulated time overflowed"), std::string::npos) << e.what();
  }
}

TEST(TimeOverflow, AnEventInThePastIsStillALogicError) {
  Simulation sim(1);
  Nothing h;
  sim.schedule(100, &h, 0);
  sim.run();
  EXPECT_THROW(sim.schedule(50, &h, 0), std::logic_error);
}

TEST(TimeOverflow, FromNsRefusesTimesBeyondTheClock) {
  EXPECT_EQ(from_ns(1.5), 1500);
  EXPECT_EQ(from_ns(-2), -2000);
  EXPECT_THROW(from_ns(1e300), std::range_error);
  EXPECT_THROW(from_ns(-1e300), std::range_error);
  EXPECT_THROW(from_ns(9.3e15), std::range_error);  // 9.3e18 ps
}

}  // namespace
}  // namespace walksim::sim
