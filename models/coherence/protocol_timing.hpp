// How long an inter-domain coherence transaction takes, composed from the machine's component
// latencies. One class per protocol family, chosen at run time from the machine YAML. The
// state transitions are shared (memory_system.cpp); only message flow and its timing differ.
#pragma once

#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "models/machine/machine.hpp"
#include "sim/time.hpp"

namespace walksim::coherence {

using machine::DomainId;
using machine::NodeId;
using sim::Picos;

// A request that the requester's own cache domain cannot satisfy.
struct Transaction {
  DomainId requester;
  NodeId home;
  bool needs_data;                    // false for an upgrade: the requester's domain has the data
  bool exclusive;                     // store or atomic: every other copy must be invalidated
  std::optional<DomainId> supplier;   // another domain that answers with data (dirty, owned, forwarder)
  std::span<const DomainId> holders;  // other domains holding a copy; filled for an exclusive request only
  // Another core holds a copy that is not a lone exclusive (E/M) one: the line is Shared or Owned
  // somewhere, the requester's own domain included. A directory that records owners only must
  // then invalidate by broadcast (sharers: owner-only).
  bool shared = false;
  // The supplier domain's cores share the line clean and its inclusive shared cache holds it: a
  // machine whose probe cost is the snoop of the owning core behind that cache (coherence.
  // remote_shared_reads: llc) has the cache answer without it.
  bool supplier_shared_clean = false;
};

// A transaction's latency split where the line is serialised (docs/model.md, "Grants"):
//   req   the outermost cache's lookup that finds the miss (Machine::miss_departure) and the
//         request carried to the home (its completion message, sent when the data has arrived,
//         travels the same path back: the "ack" leg is taken equal);
//   home  the home's own work (directory lookup, or the DRAM read when memory answers);
//   fwd   from the home to the moment the transaction takes effect at the current owner or the
//         sharers: the forwarded probe or snoop reaching the owner's cache; 0 when memory or the
//         home answers;
//   data  from that moment to the data or permission arriving in the requesting core: the
//         owner's lookup and answer (probe_lookup), the trip back, the fill (Machine::fill_return).
// The sum is the latency the protocol has always given; the split only says when, inside it,
// the line changes hands.
struct Legs {
  Picos req = 0, home = 0, fwd = 0, data = 0;
  Picos total() const { return req + home + fwd + data; }
  Picos ack() const { return req; }
};

class ProtocolTiming {
 public:
  virtual ~ProtocolTiming() = default;
  // Latency from the core's request to data (or permission) arriving, including the on-chip
  // lookup that found the miss, in its legs.
  virtual Legs legs(const Transaction& t) const = 0;
  Picos latency(const Transaction& t) const { return legs(t).total(); }
  // True when the shared cache keeps per-core presence (inclusive L3 core-valid bits, shadow
  // tags), so that a copy in another core of the same domain is found on chip.
  virtual bool tracks_core_copies() const = 0;
  // True when a read of a dirty line leaves the old owner responsible for it (MOESI O state);
  // false when the dirty data is written back to memory as it is shared.
  virtual bool keeps_dirty_sharing() const = 0;
  // True when a clean shared line has one forwarding copy that answers reads (MESIF F state).
  virtual bool has_forward_state() const = 0;
  // The snoop of a sibling core in the requester's own domain: the inclusive L3's snoop of a
  // core holding the line clean or dirty (MESIF), else the probe filter's / directory's lookup.
  virtual Picos onchip_snoop(bool dirty) const = 0;
};

std::unique_ptr<ProtocolTiming> make_protocol_timing(const machine::Machine& m);

}  // namespace walksim::coherence
