// The run loop: pop the earliest event, advance the clock to it, dispatch it.
#include "sim/simulation.hpp"

#include <stdexcept>
#include <string>

namespace walksim::sim {

void Simulation::schedule(Picos at, EventHandler* handler, std::uint64_t tag) {
  check_time(at);
  queue_.push(at, handler, tag);
}

void Simulation::schedule_ranked(Picos at, std::uint64_t rank, EventHandler* handler, std::uint64_t tag) {
  check_time(at);
  queue_.push_ranked(at, rank, handler, tag);
}

void Simulation::check_time(Picos at) const {
  if (at < now_) {
    // A negative time is not a logic error of the model but a sum that wrapped (the executor
    // checks its own additions; this catches any other caller): report it as bad input.
    if (at < 0) {
      throw std::runtime_error("simulated time overflowed: an event was scheduled at " + std::to_string(at) +
                               " ps, past the end of the clock (9.2e18 ps, about 106 days); a time input "
                               "(a latency, cost, user time or run length) is too large");
    }
    throw std::logic_error("event scheduled in the past: " + std::to_string(at) + " ps < now " + std::to_string(now_) +
                           " ps");
  }
}

bool Simulation::step() {
  if (queue_.empty()) return false;
  // The event stays in the queue as a hole that the handler's first schedule() fills (a yielding
  // thread reschedules itself): one heap repair instead of a pop's and a push's (event_queue.hpp).
  const Event e = queue_.take_top();
  now_ = e.time;
  ++events_run_;
  struct CloseHole {  // also when the handler throws, so the queue stays whole
    EventQueue& q;
    ~CloseHole() { q.close_hole(); }
  } close{queue_};
  e.handler->on_event(e.tag);
  return true;
}

std::uint64_t Simulation::run(Picos until) {
  stopped_ = false;
  const std::uint64_t before = events_run_;
  while (!stopped_ && !queue_.empty() && queue_.next_time() <= until) step();
  return events_run_ - before;
}

}  // namespace walksim::sim
