#include "sim/rng.hpp"

#include <gtest/gtest.h>

namespace walksim::sim {
namespace {

TEST(Rng, TheSameSeedGivesTheSameSequence) {
  Rng a(7), b(7);
  for (int i = 0; i < 1000; ++i) ASSERT_EQ(a.next(), b.next());
}

TEST(Rng, DifferentSeedsGiveDifferentSequences) {
  Rng a(7), b(8);
  int same = 0;
  for (int i = 0; i < 1000; ++i) same += a.next() == b.next();
  EXPECT_LT(same, 2);
}

TEST(Rng, BelowStaysInRangeAndCoversIt) {
  Rng r(3);
  int seen[10] = {};
  for (int i = 0; i < 10000; ++i) {
    auto v = r.below(10);
    ASSERT_LT(v, 10u);
    ++seen[v];
  }
  for (int c : seen) EXPECT_GT(c, 800);
}

}  // namespace
}  // namespace walksim::sim
