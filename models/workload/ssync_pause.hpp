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

// A bound on how long a core that has just been granted a contended line can keep it, among
// `cpus`: the owner's window of docs/model.md ("Grants"). At a blocking home the next grant waits
// for the owner's completion message to reach the home and for the home to forward the next
// request to it: two one-way trips, each at most the largest between two of the run's cores on
// different cores (the miss known in the outermost cache, plus the interconnect between their
// cache domains, zero inside one), plus the lookups (directory, the owner's probe, an on-die
// snoop). At a forwarding home the owner keeps the line `home_retention` after its data arrived,
// if that is longer. Zero for one core.
//
// SSYNC paused "long enough that a thread cannot complete two operations in a row locally": a
// thread that waits out the window finds its next request queued behind the other threads'
// instead of hitting in its own cache. The bound is about one whole transfer long. Since the
// window became shorter (2026-12-03: the request leaves after half the outermost cache's latency,
// and the owner loses the line when the probe reaches it, before its lookup and answer) it exceeds
// the window by about 1.5 miss detections and the probe's lookup. It was kept as it was (still
// "long enough"), so that the `auto` runs did not change their pause with the window; made equal
// to the new window, the shipped SSYNC rows went from 42 to 36 of 76 within 25%.
// It throttles a run of two or three threads at most.
sim::Picos ssync_pause(const machine::Machine& m, const std::vector<machine::CpuId>& cpus);

// A pause parameter: a time per operation (at most one second), or `auto` for ssync_pause() of
// the run's machine and CPUs (nullopt).
std::optional<sim::Picos> read_pause(const config::Node& n);

}  // namespace walksim::workload
