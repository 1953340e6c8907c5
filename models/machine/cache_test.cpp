#include "models/machine/cache.hpp"

#include <gtest/gtest.h>

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

}  // namespace
}  // namespace walksim::machine
