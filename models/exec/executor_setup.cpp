// The executor's set-up and end: each core's SMT speed and whether its threads run ahead, the
// exact run-ahead window, the checks at the end of a run, and the errors of cold paths. Kept apart
// from the scheduler and the operations' semantics (executor.cpp), none of it on the hot path.
#include <algorithm>
#include <stdexcept>
#include <string>

#include "models/exec/executor.hpp"

namespace walksim::exec {

// Static rule: a sibling counts from its start to the end of the run, finished, asleep or spinning
// alike. Threads run ahead on their own clocks, so whether a sibling is still running "now" is not
// known when a thread executes; the workloads pin every process for the whole run.
void Executor::set_core_speed(machine::CoreId core) {
  const auto& m = mem_.machine();
  const CpuId first = m.first_cpu_of(core);
  const std::uint32_t n = m.spec().threads_per_core;
  std::uint32_t hosting = 0;
  for (CpuId c = first; c < first + n; ++c) hosting += hosts_[c];
  // The generation floor times nothing, so it keeps every access at its fixed cost.
  const CoreSpeed speed = hosting > 1 && !mem_.floor_mode() ? CoreSpeed(m.smt_throughput_ppm()) : CoreSpeed();
  for (CpuId c = first; c < first + n; ++c) {
    Thread& t = threads_[c];
    t.speed = speed;
    t.issue = speed(m.cycle());
    t.runs_ahead = run_ahead_ > 0 && hosting <= 1;
    if (t.program) t.program->set_core_speed(speed);
  }
}

std::uint32_t Executor::smt_cores() const {
  const auto& m = mem_.machine();
  std::uint32_t shared = 0;
  for (machine::CoreId core = 0; core < m.cores(); ++core) {
    std::uint32_t hosting = 0;
    for (std::uint32_t i = 0; i < m.spec().threads_per_core; ++i) hosting += hosts_[m.first_cpu_of(core) + i];
    shared += hosting > 1;
  }
  return shared;
}

void Executor::run(const std::function<void(Picos now)>& watch, Picos slice) {
  if (watch && slice > 0) {
    while (!sim_.idle()) {
      const Picos next = sim_.next_event_time();
      sim_.run(next > sim::kNever - slice ? sim::kNever : next + slice);
      watch(sim_.now());
    }
  } else {
    sim_.run();
  }
  if (mem_.waiting() > 0) {
    throw std::logic_error(std::to_string(mem_.waiting()) + " request(s) still queued on lines when the run ended");
  }
  if (parked_ > 0) {
    throw std::logic_error(std::to_string(parked_) +
                           " thread(s) still parked in a spin-wait that no write will end (lost wake-up or deadlock)");
  }
}

void Executor::throw_time_overflow(CpuId cpu) {
  // Not a logic_error: the model is fine, an input is not (the loaders cap each time input, but
  // enough of them in one run can still reach the end of the clock).
  throw std::runtime_error("simulated time overflowed on CPU " + std::to_string(cpu) +
                           ": its clock would pass the end of the simulated clock (9.2e18 ps, about 106 days; "
                           "memory accesses must start in its first half); a time input (a latency, cost, user "
                           "time, scale factor or run length) is too large");
}

std::uint64_t& Executor::grown_word_ref(coherence::GrowingArray<std::uint64_t>& store, std::size_t i) {
  store.resize(i + 1, 0);  // the array doubles its mapping, not its contents
  return store[i];
}

// An access another core issues takes effect (at its grant, or for a read its domain's shared cache
// answers, once the lookup that found the miss is done) no earlier than its request leg later. Between
// cores of one domain that leg is the lookup alone (miss_departure): a sibling's read answered by the
// shared cache, or a transfer inside the domain. Where every domain is a single core, another core's
// access to a line this core holds always goes to the line's home, so its request leg also crosses
// to a node: a domain_link at least (the Altix: 5 + 15 ns instead of 5). Cores of other domains never
// take effect sooner than that on any machine, but a domain of several cores has siblings.
Picos Executor::exact_window() const {
  const auto& m = mem_.machine();
  Picos leg = m.miss_departure();
  if (m.cores_per_domain() == 1) {
    Picos to_home = sim::kNever;
    for (machine::DomainId d = 0; d < m.domains(); ++d) {
      for (machine::NodeId n = 0; n < m.nodes(); ++n) to_home = std::min(to_home, m.domain_to_node(d, n));
    }
    leg += to_home;
  }
  return std::max<Picos>(leg - 1, 0);
}

}  // namespace walksim::exec
