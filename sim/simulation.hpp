// One simulation: the clock, the pending events and the seeded RNG, passed by reference to every
// model (no globals, so tests can run many simulations side by side).
#pragma once

#include <cstdint>

#include "sim/event_queue.hpp"
#include "sim/rng.hpp"
#include "sim/time.hpp"

namespace walksim::sim {

// Anything that receives events. The tag is the handler's own business (which core, which step).
class EventHandler {
 public:
  virtual void on_event(std::uint64_t tag) = 0;

 protected:
  ~EventHandler() = default;
};

class Simulation {
 public:
  explicit Simulation(std::uint64_t seed) : rng_(seed) {}
  Simulation(const Simulation&) = delete;
  Simulation& operator=(const Simulation&) = delete;

  Picos now() const { return now_; }
  Rng& rng() { return rng_; }

  // Schedules handler->on_event(tag) at time `at`; at < now() is a programming error
  // (std::logic_error), except a negative `at`, an overflowed sum (std::runtime_error).
  void schedule(Picos at, EventHandler* handler, std::uint64_t tag);
  // The same with the event's rank among events of its time given (EventQueue::push_ranked): the
  // lower runs first, whatever order they were scheduled in.
  void schedule_ranked(Picos at, std::uint64_t rank, EventHandler* handler, std::uint64_t tag);
  Picos next_event_time() const { return queue_.next_time(); }
  // The next event's rank among those of its time (only when one is pending).
  std::uint64_t next_event_rank() const { return queue_.next_rank(); }
  bool idle() const { return queue_.empty(); }
  // Two pending events that differ but share one time and one rank (EventQueue::has_tied_events).
  bool has_tied_events() const { return queue_.has_tied_events(); }

  // Runs events in (time, rank) order until none is left, the next is later than `until`,
  // or stop() was called. Returns the number of events run.
  std::uint64_t run(Picos until = kNever);
  // Runs exactly one event if there is one; false when the queue is empty.
  bool step();
  void stop() { stopped_ = true; }

  std::uint64_t events_run() const { return events_run_; }

 private:
  void check_time(Picos at) const;

  EventQueue queue_;
  Rng rng_;
  Picos now_ = 0;
  std::uint64_t events_run_ = 0;
  bool stopped_ = false;
};

}  // namespace walksim::sim
