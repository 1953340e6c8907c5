// The cache fills and evictions of MemorySystem, which keep the private and shared cache arrays
// and the line states in agreement (what a core's caches hold is what LineState says they hold).
#include <stdexcept>

#include "models/coherence/memory_system.hpp"

namespace walksim::coherence {

using machine::DomainId;
using machine::Inclusion;

std::size_t MemorySystem::private_hit_outer_level(std::vector<machine::SetAssocCache>& levels, LineId id) {
  for (std::size_t l = 1; l < levels.size(); ++l) {
    if (levels[l].touch(id)) {
      for (std::size_t inner = 0; inner < l; ++inner) levels[inner].insert(id);  // promote; outer still holds it
      return l;
    }
  }
  throw std::logic_error("holder without the line in its caches");
}

void MemorySystem::fill_private(CoreId c, LineId id) {
  LineState& s = lines_[id];
  s.holders.insert(c);
  auto& levels = private_[c];
  const std::size_t outer = levels.size() - 1;
  if (auto victim = levels[outer].insert(id)) evict_private(c, *victim);
  for (std::size_t l = 0; l < outer; ++l) levels[l].insert(id);  // inner evictions stay in the outer level
}

void MemorySystem::fill_llc(DomainId d, LineId id) {
  LineState& s = lines_[id];
  if (s.llc.contains(d)) {
    llc_[d].touch(id);
    return;
  }
  s.llc.insert(d);
  if (auto victim = llc_[d].insert(id)) evict_llc(d, *victim);
}

void MemorySystem::drop_private(CoreId c, LineId id) {
  LineState& s = lines_[id];
  for (auto& level : private_[c]) level.erase(id);
  s.holders.erase(c);
  if (s.owner == static_cast<std::int32_t>(c)) s.owner = kNone;
}

void MemorySystem::evict_private(CoreId c, LineId id) {
  LineState& s = lines_[id];
  const DomainId d = dom(c);
  const bool owner = s.owner == static_cast<std::int32_t>(c);
  const bool dirty = owner && (s.owner_state == OwnerState::kModified || s.owner_state == OwnerState::kOwned);
  const std::uint64_t data = check_ ? copy_value(id, c) : 0;
  for (auto& level : private_[c]) level.erase(id);
  s.holders.erase(c);
  if (owner) s.owner = kNone;
  if (!llc_.empty()) {
    const auto incl = m_.spec().caches[*m_.shared_level()].inclusion;
    // A victim cache takes every line its cores evict; the others keep only what they already hold.
    if (incl == Inclusion::kVictim || (dirty && !s.llc.contains(d))) fill_llc(d, id);
    if (check_ && s.llc.contains(d) && (dirty || incl == Inclusion::kVictim)) llc_value(id, d) = data;
    if (dirty && !s.llc.contains(d)) {  // the fill evicted the line straight away
      if (check_) memory_values_[id] = data;
      if (s.dirty_domain == static_cast<std::int32_t>(d)) s.dirty_domain = kNone;
    }
  } else if (dirty) {
    if (check_) memory_values_[id] = data;
    s.dirty_domain = kNone;
  }
  forget_domain_if_empty(s, d);
}

void MemorySystem::evict_llc(DomainId d, LineId id) {
  LineState& s = lines_[id];
  s.llc.erase(d);
  llc_[d].erase(id);
  const bool dirty_here = s.dirty_domain == static_cast<std::int32_t>(d);
  const auto incl = m_.spec().caches[*m_.shared_level()].inclusion;
  bool core_kept_dirty = false;
  const CoreId first = m_.first_core_of_domain(d);
  for (CoreId k = first; k < first + m_.cores_per_domain(); ++k) {
    if (!s.holders.contains(k)) continue;
    if (incl == Inclusion::kInclusive) {
      drop_private(k, id);  // back-invalidation
    } else if (s.owner == static_cast<std::int32_t>(k) &&
               (s.owner_state == OwnerState::kModified || s.owner_state == OwnerState::kOwned)) {
      core_kept_dirty = true;
    }
  }
  if (dirty_here && !core_kept_dirty) {
    if (check_) memory_values_[id] = latest_values_[id];
    s.dirty_domain = kNone;
  }
  forget_domain_if_empty(s, d);
}

}  // namespace walksim::coherence
