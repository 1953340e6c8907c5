// The dentry hash's size as alloc_large_system_hash computes it, checked against the table in
// docs/reference/slab-hash-layouts.md §4 and one machine's boot log.
#include "models/kernel/large_system_hash.hpp"

#include <gtest/gtest.h>

namespace walksim::kernel {
namespace {

constexpr std::uint64_t kGiB = std::uint64_t{1} << 30;

TEST(LargeSystemHash, OneDentryBucketPer8KiBRoundedUpToAPowerOfTwo) {
  EXPECT_EQ(large_system_hash_buckets(4 * kGiB, 4096, 13, 8), std::uint64_t{1} << 19);
  EXPECT_EQ(large_system_hash_buckets(8 * kGiB, 4096, 13, 8), std::uint64_t{1} << 20);
  EXPECT_EQ(large_system_hash_buckets(16 * kGiB, 4096, 13, 8), std::uint64_t{1} << 21);
  EXPECT_EQ(large_system_hash_buckets(64 * kGiB, 4096, 13, 8), std::uint64_t{1} << 23);
  // 24 GiB is 3 M buckets before the round-up. The build machine of this project, a 24 GB virtual
  // machine (24,683,584 kB of MemTotal), booted Linux 6.18 with "Dentry cache hash table entries:
  // 4194304 (order: 13, 33554432 bytes, linear)".
  EXPECT_EQ(large_system_hash_buckets(24 * kGiB, 4096, 13, 8), std::uint64_t{1} << 22);
  EXPECT_EQ(large_system_hash_buckets(24'683'584ULL * 1024, 4096, 13, 8), std::uint64_t{1} << 22);
}

TEST(LargeSystemHash, TheInodeHashIsHalfAsLargeAndBigPagesGiveTheSameBucketsPerByte) {
  EXPECT_EQ(large_system_hash_buckets(24 * kGiB, 4096, 14, 8), std::uint64_t{1} << 21);  // "Inode-cache ... 2097152"
  // ia64's 16 KiB pages: scale 13 is below PAGE_SHIFT, so the pages are shifted up.
  EXPECT_EQ(large_system_hash_buckets(128 * kGiB, 16384, 13, 8), std::uint64_t{1} << 24);
}

TEST(LargeSystemHash, ATinyMachineGetsAPageOfBucketsAndNoTableAboveASixteenthOfMemory) {
  EXPECT_EQ(large_system_hash_buckets(16ULL << 20, 4096, 13, 8), 2048u);  // 16 MiB: 2048 buckets (one per 8 KiB)
  EXPECT_LE(large_system_hash_buckets(16ULL << 20, 4096, 0, 8) * 8, (16ULL << 20) / 16);
}

}  // namespace
}  // namespace walksim::kernel
