// What a granted access leaves behind: the line's new states across the caches (the writer alone
// holds it; a reader joins the holders, the supplier keeps or gives up its copy as the protocol
// says) and, with checking on, the values each copy holds.
#include <algorithm>
#include <stdexcept>

#include "models/coherence/memory_system.hpp"

namespace walksim::coherence {

using machine::DomainId;
using machine::Inclusion;

std::uint64_t MemorySystem::source_value(LineId id, CoreId c, std::optional<DomainId> supplier) {
  const LineState& s = lines_[id];
  const DomainId d = dom(c);
  // The requester's own domain first (shared cache or sibling core), then the supplier, then memory.
  const CoreId first = m_.first_core_of_domain(d);
  for (CoreId k = first; k < first + m_.cores_per_domain(); ++k) {
    if (k != c && s.holders.contains(k)) return copy_value(id, k);
  }
  if (!llc_.empty() && s.llc.contains(d)) return llc_value(id, d);
  if (supplier) {
    const CoreId sf = m_.first_core_of_domain(*supplier);
    for (CoreId k = sf; k < sf + m_.cores_per_domain(); ++k) {
      if (s.holders.contains(k)) return copy_value(id, k);
    }
    if (!llc_.empty() && s.llc.contains(*supplier)) return llc_value(id, *supplier);
  }
  return memory_values_[id];
}

void MemorySystem::apply_write(LineId id, CoreId c, std::uint64_t value) {
  LineState& s = lines_[id];
  const DomainId d = dom(c);
  // for_each reads each word of the set before calling back, so erasing the visited member is safe.
  s.holders.for_each([&](std::uint32_t k) {
    if (k != c) drop_private(k, id);
  });
  const bool keep_own_llc = !llc_.empty() && m_.spec().caches[*m_.shared_level()].inclusion == Inclusion::kInclusive;
  s.llc.for_each([&](std::uint32_t x) {
    if (x == d && keep_own_llc) return;
    s.llc.erase(x);
    llc_[x].erase(id);
  });
  s.owner = static_cast<std::int32_t>(c);
  s.owner_state = OwnerState::kModified;
  s.excl_domain = static_cast<std::int16_t>(d);
  s.dirty_domain = static_cast<std::int16_t>(d);
  if (check_) {
    latest_values_[id] = value;
    copy_value(id, c) = value;
    if (keep_own_llc && s.llc.contains(d))
      llc_value(id, d) = value;  // an inclusive copy; never served while a core owns it
  }
}

void MemorySystem::apply_read(LineId id, CoreId c, std::optional<DomainId> supplier) {
  LineState& s = lines_[id];
  const DomainId d = dom(c);
  if (check_) copy_value(id, c) = source_value(id, c, supplier);

  // An exclusive owner elsewhere keeps a shared copy. Its dirty data stays with it on MOESI (it
  // becomes O), moves into its domain's shared cache when the reader is on the same die, or is
  // written back to memory as it is shared.
  if (s.owner >= 0 && static_cast<CoreId>(s.owner) != c &&
      (s.owner_state == OwnerState::kExclusive || s.owner_state == OwnerState::kModified)) {
    const CoreId o = static_cast<CoreId>(s.owner);
    const DomainId od = dom(o);
    if (s.owner_state == OwnerState::kModified && keeps_dirty_sharing_) {
      s.owner_state = OwnerState::kOwned;
    } else {
      if (s.owner_state == OwnerState::kModified) {
        if (od == d && !llc_.empty()) {
          fill_llc(d, id);
          if (check_ && s.llc.contains(d)) llc_value(id, d) = copy_value(id, o);
        }
        if (!(od == d && !llc_.empty() && s.llc.contains(d))) {
          if (check_) memory_values_[id] = latest_values_[id];  // sharing write-back
          s.dirty_domain = kNone;
        }
      }
      s.owner = kNone;
    }
  }
  // Write permission held by another domain ends; so does its responsibility for dirty data,
  // unless the protocol lets it keep answering for memory (MOESI).
  if (s.excl_domain >= 0 && s.excl_domain != static_cast<std::int32_t>(d)) s.excl_domain = kNone;
  if (s.dirty_domain >= 0 && s.dirty_domain != static_cast<std::int32_t>(d) && !keeps_dirty_sharing_) {
    if (check_) memory_values_[id] = latest_values_[id];
    s.dirty_domain = kNone;
  }

  // The requester's own state: exclusive if nobody else has a copy, forwarder on MESIF, else shared.
  fill_private(c, id);
  bool alone = true;
  s.holders.for_each([&](std::uint32_t k) {
    if (k != c) alone = false;
  });
  s.llc.for_each([&](std::uint32_t x) {
    if (x != d) alone = false;
  });
  if (alone && (s.dirty_domain < 0 || s.dirty_domain == static_cast<std::int32_t>(d))) {
    s.owner = static_cast<std::int32_t>(c);
    s.owner_state = OwnerState::kExclusive;
    s.excl_domain = static_cast<std::int16_t>(d);
  } else if (has_forward_state_ && !(s.owner >= 0 && s.owner_state == OwnerState::kOwned)) {
    s.owner = static_cast<std::int32_t>(c);
    s.owner_state = OwnerState::kForward;
  }
  if (!llc_.empty()) {
    const auto incl = m_.spec().caches[*m_.shared_level()].inclusion;
    if (incl == Inclusion::kInclusive || incl == Inclusion::kNonInclusive) {
      fill_llc(d, id);
      if (check_ && s.llc.contains(d)) llc_value(id, d) = copy_value(id, c);
    }
  }
}

}  // namespace walksim::coherence
