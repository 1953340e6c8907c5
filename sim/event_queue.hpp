// The pending-event set: a binary min-heap ordered by (time, sequence). The sequence number makes
// ties deterministic (first scheduled, first run) whatever the heap's internal order.
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
  bool empty() const { return heap_.empty(); }
  std::size_t size() const { return heap_.size(); }
  const Event& top() const { return heap_.front(); }
  Picos next_time() const { return heap_.empty() ? kNever : heap_.front().time; }

  void push(Picos time, EventHandler* handler, std::uint64_t tag) {
    heap_.push_back(Event{time, next_seq_++, handler, tag});
    sift_up(heap_.size() - 1);
  }

  Event pop() {
    Event e = heap_.front();
    heap_.front() = heap_.back();
    heap_.pop_back();
    if (!heap_.empty()) sift_down(0);
    return e;
  }

 private:
  static bool before(const Event& a, const Event& b) {
    return a.time < b.time || (a.time == b.time && a.seq < b.seq);
  }
  void sift_up(std::size_t i) {
    Event e = heap_[i];
    while (i > 0) {
      std::size_t p = (i - 1) / 2;
      if (!before(e, heap_[p])) break;
      heap_[i] = heap_[p];
      i = p;
    }
    heap_[i] = e;
  }
  void sift_down(std::size_t i) {
    Event e = heap_[i];
    const std::size_t n = heap_.size();
    while (true) {
      std::size_t c = 2 * i + 1;
      if (c >= n) break;
      if (c + 1 < n && before(heap_[c + 1], heap_[c])) ++c;
      if (!before(heap_[c], e)) break;
      heap_[i] = heap_[c];
      i = c;
    }
    heap_[i] = e;
  }

  std::vector<Event> heap_;
  std::uint64_t next_seq_ = 0;
};

}  // namespace walksim::sim
