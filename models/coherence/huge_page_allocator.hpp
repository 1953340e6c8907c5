// An allocator for large, densely used arrays (the line records: 128 bytes per simulated line, 70 MB
// for one git tree, 8 GB for git-diff-many's 64): blocks of 2 MiB or more are 2 MiB aligned and
// advised as transparent huge pages (madvise(MADV_HUGEPAGE); Debian's default THP mode is
// "madvise", so without the advice they get 4 KiB pages). A growing vector then takes one page fault
// per 2 MiB instead of per 4 KiB, and the simulation's scattered reads of line records miss the TLB
// far less. Smaller blocks come from operator new. Where the kernel has no huge pages, the advice
// fails and the memory is used as it is: the simulation's results never depend on it.
#pragma once

#include <sys/mman.h>

#include <cstddef>
#include <cstdlib>
#include <new>

namespace walksim::coherence {

inline constexpr std::size_t kHugePage = std::size_t{2} << 20;

template <class T>
struct HugePageAllocator {
  using value_type = T;
  HugePageAllocator() = default;
  template <class U>
  explicit HugePageAllocator(const HugePageAllocator<U>&) noexcept {}

  T* allocate(std::size_t n) {
    if (n > static_cast<std::size_t>(-1) / sizeof(T)) throw std::bad_array_new_length();
    const std::size_t bytes = n * sizeof(T);
    if (bytes < kHugePage) return static_cast<T*>(::operator new (bytes, std::align_val_t{alignof(T)}));
    const std::size_t rounded = (bytes + kHugePage - 1) / kHugePage * kHugePage;
    void* p = std::aligned_alloc(kHugePage, rounded);
    if (!p) throw std::bad_alloc();
    (void)madvise(p, rounded, MADV_HUGEPAGE);  // advice only: a kernel without THP ignores or refuses it
    return static_cast<T*>(p);
  }
  void deallocate(T* p, std::size_t n) noexcept {
    if (n * sizeof(T) < kHugePage) {
      ::operator delete (p, std::align_val_t{alignof(T)});
    } else {
      std::free(p);
    }
  }
  template <class U>
  bool operator==(const HugePageAllocator<U>&) const noexcept {
    return true;
  }
};

}  // namespace walksim::coherence
