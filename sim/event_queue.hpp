// The pending-event set: a binary min-heap ordered by (time, rank, tag). An event's rank is its
// sequence number unless its scheduler gives one (push_ranked): ties are then first scheduled,
// first run, whatever the heap's internal order, since (time, seq) is a total order. A scheduler
// whose ties must not depend on the order it scheduled them in (the executor: a thread running
// ahead schedules in another order than one stepping) ranks its events by what they are; two
// events of one time and one given rank (a thread's superseded turn beside its live one) then
// leave in the order of their tags. So the order in which events leave is a property of the events,
// not of the heap's history: any correct queue of this order dispatches the same sequence.
//
// A simulation of N threads keeps about N events pending and replaces the earliest per step, so
// pop is the hot operation. It moves the hole left by the root down to a leaf along the smaller
// children (one compare per level, (time, rank) compared as one 128-bit key), then lets
// the last element rise from there (Floyd's method): about half the compares of sifting the last
// element down from the root.
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
  std::uint64_t tag;  // meaning is private to the handler; ties of time and rank: the lower first
};

class EventQueue {
 public:
  bool empty() const { return heap_.empty(); }
  std::size_t size() const { return heap_.size(); }
  const Event& top() const { return heap_.front(); }
  Picos next_time() const { return heap_.empty() ? kNever : heap_.front().time; }
  // The earliest event's rank (meaningful only when the queue is not empty).
  std::uint64_t next_rank() const { return heap_.front().rank; }

  void push(Picos time, EventHandler* handler, std::uint64_t tag) { push_ranked(time, next_seq_++, handler, tag); }
  void push_ranked(Picos time, std::uint64_t rank, EventHandler* handler, std::uint64_t tag) {
    heap_.push_back(Event{time, rank, handler, tag});
    sift_up(heap_.size() - 1, heap_.back());
  }

  Event pop() {
    const Event e = heap_.front();
    const Event last = heap_.back();
    heap_.pop_back();
    const std::size_t n = heap_.size();
    if (n == 0) return e;
    // The hole at the root goes down to a leaf along the smaller child...
    std::size_t i = 0;
    while (2 * i + 2 < n) {
      const std::size_t c = 2 * i + 1;
      const std::size_t smaller = c + static_cast<std::size_t>(before(heap_[c + 1], heap_[c]));
      heap_[i] = heap_[smaller];
      i = smaller;
    }
    if (2 * i + 1 < n) {
      heap_[i] = heap_[2 * i + 1];
      i = 2 * i + 1;
    }
    // ...and the last element rises from there to its place.
    sift_up(i, last);
    return e;
  }

 private:
  __extension__ typedef unsigned __int128 Key;  // GCC/Clang extension: one compare for (time, rank)
  // Times are never negative (the simulation starts at 0 and never schedules in the past).
  static Key key(const Event& e) { return (Key{static_cast<std::uint64_t>(e.time)} << 64) | e.rank; }
  // The queue's order: (time, rank), then the tag (equal keys are rare: only then is the tag read).
  static bool before(const Event& a, const Event& b) {
    const Key ka = key(a), kb = key(b);
    return ka < kb || (ka == kb && a.tag < b.tag);
  }

  void sift_up(std::size_t i, const Event e) {
    while (i > 0) {
      const std::size_t p = (i - 1) / 2;
      if (!before(e, heap_[p])) break;
      heap_[i] = heap_[p];
      i = p;
    }
    heap_[i] = e;
  }

  std::vector<Event> heap_;
  std::uint64_t next_seq_ = 0;
};

}  // namespace walksim::sim
