#include "models/coherence/core_set.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace walksim::coherence {
namespace {

std::vector<std::uint32_t> members(const IdSet& s) {
  std::vector<std::uint32_t> out;
  s.for_each([&](std::uint32_t i) { out.push_back(i); });
  return out;
}

// Both storages: bits inside the set (up to 128 members) and on the heap (the 1024-core machine).
class IdSetSizes : public ::testing::TestWithParam<std::uint32_t> {};

TEST_P(IdSetSizes, InsertEraseAndVisitInIncreasingOrder) {
  const std::uint32_t n = GetParam();
  IdSet s(n);
  EXPECT_TRUE(s.empty());
  s.insert(n - 1);
  s.insert(0);
  s.insert(n / 2);
  EXPECT_EQ(s.size(), 3u);
  EXPECT_EQ(members(s), (std::vector<std::uint32_t>{0, n / 2, n - 1}));
  s.erase(n / 2);
  EXPECT_FALSE(s.contains(n / 2));
  EXPECT_EQ(members(s), (std::vector<std::uint32_t>{0, n - 1}));
}

TEST_P(IdSetSizes, ACopyIsIndependentAndAMoveLeavesNothingShared) {
  const std::uint32_t n = GetParam();
  IdSet a(n);
  a.insert(n - 1);
  IdSet b = a;
  b.insert(1);
  EXPECT_FALSE(a.contains(1));
  EXPECT_TRUE(b.contains(n - 1));
  EXPECT_FALSE(a == b);
  IdSet c = std::move(b);
  EXPECT_TRUE(c.contains(1) && c.contains(n - 1));
  a = c;
  EXPECT_TRUE(a == c);
  c.clear();
  EXPECT_TRUE(c.empty());
  EXPECT_TRUE(a.contains(1));
}

TEST_P(IdSetSizes, VisitingMayEraseTheVisitedMember) {
  const std::uint32_t n = GetParam();
  IdSet s(n);
  for (std::uint32_t i = 0; i < n; i += 3) s.insert(i);
  std::uint32_t seen = 0;
  s.for_each([&](std::uint32_t i) {
    s.erase(i);
    ++seen;
  });
  EXPECT_EQ(seen, (n + 2) / 3);
  EXPECT_TRUE(s.empty());
}

INSTANTIATE_TEST_SUITE_P(Capacities, IdSetSizes, ::testing::Values(8u, 64u, 128u, 129u, 1024u));

}  // namespace
}  // namespace walksim::coherence
