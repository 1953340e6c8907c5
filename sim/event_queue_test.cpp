#include "sim/event_queue.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <utility>
#include <vector>

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
    ASSERT_TRUE(prev.time < e.time || (prev.time == e.time && prev.rank < e.rank));
    prev = e;
  }
}

// The simulator's pattern: pop the earliest, push a later one, with pushes interleaved with pops
// and many equal times. The order must be exactly (time, order of scheduling).
TEST(EventQueue, InterleavedPushesAndPopsFollowTimeThenSchedulingOrder) {
  EventQueue q;
  Rng rng(7);
  std::vector<std::pair<Picos, std::uint64_t>> pending;  // (time, tag = scheduling order)
  std::uint64_t tag = 0;
  Picos now = 0;
  auto push = [&](Picos t) {
    q.push(t, nullptr, tag);
    pending.emplace_back(t, tag++);
  };
  for (int i = 0; i < 64; ++i) push(static_cast<Picos>(rng.below(50)));
  for (int step = 0; step < 20000; ++step) {
    const Event e = q.pop();
    const auto want = *std::min_element(pending.begin(), pending.end());
    ASSERT_EQ(e.time, want.first);
    ASSERT_EQ(e.tag, want.second);
    pending.erase(std::find(pending.begin(), pending.end(), want));
    now = e.time;
    push(now + static_cast<Picos>(rng.below(40)));  // often equal to another pending time
    if (step % 7 == 0) push(now + static_cast<Picos>(rng.below(40)));
    if (step % 11 == 0 && !q.empty()) {
      const Event x = q.pop();
      const auto w = *std::min_element(pending.begin(), pending.end());
      ASSERT_EQ(x.tag, w.second);
      pending.erase(std::find(pending.begin(), pending.end(), w));
    }
  }
}

// Times far apart (whole buckets skipped, the top bits in play) and close together, with
// next_time() asked between pushes as a running thread does: the order is still exactly
// (time, order of scheduling), and next_time() is always the earliest pending time.
TEST(EventQueue, FarAndNearTimesAndNextTimeBetweenPushesKeepTheOrder) {
  EventQueue q;
  Rng rng(11);
  std::vector<std::pair<Picos, std::uint64_t>> pending;
  std::uint64_t tag = 0;
  auto push = [&](Picos t) {
    q.push(t, nullptr, tag);
    pending.emplace_back(t, tag++);
    ASSERT_EQ(q.next_time(), std::min_element(pending.begin(), pending.end())->first);
  };
  const Picos far = Picos{1} << 61;
  for (int i = 0; i < 64; ++i)
    push(i % 5 == 0 ? far + static_cast<Picos>(rng.below(3)) : static_cast<Picos>(rng.below(4)));
  for (int step = 0; step < 20000 && !pending.empty(); ++step) {
    ASSERT_EQ(q.next_time(), std::min_element(pending.begin(), pending.end())->first);
    const Event e = q.pop();
    const auto want = *std::min_element(pending.begin(), pending.end());
    ASSERT_EQ(e.time, want.first);
    ASSERT_EQ(e.tag, want.second);
    pending.erase(std::find(pending.begin(), pending.end(), want));
    if (step < 15000) {
      const std::uint64_t shape = rng.below(4);
      const Picos delta = shape == 0   ? 0
                          : shape == 1 ? static_cast<Picos>(rng.below(2000))
                          : shape == 2 ? static_cast<Picos>(rng.below(1u << 30))
                                       : Picos{1} << (20 + rng.below(20));
      push(e.time + delta);
    }
  }
  EXPECT_EQ(q.size(), pending.size());
}

