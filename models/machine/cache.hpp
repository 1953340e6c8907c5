// A set-associative cache of line ids with true LRU replacement. It tracks presence only: the
// coherence model owns the line states and decides what an eviction means.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <optional>

namespace walksim::machine {

using LineId = std::uint32_t;

class SetAssocCache {
 public:
  SetAssocCache(std::uint64_t lines, std::uint32_t ways);

  // True if present; a hit makes the line most recently used.
  bool touch(LineId line) {
    const std::size_t base = base_of(line);
    const std::uint32_t tag = line + 1;
    for (std::uint32_t w = 0; w < ways_; ++w) {
      if (tags_[base + w] == tag) {
        stamp_[base + w] = ++clock_;
        return true;
      }
    }
    return false;
  }
  bool contains(LineId line) const { return find(line) >= 0; }
  // Inserts (or refreshes) the line as most recently used; returns the evicted line, if any.
  std::optional<LineId> insert(LineId line);
  void erase(LineId line);

  std::uint32_t sets() const { return sets_; }
  std::uint32_t ways() const { return ways_; }

 private:
  // Tags are line + 1 so that an all-zero array is an empty cache: the arrays come from calloc,
  // and the kernel maps zero pages lazily, so a 64-core machine with megabytes of cache per core
  // costs memory and set-up time only for the sets a run touches.
  static constexpr std::uint32_t kEmpty = 0;
  struct Free {
    void operator()(void* p) const { std::free(p); }
  };
  std::size_t base_of(LineId line) const {
    return std::size_t{pow2_ ? (line & (sets_ - 1)) : (line % sets_)} * ways_;
  }
  // Index of the line's way within its set, or -1.
  int find(LineId line) const {
    const std::size_t base = base_of(line);
    for (std::uint32_t w = 0; w < ways_; ++w) {
      if (tags_[base + w] == line + 1) return static_cast<int>(w);
    }
    return -1;
  }

  std::uint32_t sets_;
  std::uint32_t ways_;
  bool pow2_;
  std::unique_ptr<std::uint32_t[], Free> tags_;   // sets_ * ways_, line + 1 or kEmpty
  std::unique_ptr<std::uint64_t[], Free> stamp_;  // last use, for LRU
  std::uint64_t clock_ = 0;
};

}  // namespace walksim::machine
