#include "models/kernel/large_system_hash.hpp"

#include <algorithm>
#include <bit>

namespace walksim::kernel {

std::uint64_t large_system_hash_buckets(std::uint64_t memory_bytes, std::uint32_t page_size, std::uint32_t scale,
                                        std::uint32_t bucket_bytes) {
  const auto page_shift = static_cast<std::uint32_t>(std::countr_zero(page_size));
  std::uint64_t n = memory_bytes / page_size;
  // numentries += (1UL << (20 - PAGE_SHIFT)) - 1; numentries >>= 20 - PAGE_SHIFT; <<= ...
  if (page_shift < 20) {
    const std::uint64_t per_mib = std::uint64_t{1} << (20 - page_shift);
    n = (n + per_mib - 1) / per_mib * per_mib;
  }
  if (scale > page_shift) {
    n >>= (scale - page_shift);
  } else {
    n <<= (page_shift - scale);
  }
  // At least a page of buckets (the kernel's limit for small machines).
  n = std::max<std::uint64_t>(n, page_size / bucket_bytes);
  n = std::bit_ceil(n);
  const std::uint64_t max = (memory_bytes >> 4) / bucket_bytes;
  while (n > max && n > 1) n >>= 1;  // roundup_pow_of_two, then the cap, then log2qty = ilog2
  return n;
}

}  // namespace walksim::kernel
