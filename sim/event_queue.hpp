// The pending-event set: a binary min-heap ordered by (time, sequence). The sequence number makes
// ties deterministic (first scheduled, first run) whatever the heap's internal order: (time, seq)
// is a total order, so the order events come out in does not depend on the heap's shape.
//
// A simulation of N threads keeps about N events pending and replaces the earliest per step, so
// pop is the hot operation. It moves the hole left by the root down to a leaf along the smaller
// children (one branch-free compare per level, the pair compared as one 128-bit key), then lets
// the last element rise from there (Floyd's method): about half the compares of sifting the last
// element down from the root, and no hard-to-predict branch per level.
//
// Most events schedule one more (a thread that yields asks to run again later), so the simulation
// dispatches an event without popping it: `take_top()` leaves the root as a hole, the first push
// while the hole is open fills it (the hole goes down and the new event rises from the leaf it
// reached: one pop's work, where a pop and a push moved elements twice), and `close_hole()` pops
// it if nothing did. The events come out in the same (time, sequence) order either way.
#pragma once

#include <cstdint>
#include <vector>

#include "sim/time.hpp"

namespace walksim::sim {

class EventHandler;

struct Event {
  Picos time;
  std::uint64_t seq;
  EventHandler* handler;
  std::uint64_t tag;  // meaning is private to the handler
};

class EventQueue {
 public:
  bool empty() const { return size() == 0; }
  std::size_t size() const { return heap_.size() - static_cast<std::size_t>(hole_); }
  // The earliest pending event (not while a hole is open).
  const Event& top() const { return heap_.front(); }
  // Kept up to date by every change: a running thread asks before each of its operations.
  Picos next_time() const { return next_time_; }

  void push(Picos time, EventHandler* handler, std::uint64_t tag) {
    const Event e{time, next_seq_++, handler, tag};
    if (hole_) {
      hole_ = false;
      sift_down_from_root(e);
    } else {
      heap_.push_back(e);
      sift_up(heap_.size() - 1, heap_.back());
    }
    next_time_ = heap_.front().time;
  }

  Event pop() {
    const Event e = heap_.front();
    const Event last = heap_.back();
    heap_.pop_back();
    if (!heap_.empty()) fill_root(last);
    next_time_ = heap_.empty() ? kNever : heap_.front().time;
    return e;
  }

  // The earliest event, left in place as a hole that the next push fills (see the top).
  Event take_top() {
    hole_ = true;
    // The earliest event still pending is one of the hole's children.
    const std::size_t n = heap_.size();
    next_time_ = n < 2 ? kNever : n == 2 || heap_[1].time < heap_[2].time ? heap_[1].time : heap_[2].time;
    return heap_.front();
  }
  // Ends a take_top(): removes the hole if no push filled it.
  void close_hole() {
    if (!hole_) return;
    hole_ = false;
    pop();
  }

 private:
  __extension__ typedef unsigned __int128 Key;  // GCC/Clang extension: one compare for (time, seq)
  // Times are never negative (the simulation starts at 0 and never schedules in the past).
  static Key key(const Event& e) { return (Key{static_cast<std::uint64_t>(e.time)} << 64) | e.seq; }

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

  // Puts `e` in the root's place and moves it down while a child is earlier. A yielding thread's
  // next time is often near the front (it ran one short operation), so this stops early where
  // fill_root's hole would go all the way down and the event climb most of the way back.
  void sift_down_from_root(const Event e) {
    const Key k = key(e);
    const std::size_t n = heap_.size();
    std::size_t i = 0;
    while (2 * i + 1 < n) {
      std::size_t c = 2 * i + 1;
      if (c + 1 < n && key(heap_[c + 1]) < key(heap_[c])) ++c;
      if (!(key(heap_[c]) < k)) break;
      heap_[i] = heap_[c];
      i = c;
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
  Picos next_time_ = kNever;  // the earliest pending event's time
};

}  // namespace walksim::sim
