// LRU by use stamps: small associativities make a linear scan of the set the fastest choice.
#include "models/machine/cache.hpp"

#include <algorithm>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

namespace walksim::machine {

SetAssocCache::SetAssocCache(std::uint64_t lines, std::uint32_t ways) : ways_(ways) {
  if (ways == 0 || lines == 0 || lines % ways != 0 || lines / ways > UINT32_MAX) {
    // The machine loader checks sizes and ways with the file and key; this catches specs built in code.
    throw std::invalid_argument("bad cache geometry: " + std::to_string(lines) + " lines in " + std::to_string(ways) +
                                " ways (need a whole number of sets, at most 2^32)");
  }
  sets_ = static_cast<std::uint32_t>(lines / ways);
  pow2_ = (sets_ & (sets_ - 1)) == 0;
  void* p = std::calloc(lines, sizeof(Way));
  if (!p) throw std::bad_alloc();
  ways_array_.reset(static_cast<Way*>(p));
}

std::optional<LineId> SetAssocCache::insert(LineId line) {
  const std::uint32_t stamp = next_stamp();  // before reading the set: renumbering rewrites stamps
  Way* set = set_of(line);
  const std::uint32_t tag = line + 1;
  std::uint32_t victim = 0;
  for (std::uint32_t w = 0; w < ways_; ++w) {
    if (set[w].tag == tag) {
      set[w].stamp = stamp;
      return std::nullopt;
    }
    if (set[w].tag == kEmpty) {
      victim = w;
      set[victim].stamp = 0;  // an empty way beats any occupied one
    } else if (set[victim].tag != kEmpty && set[w].stamp < set[victim].stamp) {
      victim = w;
    }
  }
  std::optional<LineId> evicted;
  if (set[victim].tag != kEmpty) evicted = set[victim].tag - 1;
  set[victim] = {tag, stamp};
  return evicted;
}

void SetAssocCache::erase(LineId line) {
  const int w = find(line);
  if (w >= 0) set_of(line)[w].tag = kEmpty;
}

void SetAssocCache::renumber() {
  std::vector<std::uint32_t> order(ways_);
  for (std::uint32_t s = 0; s < sets_; ++s) {
    Way* set = ways_array_.get() + std::size_t{s} * ways_;
    for (std::uint32_t w = 0; w < ways_; ++w) order[w] = w;
    std::sort(order.begin(), order.end(),
              [&](std::uint32_t a, std::uint32_t b) { return set[a].stamp < set[b].stamp; });
    for (std::uint32_t r = 0; r < ways_; ++r) set[order[r]].stamp = r + 1;
  }
  clock_ = ways_;
}

}  // namespace walksim::machine
