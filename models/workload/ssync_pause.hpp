// The pause of the SSYNC stress tests between two operations of one thread: "long enough that it
// cannot complete two operations in a row locally", scaling with the largest latency among the
// cores involved (contention.md, "How the stress tests ran"). Derived from the machine here, so
// that an experiment need not guess it per machine and thread count.
#pragma once

#include <optional>
#include <vector>

#include "models/config/strict_yaml.hpp"
#include "models/machine/machine.hpp"
#include "sim/time.hpp"

namespace walksim::workload {

// Twice the largest one-way latency between two of `cpus` on different cores, where one way is
// the miss being known in the sender's hierarchy (its outermost cache's latency) plus the
// interconnect between their cache domains (zero inside a domain). Zero for one core.
//
// Why twice: under a home-serialised protocol the core that has just received a contended line
// keeps it until the next request has reached the home and been forwarded to it — the new owner's
// completion message to the home and the home's forward, two one-way legs. A thread that pauses
// that long finds its own next request queued behind the other threads' instead of hitting in its
// cache, which is what SSYNC's pause ensures; and the pause stays shorter than one transfer of the
// line (request, forward and data legs), so it does not become the bottleneck.
sim::Picos ssync_pause(const machine::Machine& m, const std::vector<machine::CpuId>& cpus);

// A pause parameter: a time per operation (at most one second), or `auto` for ssync_pause() of
// the run's machine and CPUs (nullopt).
std::optional<sim::Picos> read_pause(const config::Node& n);

}  // namespace walksim::workload
