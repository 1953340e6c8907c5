// A fixed-size set of small integers (cores or cache domains) as a bitset sized once per machine.
// Up to 128 members the bits live inside the set itself, so testing a line's holders costs no
// pointer chase to the heap; larger machines (the 1024-core synthetic one) spill to the heap.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <memory>

namespace walksim::coherence {

class IdSet {
 public:
  IdSet() = default;
  explicit IdSet(std::uint32_t capacity) : nwords_((capacity + 63) / 64) {
    if (nwords_ > kInline) heap_ = std::make_unique<std::uint64_t[]>(nwords_);  // zeroed
  }
  IdSet(const IdSet& o) : nwords_(o.nwords_) {
    std::copy(o.inline_, o.inline_ + kInline, inline_);
    if (o.heap_) {
      heap_ = std::make_unique<std::uint64_t[]>(nwords_);
      std::copy(o.heap_.get(), o.heap_.get() + nwords_, heap_.get());
    }
  }
  IdSet(IdSet&&) noexcept = default;
  IdSet& operator=(const IdSet& o) {
    if (this != &o) *this = IdSet(o);
    return *this;
  }
  IdSet& operator=(IdSet&&) noexcept = default;

  bool contains(std::uint32_t i) const { return (words()[i >> 6] >> (i & 63)) & 1u; }
  void insert(std::uint32_t i) { words()[i >> 6] |= std::uint64_t{1} << (i & 63); }
  void erase(std::uint32_t i) { words()[i >> 6] &= ~(std::uint64_t{1} << (i & 63)); }
  void clear() { std::fill(words(), words() + nwords_, 0); }
  bool empty() const {
    const std::uint64_t* w = words();
    for (std::uint32_t k = 0; k < nwords_; ++k) {
      if (w[k]) return false;
    }
    return true;
  }
  std::uint32_t size() const {
    std::uint32_t n = 0;
    const std::uint64_t* w = words();
    for (std::uint32_t k = 0; k < nwords_; ++k) n += static_cast<std::uint32_t>(std::popcount(w[k]));
    return n;
  }
  // Heap bytes beyond the set itself (for the memory-per-line figure).
  std::size_t heap_bytes() const { return heap_ ? nwords_ * sizeof(std::uint64_t) : 0; }

  // Calls f(i) for every member in increasing order. Each word is read before its members are
  // visited, so f may erase the member it is given.
  template <class F>
  void for_each(F&& f) const {
    const std::uint64_t* words_p = words();
    for (std::uint32_t k = 0; k < nwords_; ++k) {
      std::uint64_t w = words_p[k];
      while (w) {
        const int b = std::countr_zero(w);
        f(k * 64 + static_cast<std::uint32_t>(b));
        w &= w - 1;
      }
    }
  }

  bool operator==(const IdSet& o) const {
    return nwords_ == o.nwords_ && std::equal(words(), words() + nwords_, o.words());
  }

 private:
  static constexpr std::uint32_t kInline = 2;
  std::uint64_t* words() { return heap_ ? heap_.get() : inline_; }
  const std::uint64_t* words() const { return heap_ ? heap_.get() : inline_; }

  std::uint32_t nwords_ = 0;
  std::uint64_t inline_[kInline] = {0, 0};
  std::unique_ptr<std::uint64_t[]> heap_;
};

}  // namespace walksim::coherence
