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

// Assigning over a set of the same storage copies the words into it (no new block); over one of
// another storage it takes a storage of its own. Either way the two sets stay independent.
TEST_P(IdSetSizes, AssigningOverASetCopiesTheMembersAndSharesNothing) {
  const std::uint32_t n = GetParam();
  IdSet a(n);
  IdSet b(n);
  a.insert(n - 1);
  b.insert(0);
  b = a;
  EXPECT_TRUE(b == a);
  EXPECT_EQ(members(b), (std::vector<std::uint32_t>{n - 1}));
  a.insert(1);
  EXPECT_FALSE(b.contains(1));
  IdSet inline_set;  // the default storage: inline words
  inline_set = a;
  EXPECT_TRUE(inline_set == a);
  inline_set.erase(n - 1);
  EXPECT_TRUE(a.contains(n - 1));
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

INSTANTIATE_TEST_SUITE_P(Capacities, IdSetSizes, ::testing::Values(8u, 64u, 126u, 127u, 128u, 129u, 1024u));

// The spill is marked in the top bit of the set's last word, so a set of W words keeps 64 W - 1
// members inside itself: the last member inside and the first one spilled both work.
TEST(IdSetStorage, TheLastInlineMemberAndTheFirstSpilledCapacityBothHoldTheirTopMember) {
  IdSet inside(127), spilled(128);
  SmallIdSet small_inside(63), small_spilled(64);
  EXPECT_EQ(inside.heap_bytes(), 0u);
  EXPECT_GT(spilled.heap_bytes(), 0u);
  EXPECT_EQ(small_inside.heap_bytes(), 0u);
  EXPECT_GT(small_spilled.heap_bytes(), 0u);
  inside.insert(126);
  spilled.insert(127);
  small_inside.insert(62);
  small_spilled.insert(63);
  EXPECT_EQ(members(inside), std::vector<std::uint32_t>{126});
  EXPECT_EQ(members(spilled), std::vector<std::uint32_t>{127});
  std::vector<std::uint32_t> got;
  small_inside.for_each([&](std::uint32_t i) { got.push_back(i); });
  small_spilled.for_each([&](std::uint32_t i) { got.push_back(i); });
  EXPECT_EQ(got, (std::vector<std::uint32_t>{62, 63}));
  // A copy of a spilled set has its own block; a moved-from set is empty and inside again.
  SmallIdSet copy = small_spilled;
  copy.erase(63);
  EXPECT_TRUE(small_spilled.contains(63));
  SmallIdSet moved = std::move(small_spilled);
  EXPECT_TRUE(moved.contains(63));
  EXPECT_EQ(small_spilled.heap_bytes(), 0u);  // NOLINT(bugprone-use-after-move): the state a move leaves
  EXPECT_TRUE(small_spilled.empty());
  EXPECT_EQ(sizeof(IdSet), 16u);
  EXPECT_EQ(sizeof(SmallIdSet), 8u);
}

}  // namespace
}  // namespace walksim::coherence
