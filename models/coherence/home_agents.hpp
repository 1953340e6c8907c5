// The home agents of a machine's nodes as servers of one transaction at a time, when the machine
// gives `coherence.home_occupancy` (docs/model.md, "Grants"). Without it (occupancy 0) every home
// serves any number of transactions at once and only a line serialises its own.
#pragma once

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <map>
#include <vector>

#include "sim/time.hpp"

namespace walksim::coherence {

using sim::Picos;

class HomeAgents {
 public:
  HomeAgents(std::size_t nodes, Picos occupancy) : occupancy_(occupancy), busy_(occupancy > 0 ? nodes : 0) {}

  bool modelled() const { return occupancy_ > 0; }
  // The earliest time at or after `at` when node `n`'s agent is free for one occupancy: requests
  // are handled in the simulation's order, not in order of their arrival times, so a reservation
  // may fall into a gap before later ones.
  Picos earliest(std::uint32_t n, Picos at) const {
    if (!modelled()) return at;
    const auto& busy = busy_[n];
    Picos t = at;
    auto next = busy.upper_bound(t);  // the first busy span that starts after t
    if (next != busy.begin()) t = std::max(t, std::prev(next)->second);
    // Past the span t fell in, if any; the next span starts at least one occupancy after the end
    // of this one, but maybe not after t + occupancy.
    for (; next != busy.end() && next->first < t + occupancy_; ++next) t = next->second;
    return t;
  }
  // Reserves node `n`'s agent from `start` (a time earliest() gave) for one occupancy.
  void take(std::uint32_t n, Picos start) {
    if (!modelled()) return;
    auto& busy = busy_[n];
    Picos end = start + occupancy_;
    // Reservations less than one occupancy apart are kept as one busy span: no reservation fits
    // in the gap between them (one that did would overlap a neighbour), so the span answers
    // earliest() as they would, and a saturated agent is one span to jump over, not one
    // reservation per transaction to walk through.
    auto next = busy.lower_bound(start);
    if (next != busy.end() && next->first - end < occupancy_) {
      end = next->second;
      next = busy.erase(next);
    }
    if (next != busy.begin() && start - std::prev(next)->second < occupancy_) {
      std::prev(next)->second = end;
    } else {
      busy.emplace_hint(next, start, end);
    }
    // Spans that ended far behind the newest reservation are not asked about: a request reaches
    // its home within microseconds of the simulation's clock. (A saturated agent's booking is one
    // span, kept while it lasts: a set of reservation starts forgot the oldest of a booking more
    // than the horizon long, which a what-if home at 7.5-10 ns with 48 threads reached.)
    while (!busy.empty() && busy.begin()->second + kHorizon < start) busy.erase(busy.begin());
  }

 private:
  static constexpr Picos kHorizon = 1'000'000'000;  // 1 ms
  Picos occupancy_;
  std::vector<std::map<Picos, Picos>> busy_;  // per node: busy spans, start -> end, at least one occupancy apart
};

}  // namespace walksim::coherence
