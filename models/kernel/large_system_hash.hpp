// How many buckets alloc_large_system_hash gives a boot-time hash table (the dentry hash) on a
// machine with `memory_bytes` of RAM and `page_size` pages, for the table's `scale` (one bucket
// per 2^scale bytes of memory) and `bucket_bytes`: mm/page_alloc.c of 2.6.35/2.6.38
// (docs/reference/slab-hash-layouts.md §4).
#pragma once

#include <cstdint>

namespace walksim::kernel {

// The kernel's own steps: the memory's pages rounded up to a whole MiB, shifted by the scale,
// rounded up to a power of two, and capped at a 16th of memory. The kernel starts from
// nr_kernel_pages (all RAM on x86-64 less the page structs and reservations, about 1.5%), which
// the power-of-two round-up absorbs unless the memory is just above a power of two; the model
// starts from the installed memory.
std::uint64_t large_system_hash_buckets(std::uint64_t memory_bytes, std::uint32_t page_size, std::uint32_t scale,
                                        std::uint32_t bucket_bytes);

}  // namespace walksim::kernel
