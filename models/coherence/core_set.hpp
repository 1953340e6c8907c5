// A fixed-size set of small integers (cores or cache domains) as a bitset sized once per machine.
// Up to 128 members the bits live inside the set itself, so testing a line's holders costs no
// pointer chase to the heap; larger machines (the 1024-core synthetic one) spill to the heap.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>

namespace walksim::coherence {

class IdSet {
 public:
  IdSet() = default;
  explicit IdSet(std::uint32_t capacity) : nwords_((capacity + 63) / 64) {
    if (spilled()) u_.heap = new std::uint64_t[nwords_]();  // zeroed
  }
  IdSet(const IdSet& o) : nwords_(o.nwords_) {
    if (spilled()) {
      u_.heap = new std::uint64_t[nwords_];
      std::copy(o.u_.heap, o.u_.heap + nwords_, u_.heap);
    } else {
      u_ = o.u_;
    }
  }
  IdSet(IdSet&& o) noexcept : nwords_(o.nwords_), u_(o.u_) { o.nwords_ = 0; }
  IdSet& operator=(const IdSet& o) {
    if (this != &o) *this = IdSet(o);
    return *this;
  }
  IdSet& operator=(IdSet&& o) noexcept {
    if (this != &o) {
      release();
      nwords_ = o.nwords_;
      u_ = o.u_;
      o.nwords_ = 0;
    }
    return *this;
  }
  ~IdSet() { release(); }

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
  std::size_t heap_bytes() const { return spilled() ? nwords_ * sizeof(std::uint64_t) : 0; }

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
  bool spilled() const { return nwords_ > kInline; }
  void release() {
    if (spilled()) delete[] u_.heap;
    nwords_ = 0;
  }
  std::uint64_t* words() { return spilled() ? u_.heap : u_.bits; }
  const std::uint64_t* words() const { return spilled() ? u_.heap : u_.bits; }

  // 24 bytes: the line record keeps its hot part in one host cacheline.
  std::uint32_t nwords_ = 0;
  union Storage {
    std::uint64_t bits[kInline];
    std::uint64_t* heap;
  } u_ = {{0, 0}};
};

}  // namespace walksim::coherence
