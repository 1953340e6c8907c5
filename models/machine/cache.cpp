// LRU by use stamps: small associativities make a linear scan of the set the fastest choice.
#include "models/machine/cache.hpp"

#include <new>
#include <stdexcept>

namespace walksim::machine {

namespace {
template <class T>
T* zeroed(std::uint64_t n) {
  void* p = std::calloc(n, sizeof(T));
  if (!p) throw std::bad_alloc();
  return static_cast<T*>(p);
}
}  // namespace

SetAssocCache::SetAssocCache(std::uint64_t lines, std::uint32_t ways) : ways_(ways) {
  if (ways == 0 || lines == 0 || lines % ways != 0 || lines / ways > UINT32_MAX) {
    throw std::invalid_argument("bad cache geometry");
  }
  sets_ = static_cast<std::uint32_t>(lines / ways);
  pow2_ = (sets_ & (sets_ - 1)) == 0;
  tags_.reset(zeroed<std::uint32_t>(lines));
  stamp_.reset(zeroed<std::uint64_t>(lines));
}

std::optional<LineId> SetAssocCache::insert(LineId line) {
  const std::size_t base = base_of(line);
  const std::uint32_t tag = line + 1;
  std::size_t victim = base;
  for (std::uint32_t w = 0; w < ways_; ++w) {
    const std::size_t i = base + w;
    if (tags_[i] == tag) {
      stamp_[i] = ++clock_;
      return std::nullopt;
    }
    if (tags_[i] == kEmpty) {
      victim = i;
      stamp_[victim] = 0;  // an empty way beats any occupied one
    } else if (tags_[victim] != kEmpty && stamp_[i] < stamp_[victim]) {
      victim = i;
    }
  }
  std::optional<LineId> evicted;
  if (tags_[victim] != kEmpty) evicted = tags_[victim] - 1;
  tags_[victim] = tag;
  stamp_[victim] = ++clock_;
  return evicted;
}

void SetAssocCache::erase(LineId line) {
  const int w = find(line);
  if (w >= 0) tags_[base_of(line) + static_cast<std::size_t>(w)] = kEmpty;
}

}  // namespace walksim::machine
