// LRU by use stamps: small associativities make a linear scan of the set the fastest choice.
#include "models/machine/cache.hpp"

#include <stdexcept>

namespace walksim::machine {

SetAssocCache::SetAssocCache(std::uint64_t lines, std::uint32_t ways) : ways_(ways) {
  if (ways == 0 || lines == 0 || lines % ways != 0) throw std::invalid_argument("bad cache geometry");
  sets_ = static_cast<std::uint32_t>(lines / ways);
  tags_.assign(lines, kEmpty);
  stamp_.assign(lines, 0);
}

int SetAssocCache::find(LineId line) const {
  const std::size_t base = std::size_t{set_of(line)} * ways_;
  for (std::uint32_t w = 0; w < ways_; ++w) {
    if (tags_[base + w] == line) return static_cast<int>(w);
  }
  return -1;
}

bool SetAssocCache::contains(LineId line) const { return find(line) >= 0; }

bool SetAssocCache::touch(LineId line) {
  const int w = find(line);
  if (w < 0) return false;
  stamp_[std::size_t{set_of(line)} * ways_ + static_cast<std::size_t>(w)] = ++clock_;
  return true;
}

std::optional<LineId> SetAssocCache::insert(LineId line) {
  const std::size_t base = std::size_t{set_of(line)} * ways_;
  std::size_t victim = base;
  for (std::uint32_t w = 0; w < ways_; ++w) {
    const std::size_t i = base + w;
    if (tags_[i] == line) {
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
  if (tags_[victim] != kEmpty) evicted = tags_[victim];
  tags_[victim] = line;
  stamp_[victim] = ++clock_;
  return evicted;
}

void SetAssocCache::erase(LineId line) {
  const int w = find(line);
  if (w >= 0) tags_[std::size_t{set_of(line)} * ways_ + static_cast<std::size_t>(w)] = kEmpty;
}

}  // namespace walksim::machine
