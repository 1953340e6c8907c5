// The invariant checker: single writer or many readers, the global line state agrees with what
// the cache arrays hold, and (with value tracking) every valid copy holds the newest data.
#include <sstream>
#include <stdexcept>

#include "models/coherence/memory_system.hpp"

namespace walksim::coherence {

namespace {
[[noreturn]] void fail(LineId id, const std::string& what) {
  std::ostringstream os;
  os << "coherence invariant broken on line " << id << ": " << what;
  throw std::logic_error(os.str());
}
}  // namespace

void MemorySystem::check_line(LineId id) const {
  const LineState& s = lines_[id];
  const std::size_t outer = private_levels_ - 1;
  for (CoreId k = 0; k < m_.cores(); ++k) {
    const bool cached = private_[k][outer].contains(id);
    if (cached != s.holders.contains(k)) fail(id, "core " + std::to_string(k) + " presence disagrees with the cache");
    for (std::size_t l = 0; l < outer; ++l) {
      if (private_[k][l].contains(id) && !cached) fail(id, "inner level holds a line the outer private level lost");
    }
  }
  for (DomainId d = 0; d < llc_.size(); ++d) {
    if (llc_[d].contains(id) != s.llc.contains(d))
      fail(id, "domain " + std::to_string(d) + " shared-cache presence disagrees");
  }
  if (s.owner >= 0) {
    const CoreId o = static_cast<CoreId>(s.owner);
    if (!s.holders.contains(o)) fail(id, "owner holds no copy");
    if (s.owner_state == OwnerState::kExclusive || s.owner_state == OwnerState::kModified) {
      if (s.holders.size() != 1) fail(id, "an exclusive owner shares the line (single-writer broken)");
      if (s.excl_domain != static_cast<std::int32_t>(dom(o))) fail(id, "exclusive owner outside the exclusive domain");
    }
  }
  if (s.excl_domain >= 0) {
    const auto ed = static_cast<DomainId>(s.excl_domain);
    s.holders.for_each([&](std::uint32_t k) {
      if (dom(k) != ed) fail(id, "a copy outside the domain with write permission");
    });
    s.llc.for_each([&](std::uint32_t x) {
      if (x != ed) fail(id, "a shared-cache copy outside the domain with write permission");
    });
  }
  if (s.dirty_domain >= 0) {
    if (!domain_holds(s, static_cast<DomainId>(s.dirty_domain))) fail(id, "dirty data lost: its domain holds no copy");
    if (s.excl_domain >= 0 && s.excl_domain != s.dirty_domain) fail(id, "dirty domain differs from exclusive domain");
  }
  if (!llc_.empty() && m_.spec().caches[*m_.shared_level()].inclusion == machine::Inclusion::kInclusive) {
    s.holders.for_each([&](std::uint32_t k) {
      if (!s.llc.contains(dom(k))) fail(id, "inclusive shared cache lacks a line its core holds");
    });
  }
  if (check_) {
    auto& self = const_cast<MemorySystem&>(*this);
    const std::uint64_t latest = latest_values_[id];
    s.holders.for_each([&](std::uint32_t k) {
      if (self.copy_value(id, k) != latest) fail(id, "core " + std::to_string(k) + " holds stale data");
    });
    s.llc.for_each([&](std::uint32_t x) {
      if (self.llc_value(id, x) != latest) fail(id, "shared cache " + std::to_string(x) + " holds stale data");
    });
    if (s.dirty_domain < 0 && memory_values_[id] != latest)
      fail(id, "memory is stale but no cache holds the line dirty");
  }
}

void MemorySystem::check_all() const {
  for (LineId id = 0; id < lines_.size(); ++id) check_line(id);
}

}  // namespace walksim::coherence
