// A plan is reused only while its line's record is unchanged in what the plan reads
// (plan_inputs.hpp): every such field, changed, makes the record a different one; the timing and
// the flags, which the plan does not read, do not.
#include "models/coherence/plan_inputs.hpp"

#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

namespace walksim::coherence {
namespace {

LineState shared_line() {
  LineState s;
  s.home = 3;
  s.owner_state = OwnerState::kForward;
  s.excl_domain = kNone;
  s.dirty_domain = 1;
  s.owner = 5;
  s.holders.insert(5);
  s.holders.insert(70);
  s.llc.insert(2);
  return s;
}

TEST(PlanInputs, ARecordIsTheSameAsWhatWasTakenFromIt) {
  const LineState s = shared_line();
  PlanInputs in;
  EXPECT_FALSE(in.same_as(s));
  in.take(s);
  EXPECT_TRUE(in.same_as(s));
}

TEST(PlanInputs, EveryFieldThePlanReadsMakesTheRecordDifferent) {
  const std::vector<std::pair<std::string, std::function<void(LineState&)>>> changes = {
      {"home", [](LineState& s) { s.home = 4; }},
      {"owner_state", [](LineState& s) { s.owner_state = OwnerState::kOwned; }},
      {"excl_domain", [](LineState& s) { s.excl_domain = 0; }},
      {"dirty_domain", [](LineState& s) { s.dirty_domain = kNone; }},
      {"owner", [](LineState& s) { s.owner = 70; }},
      {"a holder more", [](LineState& s) { s.holders.insert(126); }},
      {"a holder less", [](LineState& s) { s.holders.erase(70); }},
      {"a shared-cache copy more", [](LineState& s) { s.llc.insert(62); }},
      {"a shared-cache copy less", [](LineState& s) { s.llc.erase(2); }},
  };
  for (const auto& [what, change] : changes) {
    LineState s = shared_line();
    PlanInputs in;
    in.take(s);
    change(s);
    EXPECT_FALSE(in.same_as(s)) << what;
  }
}

TEST(PlanInputs, TimingAndFlagsAreNotPartOfIt) {
  LineState s = shared_line();
  PlanInputs in;
  in.take(s);
  s.busy_until = 1000;
  s.home_free = 2000;
  s.grant_free = 3000;
  s.pending_core = 9;
  s.has_waiters = true;
  s.home_busy = true;
  s.home_assigned = true;
  EXPECT_TRUE(in.same_as(s));
}

}  // namespace
}  // namespace walksim::coherence
