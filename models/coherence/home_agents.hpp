// The home agents of a machine's nodes as servers of one transaction at a time, when the machine
// gives `coherence.home_occupancy` (docs/model.md, "Grants"). Without it (occupancy 0) every home
// serves any number of transactions at once and only a line serialises its own.
#pragma once

#include <cstdint>
#include <set>
#include <vector>

#include "sim/time.hpp"

namespace walksim::coherence {

using sim::Picos;

class HomeAgents {
 public:
  HomeAgents(std::size_t nodes, Picos occupancy) : occupancy_(occupancy), taken_(occupancy > 0 ? nodes : 0) {}

  bool modelled() const { return occupancy_ > 0; }
  // The earliest time at or after `at` when node `n`'s agent is free for one occupancy: requests
  // are handled in the simulation's order, not in order of their arrival times, so a reservation
  // may fall into a gap before later ones.
  Picos earliest(std::uint32_t n, Picos at) const {
    if (!modelled()) return at;
    const std::set<Picos>& starts = taken_[n];
    Picos t = at;
    for (auto it = starts.lower_bound(t - occupancy_ + 1); it != starts.end() && *it < t + occupancy_;
         it = starts.lower_bound(t - occupancy_ + 1)) {
      t = *it + occupancy_;
    }
    return t;
  }
  // Reserves node `n`'s agent from `start` (a time earliest() gave) for one occupancy.
  void take(std::uint32_t n, Picos start) {
    if (!modelled()) return;
    std::set<Picos>& starts = taken_[n];
    starts.insert(start);
    // Reservations far behind the newest one can no longer be asked about: a request reaches its
    // home within a few microseconds of the simulation's clock.
    while (!starts.empty() && *starts.begin() + kHorizon < start) starts.erase(starts.begin());
  }

 private:
  static constexpr Picos kHorizon = 1'000'000'000;  // 1 ms
  Picos occupancy_;
  std::vector<std::set<Picos>> taken_;  // per node: the start of each reservation
};

}  // namespace walksim::coherence
