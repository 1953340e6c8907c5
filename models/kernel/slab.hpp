// Where the slab allocator puts an object: how many objects of a cache's stride one slab holds,
// how big a slab is, and at which byte of the slab each object starts. SLUB (2.6.22+, the default
// from 2.6.23) packs objects from byte 0 of slabs whose order calculate_order picks from the number
// of possible CPUs; SLAB (2.6.20) uses one page, its management block on the page before the objects,
// and a colour offset that cycles slab by slab (docs/reference/slab-hash-layouts.md §3, §6).
#pragma once

#include <cstdint>

namespace walksim::kernel {

enum class SlabAllocator : std::uint8_t { kSlub, kSlab };

struct SlabGeometry {
  std::uint32_t slab_bytes = 0;   // PAGE_SIZE << order
  std::uint32_t objects = 0;      // per slab
  std::uint32_t first = 0;        // byte of the slab where object 0 starts (SLAB: management block)
  std::uint32_t colours = 1;      // SLAB: distinct colour offsets, 64 bytes apart; slab k uses k % colours
  std::uint32_t colour_step = 0;  // bytes between two colours (SLAB: the cache line, 64)
};

// `stride` is the cache's object size with its alignment and any free pointer kept outside the
// object (SLUB's s->size; SLAB's buffer_size); `cpus` the possible CPUs (nr_cpu_ids).
SlabGeometry slab_geometry(SlabAllocator a, std::uint32_t stride, std::uint32_t page_size, std::uint32_t cpus);

// The byte offset of object `index` of slab `slab` from the start of that slab.
inline std::uint32_t slab_object_offset(const SlabGeometry& g, std::uint64_t slab, std::uint32_t index,
                                        std::uint32_t stride) {
  return g.first + static_cast<std::uint32_t>(slab % g.colours) * g.colour_step + index * stride;
}

}  // namespace walksim::kernel
