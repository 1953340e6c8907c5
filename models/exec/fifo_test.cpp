// The store buffer's ring: first in, first out through growth and wrap-around, as a std::deque.
#include "models/exec/fifo.hpp"

#include <gtest/gtest.h>

#include <deque>

namespace walksim::exec {
namespace {

TEST(Fifo, KeepsTheOrderOfADequeThroughGrowthAndWrapAround) {
  Fifo<int> f;
  std::deque<int> ref;
  int next = 0;
  // Pushes and pops in uneven runs, so the ring wraps at every size it grows through.
  for (int round = 0; round < 200; ++round) {
    const int pushes = round % 7 + 1, pops = round % 5 + 1;
    for (int i = 0; i < pushes; ++i) {
      f.push_back(next);
      ref.push_back(next++);
    }
    for (int i = 0; i < pops && !ref.empty(); ++i) {
      ASSERT_FALSE(f.empty());
      EXPECT_EQ(f.front(), ref.front());
      f.pop_front();
      ref.pop_front();
    }
    ASSERT_EQ(f.size(), ref.size());
    for (std::size_t i = 0; i < ref.size(); ++i) EXPECT_EQ(f[i], ref[i]) << "element " << i << " of round " << round;
  }
  while (!ref.empty()) {
    EXPECT_EQ(f.front(), ref.front());
    f.pop_front();
    ref.pop_front();
  }
  EXPECT_TRUE(f.empty());
}

}  // namespace
}  // namespace walksim::exec
