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
    Way* set = set_of(line);
    const std::uint32_t tag = line + 1;
    for (std::uint32_t w = 0; w < ways_; ++w) {
      if (set[w].tag == tag) {
        set[w].stamp = next_stamp();
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
  // Moves the use clock (tests of the stamp renumbering at 2^32 uses).
  void set_clock(std::uint32_t c) { clock_ = c; }
  std::uint32_t ways() const { return ways_; }

 private:
  // A way is its tag and its last-use stamp side by side, so a set is one contiguous run of
  // host memory. Tags are line + 1 so that zeroed memory is an empty cache: the array comes from
  // calloc, and the kernel maps zero pages lazily, so a 64-core machine with megabytes of cache
  // per core costs memory and set-up time only for the sets a run touches.
  struct Way {
    std::uint32_t tag;    // line + 1, or kEmpty
    std::uint32_t stamp;  // last use; only compared within a set
  };
  static constexpr std::uint32_t kEmpty = 0;
  struct Free {
    void operator()(void* p) const { std::free(p); }
  };
  Way* set_of(LineId line) const {
    return ways_array_.get() + std::size_t{pow2_ ? (line & (sets_ - 1)) : (line % sets_)} * ways_;
  }
  // Index of the line's way within its set, or -1.
  int find(LineId line) const {
    const Way* set = set_of(line);
    for (std::uint32_t w = 0; w < ways_; ++w) {
      if (set[w].tag == line + 1) return static_cast<int>(w);
    }
    return -1;
  }
  std::uint32_t next_stamp() {
    if (clock_ == UINT32_MAX) renumber();
    return ++clock_;
  }
  // Stamps are 32 bits: when they run out, each set's stamps are renumbered 1..ways in the same
  // order (LRU only ever compares stamps of one set), and the clock restarts above them.
  void renumber();

  std::uint32_t sets_;
  std::uint32_t ways_;
  bool pow2_;
  std::unique_ptr<Way[], Free> ways_array_;  // sets_ * ways_
  std::uint32_t clock_ = 0;
};

}  // namespace walksim::machine
