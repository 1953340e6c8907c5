// The machine as declared in configs/machines/*.yaml, after units are parsed and `extends:` is
// resolved. Plain data: the loader fills it, the runtime Machine and the coherence protocols read
// it. Every latency here is a *component*; composites (a miss, a transfer) are built by the
// protocols from these parts, never typed in.
#pragma once

#include <cstdint>
#include <map>
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
  kMesifInclusive,  // Intel Nehalem/Westmere: source snoop, inclusive L3 core-valid bits filter on-die snoops
  kDirectory,       // SGI SHub, modern: home directory, 3-hop forwarding, invalidation fan-out with acks
};

// Every protocol family with its name in a machine YAML (`coherence.protocol`). The loader reads
// names from it, and the closed-form suite (protocol_closed_form_test.cpp) runs over it, so a new
// family is one enum value, one row here and its column of closed forms.
struct ProtocolName {
  const char* name;
  ProtocolKind kind;
};
inline constexpr ProtocolName kProtocolNames[] = {{"moesi-broadcast", ProtocolKind::kMoesiBroadcast},
                                                  {"mesif-inclusive", ProtocolKind::kMesifInclusive},
                                                  {"directory", ProtocolKind::kDirectory}};

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
  // Directory protocol only: whether the directory records a line's sharers (false: a probe filter
  // that records owners only, as AMD's HT Assist, so a write to a shared line invalidates every node).
  bool directory_tracks_sharers = true;
  // Directory protocol with a victim shared cache only: whether that cache keeps shadow tags of its
  // cores' private caches (Zen), so that a copy in a sibling core is found on chip; without them
  // (K10 under HT Assist) a miss goes to the home, whose probe finds the sibling.
  bool victim_shadow_tags = false;
  Picos home_retention = 0;  // kForwarding only: how long a new owner keeps the line
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
