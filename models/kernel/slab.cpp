#include "models/kernel/slab.hpp"

#include <algorithm>
#include <bit>
#include <stdexcept>

namespace walksim::kernel {

namespace {

constexpr std::uint32_t kSlubMaxOrder = 3;  // PAGE_ALLOC_COSTLY_ORDER
constexpr std::uint32_t kMaxOrder = 11;

std::uint32_t fls(std::uint64_t x) { return x ? 64 - static_cast<std::uint32_t>(std::countl_zero(x)) : 0; }

// mm/slub.c slab_order (2.6.35): the smallest order from the one that fits min_objects whose
// leftover is at most 1/fract of the slab; max_order + 1 when none is.
std::uint32_t slub_slab_order(std::uint64_t size, std::uint64_t min_objects, std::uint32_t max_order,
                              std::uint64_t fract, std::uint32_t page_shift) {
  const std::uint32_t start = fls(min_objects * size - 1) > page_shift ? fls(min_objects * size - 1) - page_shift : 0;
  for (std::uint32_t order = start; order <= max_order; ++order) {
    const std::uint64_t slab = std::uint64_t{1} << (page_shift + order);
    if (slab < min_objects * size) continue;
    if (slab % size <= slab / fract) return order;
  }
  return max_order + 1;
}

// mm/slub.c calculate_order (2.6.35): min_objects = 4 * (fls(nr_cpu_ids) + 1), fewer if the largest
// slab cannot hold them; waste fractions 1/16, 1/8, 1/4, then fewer objects.
std::uint32_t slub_order(std::uint64_t size, std::uint32_t cpus, std::uint32_t page_shift) {
  std::uint64_t min_objects = std::uint64_t{4} * (fls(cpus) + 1);
  const std::uint64_t max_objects = (std::uint64_t{1} << (page_shift + kSlubMaxOrder)) / size;
  min_objects = std::min(min_objects, max_objects);
  while (min_objects > 1) {
    for (std::uint64_t fraction = 16; fraction >= 4; fraction /= 2) {
      const std::uint32_t order = slub_slab_order(size, min_objects, kSlubMaxOrder, fraction, page_shift);
      if (order <= kSlubMaxOrder) return order;
    }
    --min_objects;
  }
  std::uint32_t order = slub_slab_order(size, 1, kSlubMaxOrder, 1, page_shift);
  if (order <= kSlubMaxOrder) return order;
  order = slub_slab_order(size, 1, kMaxOrder, 1, page_shift);
  if (order < kMaxOrder) return order;
  throw std::invalid_argument("no slab order holds an object of " + std::to_string(size) + " bytes");
}

}  // namespace

SlabGeometry slab_geometry(SlabAllocator a, std::uint32_t stride, std::uint32_t page_size, std::uint32_t cpus) {
  if (stride == 0 || page_size == 0) throw std::invalid_argument("slab of a zero stride or page size");
  const auto page_shift = static_cast<std::uint32_t>(std::countr_zero(page_size));
  SlabGeometry g;
  if (a == SlabAllocator::kSlub) {
    const std::uint32_t order = slub_order(stride, std::max(cpus, 1u), page_shift);
    g.slab_bytes = page_size << order;
    g.objects = g.slab_bytes / stride;
    return g;
  }
  // mm/slab.c (2.6.20) cache_estimate with the management on the slab: struct slab (48 bytes) and
  // one 4-byte kmem_bufctl_t per object, aligned to the object alignment (8), then the objects;
  // what is left over is spent in 64-byte colour steps, one more per slab until they wrap.
  constexpr std::uint32_t kSlabStruct = 48, kBufctl = 4, kAlign = 8, kColour = 64;
  g.slab_bytes = page_size;  // SLAB_RECLAIM_ACCOUNT caches stay at order 0
  auto mgmt = [&](std::uint32_t n) { return (kSlabStruct + n * kBufctl + kAlign - 1) / kAlign * kAlign; };
  std::uint32_t n = (page_size - kSlabStruct) / (stride + kBufctl);
  if (n > 0 && mgmt(n) + n * stride > page_size) --n;
  if (n == 0) throw std::invalid_argument("a SLAB page holds no object of " + std::to_string(stride) + " bytes");
  g.objects = n;
  g.first = mgmt(n);
  const std::uint32_t left = page_size - n * stride - g.first;
  g.colours = std::max(1u, left / kColour);
  g.colour_step = kColour;
  return g;
}

}  // namespace walksim::kernel
