// The run loop: pop the earliest event, advance the clock to it, dispatch it.
#include "sim/simulation.hpp"

#include <stdexcept>
#include <string>

namespace walksim::sim {

void Simulation::schedule(Picos at, EventHandler* handler, std::uint64_t tag) {
  if (at < now_) {
    throw std::logic_error("event scheduled in the past: " + std::to_string(at) + " ps < now " +
                           std::to_string(now_) + " ps");
  }
  queue_.push(at, handler, tag);
}

bool Simulation::step() {
  if (queue_.empty()) return false;
  const Event e = queue_.pop();
  now_ = e.time;
  ++events_run_;
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
