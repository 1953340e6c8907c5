// Small machines built in code for the coherence tests, with round numbers so that closed forms
// can be written down by hand. Real machines come from configs/machines.
#pragma once

#include "models/machine/machine_spec.hpp"

namespace walksim::coherence::testing {

// Two nodes, one socket each, `cores` cores per socket, 1 thread per core unless `smt`.
// L1 1 ns, L2 4 ns private, L3 10 ns shared per socket (inclusion as given), link 20 ns,
// dram 50 ns, probe 5 ns, directory 7 ns, snoops 8/12 ns, atomic 3 ns.
machine::MachineSpec two_socket(machine::ProtocolKind protocol, machine::Inclusion l3, std::uint32_t cores = 2,
                                std::uint32_t threads = 1);
// `nodes` nodes in a line n0-n1-...; one core per node, private caches only (every core its own domain).
machine::MachineSpec chain(std::uint32_t nodes, machine::ProtocolKind protocol);
// Shrinks every cache to a few lines so that random tests evict constantly.
machine::MachineSpec tiny_caches(machine::MachineSpec spec);

}  // namespace walksim::coherence::testing
