#include "sim/event_queue.hpp"

#include <gtest/gtest.h>

#include "sim/rng.hpp"

namespace walksim::sim {
namespace {

TEST(EventQueue, PopsEventsInTimeOrder) {
  EventQueue q;
  q.push(30, nullptr, 3);
  q.push(10, nullptr, 1);
  q.push(20, nullptr, 2);
  EXPECT_EQ(q.pop().tag, 1u);
  EXPECT_EQ(q.pop().tag, 2u);
  EXPECT_EQ(q.pop().tag, 3u);
  EXPECT_TRUE(q.empty());
}

TEST(EventQueue, EventsAtTheSameTimeRunInTheOrderTheyWereScheduled) {
  EventQueue q;
  for (std::uint64_t i = 0; i < 100; ++i) q.push(i % 3 == 0 ? 5 : 7, nullptr, i);
  std::uint64_t last_tag_at_5 = 0, last_tag_at_7 = 0;
  bool first5 = true, first7 = true;
  while (!q.empty()) {
    Event e = q.pop();
    auto& last = e.time == 5 ? last_tag_at_5 : last_tag_at_7;
    bool& first = e.time == 5 ? first5 : first7;
    if (!first) {
      EXPECT_GT(e.tag, last);
    }
    first = false;
    last = e.tag;
  }
}

TEST(EventQueue, RandomPushesComeOutSorted) {
  EventQueue q;
  Rng rng(42);
  for (int i = 0; i < 10000; ++i) q.push(static_cast<Picos>(rng.below(1000)), nullptr, 0);
  Event prev = q.pop();
  while (!q.empty()) {
    Event e = q.pop();
    ASSERT_TRUE(prev.time < e.time || (prev.time == e.time && prev.seq < e.seq));
    prev = e;
  }
}

}  // namespace
}  // namespace walksim::sim
