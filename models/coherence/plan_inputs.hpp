// What a miss's plan (MemorySystem::plan) reads of its line's record, kept beside a plan made
// from it: a plan made again from an equal record is the same plan. A queued request is planned
// when it is issued, when head() names it and when it is granted, and its line seldom changes in
// between (docs/performance.md, "Twenty-second step").
#pragma once

#include <cstdint>

#include "models/coherence/core_set.hpp"
#include "models/coherence/line_state.hpp"

namespace walksim::coherence {

struct PlanInputs {
  // The record's coherence state: everything but its timing (busy_until, home_free, grant_free,
  // pending_core) and its flags, which the plan does not read.
  std::uint16_t home = 0;
  OwnerState owner_state = OwnerState::kExclusive;
  std::int16_t excl_domain = kNone;
  std::int16_t dirty_domain = kNone;
  std::int32_t owner = kNone;
  IdSet holders;
  SmallIdSet llc;

  bool same_as(const LineState& s) const {
    return owner == s.owner && owner_state == s.owner_state && excl_domain == s.excl_domain &&
           dirty_domain == s.dirty_domain && home == s.home && holders == s.holders && llc == s.llc;
  }
  void take(const LineState& s) {
    home = s.home;
    owner_state = s.owner_state;
    excl_domain = s.excl_domain;
    dirty_domain = s.dirty_domain;
    owner = s.owner;
    holders = s.holders;
    llc = s.llc;
  }
};

}  // namespace walksim::coherence
