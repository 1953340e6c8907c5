// The coherence state of one cacheline across the whole machine, kept in one place (a "global
// directory" view) so that every protocol and the invariant checker read the same truth.
#pragma once

#include <cstdint>

#include "models/coherence/core_set.hpp"
#include "sim/time.hpp"

namespace walksim::coherence {

using sim::Picos;

// The state of the owning core's copy. Other holders' copies are Shared.
enum class OwnerState : std::uint8_t {
  kExclusive,  // E: clean, only copy
  kModified,   // M: dirty, only copy
  kOwned,      // O (MOESI): dirty, other cores share it and the owner answers for memory
  kForward,    // F (MESIF): clean, shared, this copy answers reads
};

constexpr std::int32_t kNone = -1;

// The fields an access reads on every private hit come first, and the record is aligned to a
// host cacheline, so a hit touches one host line of it.
struct alignas(64) LineState {
  std::uint32_t home = 0;      // NUMA node whose memory and home agent hold the line
  bool home_assigned = false;  // false until first touch (when the allocation did not pin it)
  OwnerState owner_state = OwnerState::kExclusive;
  bool has_waiters = false;           // requests wait in the line's queue (MemorySystem::request)
  bool home_busy = false;             // home_free ends a busy state: requests arriving before it are NACKed
  std::int32_t owner = kNone;         // core holding E/M/O/F, or none
  std::int32_t pending_core = kNone;  // core whose latest transaction's data arrives at busy_until
  Picos busy_until = 0;
  // Serialisation at the home (docs/model.md, "Grants"): the next transaction is served no earlier
  // than home_free and takes effect no earlier than grant_free (a forwarding home's retention).
  Picos home_free = 0;
  Picos grant_free = 0;
  IdSet holders;                      // cores with a copy in their private caches
  IdSet llc;                          // cache domains whose shared last-level cache holds a copy
  std::int32_t excl_domain = kNone;   // domain with write permission (E/M at the domain level)
  std::int32_t dirty_domain = kNone;  // domain holding data newer than memory, or none

  // Statistics, for the hot-line report.
  std::uint64_t transactions = 0;  // accesses that needed more than a private-cache hit
  std::uint64_t transfers = 0;     // transactions that moved data or ownership between cores
  Picos stall = 0;                 // requesters' waiting time (queueing + latency) in those
  Picos queued = 0;                // the queueing part alone
};

}  // namespace walksim::coherence
