// A fixed-size set of small integers (cores or cache domains) as a bitset sized once per machine.
// Up to 64 x Words - 1 members the bits live inside the set itself, so testing a line's holders
// costs no pointer chase to the heap; larger machines (the 1024-core synthetic one) spill to the
// heap. The set is exactly Words words: a line record holds two of them (docs/performance.md,
// "seventh step"), so the spill is marked in the top bit of the last word (never a member inline)
// and the heap block carries its own length.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <stdexcept>

namespace walksim::coherence {

template <std::uint32_t Words>
class BasicIdSet {
  static_assert(Words >= 1);

 public:
  // Members 0 .. kInlineCapacity - 1 fit inside the set.
  static constexpr std::uint32_t kInlineCapacity = 64 * Words - 1;

  BasicIdSet() = default;
  explicit BasicIdSet(std::uint32_t capacity) {
    if (capacity > kInlineCapacity) spill((capacity + 63) / 64);
  }
  BasicIdSet(const BasicIdSet& o) {
    if (o.spilled()) {
      spill(o.nwords());
      std::copy(o.words(), o.words() + o.nwords(), words());
    } else {
      std::copy(o.w_, o.w_ + Words, w_);
    }
  }
  BasicIdSet(BasicIdSet&& o) noexcept {
    std::copy(o.w_, o.w_ + Words, w_);
    std::fill(o.w_, o.w_ + Words, 0);
  }
  BasicIdSet& operator=(const BasicIdSet& o) {
    if (this == &o) return *this;
    if (spilled() == o.spilled() && nwords() == o.nwords()) {
      std::copy(o.words(), o.words() + nwords(), words());  // same storage: no allocation
    } else {
      *this = BasicIdSet(o);
    }
    return *this;
  }
  BasicIdSet& operator=(BasicIdSet&& o) noexcept {
    if (this != &o) {
      release();
      std::copy(o.w_, o.w_ + Words, w_);
      std::fill(o.w_, o.w_ + Words, 0);
    }
    return *this;
  }
  ~BasicIdSet() { release(); }

  bool contains(std::uint32_t i) const { return (words()[i >> 6] >> (i & 63)) & 1u; }
  void insert(std::uint32_t i) { words()[i >> 6] |= std::uint64_t{1} << (i & 63); }
  void erase(std::uint32_t i) { words()[i >> 6] &= ~(std::uint64_t{1} << (i & 63)); }
  void clear() { std::fill(words(), words() + nwords(), 0); }
  bool empty() const {
    const std::uint64_t* w = words();
    const std::uint32_t n = nwords();
    for (std::uint32_t k = 0; k < n; ++k) {
      if (w[k]) return false;
    }
    return true;
  }
  std::uint32_t size() const {
    std::uint32_t n = 0;
    const std::uint64_t* w = words();
    const std::uint32_t words_n = nwords();
    for (std::uint32_t k = 0; k < words_n; ++k) n += static_cast<std::uint32_t>(std::popcount(w[k]));
    return n;
  }
  // Heap bytes beyond the set itself (for the memory-per-line figure).
  std::size_t heap_bytes() const { return spilled() ? (nwords() + 1) * sizeof(std::uint64_t) : 0; }

  // Calls f(i) for every member in increasing order. Each word is read before its members are
  // visited, so f may erase the member it is given.
  template <class F>
  void for_each(F&& f) const {
    const std::uint64_t* words_p = words();
    const std::uint32_t n = nwords();
    for (std::uint32_t k = 0; k < n; ++k) {
      std::uint64_t w = words_p[k];
      while (w) {
        const int b = std::countr_zero(w);
        f(k * 64 + static_cast<std::uint32_t>(b));
        w &= w - 1;
      }
    }
  }

  // Same members (sets of one machine have one capacity, so one storage).
  bool operator==(const BasicIdSet& o) const {
    return nwords() == o.nwords() && std::equal(words(), words() + nwords(), o.words());
  }

 private:
  static constexpr std::uint64_t kSpilled = std::uint64_t{1} << 63;
  bool spilled() const { return (w_[Words - 1] & kSpilled) != 0; }
  // The heap block: its length in words, then the words.
  std::uint64_t* block() const { return reinterpret_cast<std::uint64_t*>(w_[Words - 1] & ~kSpilled); }
  std::uint32_t nwords() const { return spilled() ? static_cast<std::uint32_t>(block()[0]) : Words; }
  std::uint64_t* words() { return spilled() ? block() + 1 : w_; }
  const std::uint64_t* words() const { return spilled() ? block() + 1 : w_; }

  void spill(std::uint32_t n) {
    auto* b = new std::uint64_t[std::size_t{n} + 1]();  // zeroed
    const auto p = reinterpret_cast<std::uint64_t>(b);
    if (p & kSpilled) {  // user-space addresses have the top bit clear on every 64-bit host we build for
      delete[] b;
      throw std::logic_error("heap address with its top bit set: IdSet cannot mark its spill");
    }
    b[0] = n;
    std::fill(w_, w_ + Words, 0);
    w_[Words - 1] = p | kSpilled;
  }
  void release() {
    if (spilled()) delete[] block();
    std::fill(w_, w_ + Words, 0);
  }

  std::uint64_t w_[Words] = {};
};

// A line's holders (cores): 16 bytes, 127 cores inline (every shipped machine but the synthetic
// 1024-core one). A line's shared-cache domains: 8 bytes, 63 domains inline.
using IdSet = BasicIdSet<2>;
using SmallIdSet = BasicIdSet<1>;

}  // namespace walksim::coherence
