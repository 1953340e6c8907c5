// A set-associative cache of line ids with true LRU replacement. It tracks presence only: the
// coherence model owns the line states and decides what an eviction means.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

namespace walksim::machine {

using LineId = std::uint32_t;

class SetAssocCache {
 public:
  SetAssocCache(std::uint64_t lines, std::uint32_t ways);

  // True if present; a hit makes the line most recently used.
  bool touch(LineId line);
  bool contains(LineId line) const;
  // Inserts (or refreshes) the line as most recently used; returns the evicted line, if any.
  std::optional<LineId> insert(LineId line);
  void erase(LineId line);

  std::uint32_t sets() const { return sets_; }
  std::uint32_t ways() const { return ways_; }

 private:
  static constexpr LineId kEmpty = UINT32_MAX;
  std::uint32_t set_of(LineId line) const { return line % sets_; }
  // Index of the line's way within its set, or -1.
  int find(LineId line) const;

  std::uint32_t sets_;
  std::uint32_t ways_;
  std::vector<LineId> tags_;           // sets_ * ways_
  std::vector<std::uint64_t> stamp_;   // last use, for LRU
  std::uint64_t clock_ = 0;
};

}  // namespace walksim::machine
