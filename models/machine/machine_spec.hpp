// The machine as declared in configs/machines/*.yaml, after units are parsed and `extends:` is
// resolved. Plain data: the loader fills it, the runtime Machine and the coherence protocols read
// it. Every latency here is a *component*; composites (a miss, a transfer) are built by the
// protocols from these parts, never typed in.
#pragma once

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/time.hpp"

namespace walksim::machine {

using sim::Picos;

// How a cache level relates to the levels closer to the core.
enum class Inclusion {
  kInclusive,     // holds a superset of the levels above (Nehalem L3: evicting it back-invalidates)
  kExclusive,     // holds no line the levels above hold (K10 L2 versus L1)
  kVictim,        // filled only by evictions from the levels above (K10 L3)
  kNonInclusive,  // filled on misses, no back-invalidation
};

enum class ProtocolKind {
  kMoesiBroadcast,  // AMD K8/K10: home broadcasts probes to every node, waits for all responses
  kMesiBroadcast,   // the same message flow without the O state: dirty data goes back to memory when shared
  kMesifInclusive,  // Intel Nehalem/Westmere: source snoop, inclusive L3 core-valid bits filter on-die snoops
  kDirectory,       // SGI SHub, modern: home directory, 3-hop forwarding, invalidation fan-out with acks
};

// How a family's messages travel (protocol_timing.cpp has one timing class for each).
enum class Messaging {
  kBroadcast,  // probes to every cache domain, from the home or from the requester (`probe_origin`)
  kDirectory,  // the home looks the line up and forwards to the owner or invalidates the sharers
};

// Every protocol family: its name in a machine YAML (`coherence.protocol`) and what it is made of.
// The loader reads names, keys and costs from it, the timing is chosen by its messaging, the state
// transitions (memory_system.cpp) ask its traits, and the closed-form suite
// (protocol_closed_form_test.cpp) runs over it. A new family is one enum value, one row here and
// its column of closed forms (docs/architecture.md, "Extension points").
struct ProtocolFamily {
  const char* name;
  ProtocolKind kind;
  Messaging messaging;
  // MOESI's O state: a line read while Modified stays dirty with its writer, which answers later
  // reads; without it the dirty data is written back as the line is shared. (A directory that
  // records owners only keeps it too, whatever this says: `sharers: owner-only`, HT Assist.)
  bool owned_state;
  // MESIF's F state: one clean shared copy answers reads.
  bool forward_state;
  // The inclusive L3's own snoop costs of a sibling core's clean or dirty copy
  // (`costs.onchip_snoop_clean` / `onchip_snoop_dirty`); otherwise on-chip snoops cost `probe_lookup`.
  bool onchip_snoop_costs;
  const char* summary;
};
inline constexpr ProtocolFamily kProtocolFamilies[] = {
    {"moesi-broadcast", ProtocolKind::kMoesiBroadcast, Messaging::kBroadcast, true, false, false,
     "AMD K8/K10 (HyperTransport): MOESI, the home broadcasts probes to every node and waits for every answer"},
    {"mesi-broadcast", ProtocolKind::kMesiBroadcast, Messaging::kBroadcast, false, false, false,
     "MOESI's message flow without the O state: a dirty line is written back as it is shared (a what-if: "
     "what the O state is worth)"},
    {"mesif-inclusive", ProtocolKind::kMesifInclusive, Messaging::kBroadcast, false, true, true,
     "Intel Nehalem/Westmere (QPI): MESIF, source snoop, the inclusive L3's core-valid bits filter on-die snoops"},
    {"directory", ProtocolKind::kDirectory, Messaging::kDirectory, false, false, false,
     "a home directory (SGI SHub, HT Assist, modern snoop filters): 3-hop forwarding to the owner, "
     "invalidations fanned out from the home with acknowledgements"},
};

// The row of a family; a kind without one is a programming error.
inline const ProtocolFamily& protocol_family(ProtocolKind k) {
  for (const ProtocolFamily& f : kProtocolFamilies) {
    if (f.kind == k) return f;
  }
  throw std::logic_error("protocol kind without a row in kProtocolFamilies");
}

// When the home lets the next transaction on a line proceed (docs/model.md, "Grants").
enum class HomePolicy {
  kBlocking,       // only after the previous requester's completion message reaches the home (AMD
                   // HyperTransport SrcDone, Intel home agent): a saturated line moves once per
                   // transaction latency
  kBusyOnForward,  // as kBlocking for a transaction the home forwarded to the line's owner; one the
                   // home answers itself (data from memory, or ownership whose invalidation acks go
                   // to the requester) frees it once the home has done its part (SGI Origin/SHub
                   // directories: busy states exist for interventions only)
  kForwarding,     // as soon as it has forwarded the previous one; the new owner keeps the line for
                   // `home_retention` after its data arrived
};

// In which order the home takes the requests that wait for one line (docs/model.md, "Grants").
enum class ServiceOrder {
  kArrival,         // in the order they reach the home
  kNodeRoundRobin,  // by requesting node in turn: after serving a request from node n, the home takes
                    // the earliest request that has arrived from the first node after n (cyclically)
                    // that has one waiting; n's own next request only when no other node's has arrived
};

enum class ProbeOrigin {
  kHome,       // probes are sent by the home node after the request reaches it (AMD)
  kRequester,  // probes are sent by the requester in parallel with the request to home (Intel source snoop)
};

struct CacheLevelSpec {
  std::string name;         // "L1D", "L2", "L3"
  std::uint32_t shared_by;  // cores sharing one instance: 1 = private to a core
  std::uint64_t size_bytes;
  std::uint32_t ways;
  Picos latency;        // load-to-use latency of a hit at this level, from the core
  Inclusion inclusion;  // relative to the levels above it
};

struct LinkSpec {
  std::string a;  // vertex names: nodes "n0".."n{N-1}", or router names
  std::string b;
  Picos latency;                 // one-way latency of a message crossing the link
  double bandwidth_bytes_per_s;  // per direction
};

struct TopologySpec {
  std::vector<std::string> routers;  // vertices that are not NUMA nodes
  std::vector<LinkSpec> links;       // undirected
  Picos router_latency = 0;          // added for each router a message passes through
  Picos domain_link = 0;             // one-way, between a last-level-cache domain and its node's home
                                     // agent when they are on different dies (chiplets); 0 on a monolithic die
  bool model_bandwidth = false;      // when true, links carry occupancy (size / bandwidth) and queue
};

struct CoherenceCosts {
  Picos probe_lookup = 0;      // a cache answering a probe, snoop or forwarded request (lookup + response)
  Picos directory_lookup = 0;  // home directory read (directory protocol; overlaps the DRAM access)
  Picos onchip_snoop_clean =
      0;  // inclusive L3 hit whose core-valid bits force a snoop; line clean (extra over an L3 hit)
  Picos onchip_snoop_dirty = 0;  // as above, line modified in the other core (extra over an L3 hit)
  Picos atomic_overhead = 0;     // a locked read-modify-write beyond the cost of owning the line in M
  Picos fence = 0;               // a full fence (mfence / smp_mb) with an empty store buffer
  Picos branch_mispredict = 0;   // a failed cmpxchg's retry branch: the pipeline restarts before the retry
};

// How an idle CPU is woken (docs/model.md, "Sleeping and waking"): an idle loop that halts needs an
// inter-processor interrupt, one that mwaits on its thread_info line wakes when the waker writes it.
enum class IdleWake { kIpi, kMwait };

struct InterruptCosts {
  IdleWake idle_wake = IdleWake::kIpi;
  Picos ipi_send = 0;   // the waker's APIC writes for one IPI (only when idle_wake is kIpi)
  Picos wake_exit = 0;  // from the signal reaching the idle CPU to its running again: the IPI's entry, or mwait's exit
};

struct MachineSpec {
  std::string name;
  std::string description;
  std::string file;  // the YAML it came from

