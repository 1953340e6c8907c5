// The growing array keeps its contents across growth from small heap blocks to huge-page mappings
// (copied once into the first mapping, then moved by page tables), huge mappings are 2 MiB aligned,
// small blocks at least a host cacheline, and line records keep their alignment and their presence
// sets' heap blocks.
#include "models/coherence/growing_array.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <utility>

#include "models/coherence/line_state.hpp"

namespace walksim::coherence {
namespace {

TEST(GrowingArray, KeepsItsContentsAcrossGrowthFromSmallToHugeMappings) {
  GrowingArray<std::uint64_t> v;
  const std::size_t n = 3 * kHugePage / sizeof(std::uint64_t);  // grows through small and huge mappings
  for (std::size_t i = 0; i < n; ++i) v.push_back(i * 2654435761u);
  ASSERT_EQ(v.size(), n);
  for (std::size_t i = 0; i < n; i += 4099) ASSERT_EQ(v[i], i * 2654435761u) << i;
  EXPECT_EQ(v[n - 1], (n - 1) * 2654435761u);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(v.data()) % kHugePage, 0u);  // a huge mapping
}

TEST(GrowingArray, SmallTablesKeepTheirContentsAcrossDoublingsAndAreCachelineAligned) {
  GrowingArray<std::uint32_t> v;
  const std::size_t n = kHugePage / sizeof(std::uint32_t) / 2;  // 1 MiB: heap blocks only
  for (std::size_t i = 0; i < n; ++i) {
    v.push_back(static_cast<std::uint32_t>(i * 7));
    if ((i & (i - 1)) == 0) ASSERT_EQ(reinterpret_cast<std::uintptr_t>(v.data()) % 64, 0u) << i;
  }
  for (std::size_t i = 0; i < n; i += 1021) ASSERT_EQ(v[i], i * 7) << i;
  EXPECT_EQ(v.back(), (n - 1) * 7);
}

TEST(GrowingArray, ResizeAppendsCopiesAndNeverShrinks) {
  GrowingArray<std::uint64_t> v;
  v.resize(5, 7);
  v.resize(kHugePage / sizeof(std::uint64_t) + 3, 0);
  EXPECT_EQ(v[4], 7u);
  EXPECT_EQ(v[5], 0u);
  EXPECT_EQ(v.back(), 0u);
  v.resize(2, 9);
  EXPECT_EQ(v.size(), kHugePage / sizeof(std::uint64_t) + 3);
  GrowingArray<std::uint64_t> w = std::move(v);
  EXPECT_EQ(w[4], 7u);
  EXPECT_TRUE(v.empty());  // NOLINT(bugprone-use-after-move): the state a move leaves
}

TEST(GrowingArray, LineRecordsKeepTheirAlignmentAndTheirSpilledPresenceSets) {
  GrowingArray<LineState> lines;
  LineState first;
  first.holders = IdSet(1024);  // the synthetic machine's: a heap block the record points to
  first.holders.insert(1000);
  lines.push_back(std::move(first));
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(lines.data()) % alignof(LineState), 0u);
  const std::size_t n = kHugePage / sizeof(LineState) * 2 + 1;
  while (lines.size() < n) lines.emplace_back();
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(lines.data()) % kHugePage, 0u);
  EXPECT_TRUE(lines[0].holders.contains(1000));
  EXPECT_FALSE(lines[0].holders.contains(999));
  EXPECT_EQ(lines.back().owner, kNone);
}

}  // namespace
}  // namespace walksim::coherence
