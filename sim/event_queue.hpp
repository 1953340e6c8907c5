// The pending-event set: a binary min-heap ordered by (time, rank). An event's rank is its
// sequence number unless its scheduler gives one (push_ranked): ties are then first scheduled,
// first run, whatever the heap's internal order, since (time, seq) is a total order. A scheduler
// whose ties must not depend on the order it scheduled them in (the executor: a thread running
// ahead schedules in another order than one stepping) ranks its events by what they are, and
// gives no two different events one time and one rank (Executor::schedule_run); two such events
// would come out in an order the heap's history decides.
//
// A simulation of N threads keeps about N events pending and replaces the earliest per step, so
// pop is the hot operation. It moves the hole left by the root down to a leaf along the smaller
// children (one branch-free compare per level, the pair compared as one 128-bit key), then lets
// the last element rise from there (Floyd's method): about half the compares of sifting the last
// element down from the root, and no hard-to-predict branch per level.
//
// Most events schedule one more (a thread that yields asks to run again a little later), so the
// simulation dispatches an event without popping it: `take_top()` leaves the root as a hole, the
// first push while the hole is open fills it by a sift-down from the root that stops where the new
// event belongs (one repair, where a pop and a push made two), and `close_hole()` pops it if
// nothing did. Events come out in the same (time, rank) order either way; two of one time and
// one rank may come out in another order, which is why the executor makes none that differ
// (docs/performance.md, "Twenty-sixth step" and "Twenty-seventh step").
#pragma once

#include <cstdint>
#include <vector>

#include "sim/time.hpp"

namespace walksim::sim {

class EventHandler;

struct Event {
  Picos time;
  std::uint64_t rank;  // ties of time: the lower first (the sequence number unless given)
  EventHandler* handler;
  std::uint64_t tag;  // meaning is private to the handler
};

class EventQueue {
 public:
  bool empty() const { return size() == 0; }
  std::size_t size() const { return heap_.size() - static_cast<std::size_t>(hole_); }
  // The earliest pending event (not while a hole is open).
  const Event& top() const { return heap_.front(); }
  // Kept up to date by every change (a running thread asks before each of its operations), the
  // hole left out.
  Picos next_time() const { return next_time_; }
  // The earliest event's rank (meaningful only when the queue is not empty).
  std::uint64_t next_rank() const { return next_rank_; }

  void push(Picos time, EventHandler* handler, std::uint64_t tag) { push_ranked(time, next_seq_++, handler, tag); }
  void push_ranked(Picos time, std::uint64_t rank, EventHandler* handler, std::uint64_t tag) {
    const Event e{time, rank, handler, tag};
    if (hole_) {
      hole_ = false;
      sift_down_from_root(e);
    } else {
      heap_.push_back(e);
      sift_up(heap_.size() - 1, e);
    }
    note_front();
  }

  Event pop() {
    const Event e = heap_.front();
    const Event last = heap_.back();
    heap_.pop_back();
    if (heap_.empty()) {
      next_time_ = kNever;
      return e;
    }
    fill_root(last);
    note_front();
    return e;
  }

  // The earliest event, left in place as a hole that the next push fills (see the top).
  Event take_top() {
    hole_ = true;
    // The earliest event still pending is one of the hole's children.
    const std::size_t n = heap_.size();
    if (n < 2) {
      next_time_ = kNever;
    } else {
      const Event& c = n == 2 || key(heap_[1]) < key(heap_[2]) ? heap_[1] : heap_[2];
      next_time_ = c.time;
      next_rank_ = c.rank;
    }
    return heap_.front();
  }
  // Whether two pending events of one time and one rank differ (in handler or tag): their order
  // would be the heap's history's choice. A check for tests (quadratic in the queue's size).
  bool has_tied_events() const {
    for (std::size_t i = hole_ ? 1 : 0; i < heap_.size(); ++i) {
      for (std::size_t j = i + 1; j < heap_.size(); ++j) {
        const Event& a = heap_[i];
        const Event& b = heap_[j];
        if (a.time == b.time && a.rank == b.rank && (a.handler != b.handler || a.tag != b.tag)) return true;
      }
    }
    return false;
  }
  // Ends a take_top(): removes the hole if no push filled it.
  void close_hole() {
    if (!hole_) return;
    hole_ = false;
    pop();
  }

 private:
  __extension__ typedef unsigned __int128 Key;  // GCC/Clang extension: one compare for (time, rank)
  // Times are never negative (the simulation starts at 0 and never schedules in the past).
  static Key key(const Event& e) { return (Key{static_cast<std::uint64_t>(e.time)} << 64) | e.rank; }

  void note_front() {
    next_time_ = heap_.front().time;
    next_rank_ = heap_.front().rank;
  }

  // Puts `e` in the root's place (the root's event is gone) and restores the heap.
  void fill_root(const Event e) {
    const std::size_t n = heap_.size();
    // The hole at the root goes down to a leaf along the smaller child...
    std::size_t i = 0;
    while (2 * i + 2 < n) {
      const std::size_t c = 2 * i + 1;
      const std::size_t smaller = c + static_cast<std::size_t>(key(heap_[c + 1]) < key(heap_[c]));
      heap_[i] = heap_[smaller];
      i = smaller;
    }
    if (2 * i + 1 < n) {
      heap_[i] = heap_[2 * i + 1];
      i = 2 * i + 1;
    }
    // ...and the event rises from there to its place.
    sift_up(i, e);
  }

  // Puts `e` in the root's place and moves it down while a child is earlier (the smaller child
  // picked without a branch). A yielding thread's next time is mostly near the front (it ran
  // ahead a little), so this stops early where fill_root's hole would go all the way down and the
  // event climb most of the way back.
  void sift_down_from_root(const Event e) {
    const Key k = key(e);
    const std::size_t n = heap_.size();
    std::size_t i = 0;
    while (2 * i + 2 < n) {
      const std::size_t c = 2 * i + 1;
      const std::size_t smaller = c + static_cast<std::size_t>(key(heap_[c + 1]) < key(heap_[c]));
      if (!(key(heap_[smaller]) < k)) break;
      heap_[i] = heap_[smaller];
      i = smaller;
    }
    if (2 * i + 2 == n && key(heap_[2 * i + 1]) < k) {  // a last child without a sibling
      heap_[i] = heap_[2 * i + 1];
      i = 2 * i + 1;
    }
    heap_[i] = e;
  }

  void sift_up(std::size_t i, const Event e) {
    const Key k = key(e);
    while (i > 0) {
      const std::size_t p = (i - 1) / 2;
      if (!(k < key(heap_[p]))) break;
      heap_[i] = heap_[p];
      i = p;
    }
    heap_[i] = e;
  }

  std::vector<Event> heap_;
  std::uint64_t next_seq_ = 0;
  bool hole_ = false;         // heap_[0] is a dispatched event's slot (take_top)
  Picos next_time_ = kNever;  // the earliest pending event's time and rank
  std::uint64_t next_rank_ = 0;
};

}  // namespace walksim::sim
