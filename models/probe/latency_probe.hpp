// Latency probes run on the simulator itself: each measurement builds a fresh memory system,
// puts the line into the wanted state by executing operations, then times one operation. The
// ping-pong runs two threads handing a flag back and forth through the executor.
#pragma once

#include <string>
#include <vector>

#include "models/machine/machine.hpp"

namespace walksim::probe {

struct ProbeEntry {
  std::string op;      // load | store | cas
  std::string state;   // M | E | S | I: the line's state in the holder's cache before the operation
  std::string holder;  // own | smt-sibling | same-socket | other-l3-same-socket | same-node | N-hop | none (I)
  std::string home;    // local | remote (to the requester)
  std::uint32_t home_node = 0;
  std::uint32_t holder_cpu = 0;
  sim::Picos latency = 0;
  double cycles = 0;
};

struct PingPongEntry {
  std::string distance;  // the holder names above, other than own and none
  std::uint32_t partner_cpu = 0;
  sim::Picos round_trip = 0;
};

struct ProbeReport {
  std::string machine;
  std::vector<ProbeEntry> entries;
  std::vector<PingPongEntry> pingpong;
};

// The requester is CPU 0; holders are chosen at each distance the machine has.
ProbeReport run_latency_probe(const machine::Machine& m);

}  // namespace walksim::probe
