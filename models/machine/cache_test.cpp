#include "models/machine/cache.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <list>
#include <optional>
#include <random>
#include <vector>

namespace walksim::machine {
namespace {

TEST(SetAssocCache, AFilledSetEvictsTheLeastRecentlyUsedLine) {
  SetAssocCache c(8, 2);  // 4 sets of 2 ways; lines 0, 4, 8 map to set 0
  EXPECT_FALSE(c.insert(0));
  EXPECT_FALSE(c.insert(4));
  EXPECT_TRUE(c.touch(0));  // 4 is now least recently used
  auto evicted = c.insert(8);
  ASSERT_TRUE(evicted);
  EXPECT_EQ(*evicted, 4u);
  EXPECT_TRUE(c.contains(0));
  EXPECT_TRUE(c.contains(8));
  EXPECT_FALSE(c.contains(4));
}

TEST(SetAssocCache, LinesInOtherSetsDoNotCompete) {
  SetAssocCache c(8, 2);
  for (LineId l = 0; l < 8; ++l) EXPECT_FALSE(c.insert(l));
  for (LineId l = 0; l < 8; ++l) EXPECT_TRUE(c.contains(l));
}

TEST(SetAssocCache, ReinsertingAPresentLineEvictsNothing) {
  SetAssocCache c(4, 4);
  c.insert(1);
  EXPECT_FALSE(c.insert(1));
  c.erase(1);
  EXPECT_FALSE(c.contains(1));
}

TEST(SetAssocCache, AnErasedWayIsReusedBeforeEvicting) {
  SetAssocCache c(2, 2);
  c.insert(0);
  c.insert(2);
  c.erase(0);
  EXPECT_FALSE(c.insert(4));
  EXPECT_TRUE(c.contains(2));
}

TEST(SetAssocCache, AFreshCacheHoldsNothingNotEvenLineZero) {
  SetAssocCache c(16, 4);  // zero-filled storage must not read as "line 0 present"
  EXPECT_FALSE(c.contains(0));
  EXPECT_FALSE(c.touch(0));
  EXPECT_FALSE(c.insert(0));
  EXPECT_TRUE(c.contains(0));
}

TEST(SetAssocCache, SetCountsThatAreNotPowersOfTwoMapLinesByRemainder) {
  SetAssocCache c(12, 2);  // 6 sets: lines 1, 7, 13 share set 1
  EXPECT_FALSE(c.insert(1));
  EXPECT_FALSE(c.insert(7));
  const auto evicted = c.insert(13);
  ASSERT_TRUE(evicted);
  EXPECT_EQ(*evicted, 1u);
  EXPECT_FALSE(c.contains(2));  // set 2 was never filled
}

TEST(SetAssocCache, LruOrderSurvivesTheUseClockRunningOut) {
  SetAssocCache c(8, 4);  // 2 sets of 4 ways: even lines in set 0
  c.insert(0);
  c.insert(2);
  c.insert(4);
  c.insert(6);
  c.insert(1);  // other set, in between
  c.set_clock(UINT32_MAX - 2);
  c.touch(0);  // stamps ...-1, ...; then the clock runs out and every set is renumbered
  c.touch(2);
  c.touch(4);  // renumbered here
  c.insert(3);
  // Least recently used in set 0 is now 6, then 0, 2, 4.
  auto evicted = c.insert(8);
  ASSERT_TRUE(evicted);
  EXPECT_EQ(*evicted, 6u);
  evicted = c.insert(10);
  ASSERT_TRUE(evicted);
  EXPECT_EQ(*evicted, 0u);
  c.touch(2);
  evicted = c.insert(12);
  ASSERT_TRUE(evicted);
  EXPECT_EQ(*evicted, 4u);
  EXPECT_TRUE(c.contains(1) && c.contains(3));
}

// A reference LRU cache: one list per set, most recently used first.
class ListLru {
 public:
  ListLru(std::uint32_t sets, std::uint32_t ways) : sets_(sets), ways_(ways), lists_(sets) {}
  bool touch(LineId l) {
    auto& s = lists_[l % sets_];
    const auto it = std::find(s.begin(), s.end(), l);
    if (it == s.end()) return false;
    s.splice(s.begin(), s, it);
    return true;
  }
  bool contains(LineId l) const {
    const auto& s = lists_[l % sets_];
    return std::find(s.begin(), s.end(), l) != s.end();
  }
  std::optional<LineId> insert(LineId l) {
    if (touch(l)) return std::nullopt;
    auto& s = lists_[l % sets_];
    std::optional<LineId> evicted;
    if (s.size() == ways_) {
      evicted = s.back();
      s.pop_back();
    }
    s.push_front(l);
    return evicted;
  }
  void erase(LineId l) { lists_[l % sets_].remove(l); }

 private:
  std::uint32_t sets_, ways_;
  std::vector<std::list<LineId>> lists_;
};

// Every associativity the set scan treats differently (below, at and above the four ways it
// compares at once, odd counts, and more than the 64 one mask covers) against the reference, over
// random touches, inserts and erases that keep sets full and partly empty.
TEST(SetAssocCache, AgreesWithAListLruAtEveryAssociativity) {
  for (const std::uint32_t ways : {1u, 2u, 3u, 4u, 5u, 7u, 8u, 12u, 15u, 16u, 24u, 40u, 63u, 64u, 65u, 100u, 130u}) {
    const std::uint32_t sets = 3;
    SetAssocCache c(std::uint64_t{sets} * ways, ways);
    ListLru ref(sets, ways);
    std::mt19937 rng(ways);
    // Lines from a pool a little larger than the cache, so that sets fill, overflow and empty.
    std::uniform_int_distribution<LineId> line(0, sets * ways + sets * ways / 2 + 2);
    std::uniform_int_distribution<int> what(0, 9);
    for (int i = 0; i < 20000; ++i) {
      const LineId l = line(rng);
      const int w = what(rng);
      if (w < 4) {
        ASSERT_EQ(c.insert(l), ref.insert(l)) << ways << " ways, step " << i;
      } else if (w < 8) {
        ASSERT_EQ(c.touch(l), ref.touch(l)) << ways << " ways, step " << i;
      } else if (w < 9) {
        c.erase(l);
        ref.erase(l);
      } else {
        ASSERT_EQ(c.contains(l), ref.contains(l)) << ways << " ways, step " << i;
      }
    }
  }
}

}  // namespace
}  // namespace walksim::machine
