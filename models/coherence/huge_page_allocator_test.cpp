// The huge-page allocator is an ordinary allocator to its vector: contents survive growth from
// small blocks (operator new) to huge ones (2 MiB aligned) and back, and huge blocks are aligned.
#include "models/coherence/huge_page_allocator.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "models/coherence/line_state.hpp"

namespace walksim::coherence {
namespace {

TEST(HugePageAllocator, AVectorKeepsItsContentsAcrossTheHugeBlockThreshold) {
  std::vector<std::uint64_t, HugePageAllocator<std::uint64_t>> v;
  const std::size_t n = 3 * kHugePage / sizeof(std::uint64_t);  // grows through small and huge blocks
  for (std::size_t i = 0; i < n; ++i) v.push_back(i * 2654435761u);
  for (std::size_t i = 0; i < n; i += 4099) ASSERT_EQ(v[i], i * 2654435761u) << i;
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(v.data()) % kHugePage, 0u);  // a huge block
  v.resize(10);
  v.shrink_to_fit();  // back to a small block
  for (std::size_t i = 0; i < 10; ++i) EXPECT_EQ(v[i], i * 2654435761u);
}

TEST(HugePageAllocator, KeepsTheAlignmentOfLineRecords) {
  std::vector<LineState, HugePageAllocator<LineState>> lines(3);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(lines.data()) % alignof(LineState), 0u);
  lines.resize(kHugePage / sizeof(LineState) + 1);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(lines.data()) % kHugePage, 0u);
  EXPECT_EQ(lines.back().owner, kNone);
}

}  // namespace
}  // namespace walksim::coherence
