// A dense array for the largest per-line tables (the line records and their statistics, the
// executor's word per line). A std::vector doubles by allocating twice the space, copying and
// freeing the old block, so at each doubling the old and the new copy are both resident:
// git-diff-many's 64 trees made 4 GB of line records, and the last doubling alone held 2 GB twice
// (docs/performance.md, "eighth step"). Here a table of 2 MiB or more is one anonymous mapping that
// grows by moving page tables (mremap), not by copying: the old pages are the new array's first
// pages, and only the pages written are ever resident. Below 2 MiB it is a heap block that doubles
// as a vector's does, and reaching 2 MiB copies it (at most 1 MiB) into the first mapping (the
// ninth step there says why).
//
// From 2 MiB on the mapping is 2 MiB aligned and advised as transparent huge pages
// (madvise(MADV_HUGEPAGE); Debian's default THP mode is "madvise", so without the advice they get
// 4 KiB pages): the simulation's scattered reads of line records then miss the TLB far less, and a
// growing table takes a page fault per 2 MiB instead of per 4 KiB. Where the kernel has no huge
// pages the advice fails and the memory is used as it is: results never depend on it.
//
// T must be relocatable by moving its bytes (no pointer into itself: the line record's presence
// sets point to heap blocks of their own, which move with them), and elements are only appended.
#pragma once

#include <sys/mman.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>
#include <type_traits>
#include <utility>

namespace walksim::coherence {

inline constexpr std::size_t kHugePage = std::size_t{2} << 20;

template <class T>
class GrowingArray {
  static_assert(alignof(T) <= 4096, "a mapping is page aligned");
  static_assert(std::is_nothrow_destructible_v<T>);

 public:
  GrowingArray() = default;
  GrowingArray(const GrowingArray&) = delete;
  GrowingArray& operator=(const GrowingArray&) = delete;
  GrowingArray(GrowingArray&& o) noexcept
      : data_(std::exchange(o.data_, nullptr)), size_(std::exchange(o.size_, 0)), bytes_(std::exchange(o.bytes_, 0)) {}
  GrowingArray& operator=(GrowingArray&& o) noexcept {
    if (this != &o) {
      release();
      data_ = std::exchange(o.data_, nullptr);
      size_ = std::exchange(o.size_, 0);
      bytes_ = std::exchange(o.bytes_, 0);
    }
    return *this;
  }
  ~GrowingArray() { release(); }

  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T* data() { return data_; }
  const T* data() const { return data_; }
  T& operator[](std::size_t i) { return data_[i]; }
  const T& operator[](std::size_t i) const { return data_[i]; }
  T& back() { return data_[size_ - 1]; }

  template <class... Args>
  T& emplace_back(Args&&... args) {
    if ((size_ + 1) * sizeof(T) > bytes_) grow(size_ + 1);
    T* p = new (data_ + size_) T(std::forward<Args>(args)...);
    ++size_;
    return *p;
  }
  void push_back(T&& v) { emplace_back(std::move(v)); }
  // Appends copies of v up to n elements (never shrinks).
  void resize(std::size_t n, const T& v) {
    if (n <= size_) return;
    if (n * sizeof(T) > bytes_) grow(n);
    for (; size_ < n; ++size_) new (data_ + size_) T(v);
  }

 private:
  static constexpr std::size_t kSmallStart = 64 << 10;
  static constexpr std::align_val_t kAlign{alignof(T) > 64 ? alignof(T) : 64};  // heap blocks
  static constexpr std::size_t kMaxBytes = std::size_t{1} << 46;                // 64 TiB: far past any host

  // A fresh mapping of `bytes` (a multiple of the page size), aligned to `align`: memory to use, or
  // (PROT_NONE) a reservation of addresses that a move replaces, which commits nothing.
  static void* map_aligned(std::size_t bytes, std::size_t align, int prot) {
    const std::size_t span = bytes + (align > 4096 ? align : 0);
    const int flags = MAP_PRIVATE | MAP_ANONYMOUS | (prot == PROT_NONE ? MAP_NORESERVE : 0);
    void* raw = mmap(nullptr, span, prot, flags, -1, 0);
    if (raw == MAP_FAILED) throw std::bad_alloc();
    const auto base = reinterpret_cast<std::uintptr_t>(raw);
    const std::uintptr_t aligned = (base + align - 1) / align * align;
    if (aligned > base) munmap(raw, aligned - base);
    const std::uintptr_t end = base + span;
    if (end > aligned + bytes) munmap(reinterpret_cast<void*>(aligned + bytes), end - (aligned + bytes));
    return reinterpret_cast<void*>(aligned);
  }

  // Below 2 MiB a table is a heap block that doubles by copying (as a vector's); the first huge
  // mapping is filled by one copy of at most 1 MiB; from there it grows by mremap. Small tables on
  // the heap, not in mappings of their own: their freed blocks go back to malloc, which hands them
  // to the run's many small objects instead of faulting fresh pages in, and a small mapping moved
  // by mremap would keep 4 KiB pages (a fault and a TLB entry each) inside the later huge table
  // (docs/performance.md, "ninth step": on a virtual machine a fault is a trap to the hypervisor).
  void grow(std::size_t min_elems) {
    if (min_elems > kMaxBytes / sizeof(T)) throw std::bad_alloc();
    std::size_t want = bytes_ ? 2 * bytes_ : kSmallStart;
    while (want < min_elems * sizeof(T)) want *= 2;
    if (want >= kHugePage) want = (want + kHugePage - 1) / kHugePage * kHugePage;
    void* to = nullptr;
    if (want < kHugePage || bytes_ < kHugePage) {
      to = want < kHugePage ? ::operator new(want, kAlign) : map_aligned(want, kHugePage, PROT_READ | PROT_WRITE);
      if (want >= kHugePage) (void)madvise(to, want, MADV_HUGEPAGE);  // before the copy touches it
      if (data_) {
        std::memcpy(to, static_cast<void*>(data_), size_ * sizeof(T));
        ::operator delete(static_cast<void*>(data_), kAlign);
      }
    } else {
      // Grown where it lies if the addresses after it are free (alignment kept), else moved by its
      // page tables onto a reserved aligned range (MREMAP_FIXED replaces the reservation).
      to = mremap(data_, bytes_, want, 0);
      if (to == MAP_FAILED) {
        void* target = map_aligned(want, kHugePage, PROT_NONE);
        to = mremap(data_, bytes_, want, MREMAP_MAYMOVE | MREMAP_FIXED, target);
        if (to == MAP_FAILED) {
          munmap(target, want);
          throw std::bad_alloc();
        }
      }
      (void)madvise(to, want, MADV_HUGEPAGE);  // advice only
    }
    data_ = static_cast<T*>(to);
    bytes_ = want;
  }

  void release() noexcept {
    if (!data_) return;
    for (std::size_t i = 0; i < size_; ++i) data_[i].~T();
    if (bytes_ < kHugePage) {
      ::operator delete(static_cast<void*>(data_), kAlign);
    } else {
      munmap(data_, bytes_);
    }
    data_ = nullptr;
    size_ = 0;
    bytes_ = 0;
  }

  T* data_ = nullptr;
  std::size_t size_ = 0;
  std::size_t bytes_ = 0;  // mapped
};

}  // namespace walksim::coherence