// Ranked events (the executor's): ties of time come out by rank whatever order they were pushed in,
// and among plain events of the same time as first scheduled, first run.
TEST(EventQueue, RankedEventsOfOneTimeRunByRankWhateverOrderTheyWereScheduledIn) {
  const std::vector<std::uint64_t> ranks{40, 7, 93, 12, 65, 3, 88, 21};
  std::vector<std::size_t> order(ranks.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  Rng rng(3);
  for (int trial = 0; trial < 20; ++trial) {
    for (std::size_t i = order.size(); i > 1; --i) std::swap(order[i - 1], order[rng.below(i)]);
    EventQueue q;
    for (std::size_t i : order) {
      q.push_ranked(100, ranks[i], nullptr, ranks[i]);
      q.push_ranked(50 + static_cast<Picos>(i), ranks[i], nullptr, 1000 + i);  // earlier times first
    }
    for (std::size_t i = 0; i < ranks.size(); ++i) EXPECT_EQ(q.pop().tag, 1000 + i);
    std::vector<std::uint64_t> sorted = ranks;
    std::sort(sorted.begin(), sorted.end());
    for (std::uint64_t r : sorted) {
      EXPECT_EQ(q.next_rank(), r);
      EXPECT_EQ(q.pop().tag, r);
    }
  }
}

// The simulation's dispatch: the earliest event is taken as a hole, then the handler schedules
// none, one or several events (the first fills the hole), ranked or not, or the hole is closed.
// Against a reference list: events come out in (time, rank) order (an unranked event's rank is its
// scheduling order), next_time() and next_rank() are the earliest pending event's while the hole is
// open and after every change, and size() never counts the hole.
TEST(EventQueue, DispatchedEventsAreReplacedOrRemovedInOrder) {
  EventQueue q;
  Rng rng(23);
  struct Pending {
    Picos time;
    std::uint64_t rank;
    std::uint64_t tag;
    bool operator<(const Pending& o) const { return time != o.time ? time < o.time : rank < o.rank; }
  };
  std::vector<Pending> pending;
  std::uint64_t tag = 0;
  std::uint64_t seq = 0;  // the queue's own sequence numbers, for unranked pushes
  auto check_front = [&] {
    ASSERT_EQ(q.size(), pending.size());
    ASSERT_EQ(q.empty(), pending.empty());
    if (pending.empty()) {
      ASSERT_EQ(q.next_time(), kNever);
      return;
    }
    const Pending& first = *std::min_element(pending.begin(), pending.end());
    ASSERT_EQ(q.next_time(), first.time);
    ASSERT_EQ(q.next_rank(), first.rank);
  };
  auto push = [&](Picos t) {
    // Half ranked (ranks far above the sequence numbers, as the executor's hashed ranks are, and
    // unique), half in scheduling order.
    if (rng.below(2) == 0) {
      const std::uint64_t rank = (std::uint64_t{1} << 40) + tag;
      q.push_ranked(t, rank, nullptr, tag);
      pending.push_back({t, rank, tag++});
    } else {
      q.push(t, nullptr, tag);
      pending.push_back({t, seq++, tag++});
    }
    check_front();
  };
  for (int i = 0; i < 64; ++i) push(static_cast<Picos>(rng.below(30)));
  for (int step = 0; !pending.empty(); ++step) {
    ASSERT_LT(step, 40000);
    const Event e = q.take_top();
    const auto want = std::min_element(pending.begin(), pending.end());
    ASSERT_EQ(e.time, want->time);
    ASSERT_EQ(e.tag, want->tag);
    pending.erase(want);
    check_front();  // the hole is not an event
    // None (the queue shrinks), one (a yield) or two (a wake-up too); times equal to the
    // dispatched one, near it, or far from it. From step 20000 fewer, so the queue drains.
    const std::uint64_t pushes = step >= 20000 ? rng.below(2) : pending.size() < 16 ? 1 + rng.below(2) : rng.below(3);
    for (std::uint64_t i = 0; i < pushes; ++i) {
      const std::uint64_t shape = rng.below(3);
      push(e.time + (shape == 0 ? 0 : shape == 1 ? static_cast<Picos>(rng.below(40)) : Picos{1} << rng.below(40)));
    }
    q.close_hole();
    check_front();
  }
  EXPECT_TRUE(q.empty());
}

}  // namespace
}  // namespace walksim::sim
