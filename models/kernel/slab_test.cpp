// Slab geometry against the numbers worked out from the allocators' own code
// (docs/reference/slab-hash-layouts.md §3 and §6).
#include "models/kernel/slab.hpp"

#include <gtest/gtest.h>

namespace walksim::kernel {
namespace {

std::uint32_t objects(std::uint32_t stride, std::uint32_t cpus) {
  return slab_geometry(SlabAllocator::kSlub, stride, 4096, cpus).objects;
}

TEST(Slab, SlubOrdersFollowTheNumberOfPossibleCpus) {
  // dentry 192: 21 per order-0 slab below 16 CPUs, 42 per order-1 slab from 16 on.
  EXPECT_EQ(objects(192, 8), 21u);
  EXPECT_EQ(objects(192, 24), 42u);
  EXPECT_EQ(slab_geometry(SlabAllocator::kSlub, 192, 4096, 24).slab_bytes, 8192u);
  // 2.6.35's inode (stride 592): 13 / 27 / 55; 2.6.37's (560): 14 / 29 / 58; 2.6.38's (608): 13 / 26 / 53.
  EXPECT_EQ(objects(592, 2), 13u);
  EXPECT_EQ(objects(592, 24), 27u);
  EXPECT_EQ(objects(592, 64), 55u);
  EXPECT_EQ(objects(560, 1), 14u);
  EXPECT_EQ(objects(560, 48), 29u);
  EXPECT_EQ(objects(560, 64), 58u);
  EXPECT_EQ(objects(608, 8), 26u);
  EXPECT_EQ(objects(608, 32), 53u);
}

TEST(Slab, SlubPacksObjectsFromTheSlabsFirstByte) {
  const SlabGeometry g = slab_geometry(SlabAllocator::kSlub, 592, 4096, 24);
  EXPECT_EQ(g.first, 0u);
  EXPECT_EQ(slab_object_offset(g, 5, 3, 592), 3u * 592);  // no colouring
}

TEST(Slab, SlabKeepsItsManagementOnThePageAndColoursItsSlabs) {
  // 2.6.20: dentry 208 -> 19 per page after 128 bytes of management, 16 left (one colour);
  // inode 536 -> 7 per page after 80 bytes, 264 left: colours 0, 64, 128, 192.
  const SlabGeometry d = slab_geometry(SlabAllocator::kSlab, 208, 4096, 32);
  EXPECT_EQ(d.objects, 19u);
  EXPECT_EQ(d.first, 128u);
  EXPECT_EQ(d.colours, 1u);
  const SlabGeometry i = slab_geometry(SlabAllocator::kSlab, 536, 4096, 32);
  EXPECT_EQ(i.objects, 7u);
  EXPECT_EQ(i.first, 80u);
  EXPECT_EQ(i.colours, 4u);
  EXPECT_EQ(slab_object_offset(i, 0, 1, 536), 80u + 536);
  EXPECT_EQ(slab_object_offset(i, 3, 0, 536), 80u + 192);
  EXPECT_EQ(slab_object_offset(i, 4, 0, 536), 80u);
}

}  // namespace
}  // namespace walksim::kernel
