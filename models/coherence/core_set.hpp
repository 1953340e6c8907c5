// A fixed-size set of small integers (cores or cache domains) as a bitset sized once per machine.
// Compact for the common case: one 64-bit word covers every core of machines up to 64 cores.
#pragma once

#include <bit>
#include <cstdint>
#include <vector>

namespace walksim::coherence {

class IdSet {
 public:
  IdSet() = default;
  explicit IdSet(std::uint32_t capacity) : words_((capacity + 63) / 64, 0) {}

  bool contains(std::uint32_t i) const { return (words_[i >> 6] >> (i & 63)) & 1u; }
  void insert(std::uint32_t i) { words_[i >> 6] |= std::uint64_t{1} << (i & 63); }
  void erase(std::uint32_t i) { words_[i >> 6] &= ~(std::uint64_t{1} << (i & 63)); }
  void clear() {
    for (auto& w : words_) w = 0;
  }
  bool empty() const {
    for (auto w : words_) {
      if (w) return false;
    }
    return true;
  }
  std::uint32_t size() const {
    std::uint32_t n = 0;
    for (auto w : words_) n += static_cast<std::uint32_t>(std::popcount(w));
    return n;
  }

  // Calls f(i) for every member in increasing order.
  template <class F>
  void for_each(F&& f) const {
    for (std::size_t k = 0; k < words_.size(); ++k) {
      std::uint64_t w = words_[k];
      while (w) {
        const int b = std::countr_zero(w);
        f(static_cast<std::uint32_t>(k * 64 + static_cast<std::size_t>(b)));
        w &= w - 1;
      }
    }
  }

  bool operator==(const IdSet&) const = default;

 private:
  std::vector<std::uint64_t> words_;
};

}  // namespace walksim::coherence