  std::uint32_t nodes = 0;  // NUMA nodes; each has memory and a home agent
  std::uint32_t sockets_per_node = 0;
  std::uint32_t cores_per_socket = 0;
  std::uint32_t threads_per_core = 0;  // SMT hardware threads per core (CPUs = product of the four)
  // Speed of one hardware thread, as a fraction of its speed alone on the core, while its SMT
  // siblings run processes too: 0.6 means the core does 1.2x one thread's work. In (0, 1]; read
  // from layout.smt_throughput only when threads_per_core > 1 (1 here means "no slowdown", which
  // is what machines built in code get). The executor applies it to private work and cache hits.
  double smt_throughput = 1.0;
  double clock_hz = 0;
  std::uint32_t line_size = 0;  // coherence granularity in bytes

  std::vector<CacheLevelSpec> caches;  // ordered from the core outwards
  Picos dram_access = 0;               // at the home memory controller: request arrival to data leaving
  // Installed memory, all nodes together: the kernel sizes its large hash tables from it
  // (alloc_large_system_hash). The base page size: the unit the boot-time interleave policy
  // spreads a vmalloc'ed table over the nodes in. Machines built in code get 8 GiB and 4 KiB.
  std::uint64_t memory_bytes = std::uint64_t{8} << 30;
  std::uint32_t page_size = 4096;
  ProtocolKind protocol = ProtocolKind::kMoesiBroadcast;
  ProbeOrigin probe_origin = ProbeOrigin::kHome;
  HomePolicy home_policy = HomePolicy::kBlocking;
  ServiceOrder service_order = ServiceOrder::kArrival;
  // Directory protocol with an inclusive shared cache: a read forwarded to a domain whose cores
  // share the line clean is answered by that domain's shared cache without `probe_lookup`, which
  // is then the snoop of the owning core behind it (coherence.remote_shared_reads: llc).
  bool remote_shared_reads_from_llc = false;
  // Directory protocol only: whether the directory records a line's sharers (false: a probe filter
  // that records owners only, as AMD's HT Assist, so a write to a shared line invalidates every node).
  bool directory_tracks_sharers = true;
  // Directory protocol with a victim shared cache only: whether that cache keeps shadow tags of its
  // cores' private caches (Zen), so that a copy in a sibling core is found on chip; without them
  // (K10 under HT Assist) a miss goes to the home, whose probe finds the sibling.
  bool victim_shadow_tags = false;
  Picos home_retention = 0;  // kForwarding only: how long a new owner keeps the line
  // Optional (0: not modelled): how long one transaction occupies its home node's agent, whatever
  // the line. Transactions on different lines homed on one node are then served at least this far
  // apart; without it homes are infinitely parallel and only a line serialises its own transactions.
  Picos home_occupancy = 0;
  CoherenceCosts costs;
  InterruptCosts interrupts;
  TopologySpec topology;

  // Key path (e.g. "caches[0].latency", "interconnect.link_classes.ht.latency") -> its `source:`.
  std::map<std::string, std::string> sources;

  // 32-bit products: the loader and Machine refuse layouts above kMaxCpus (machine_limits.hpp), so
  // for any spec that reached a Machine these cannot wrap.
  std::uint32_t cpus() const { return nodes * sockets_per_node * cores_per_socket * threads_per_core; }
  std::uint32_t cores() const { return nodes * sockets_per_node * cores_per_socket; }
  std::uint32_t sockets() const { return nodes * sockets_per_node; }
};

}  // namespace walksim::machine
