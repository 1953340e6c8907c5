// The coherence state of one cacheline across the whole machine, kept in one place (a "global
// directory" view) so that every protocol and the invariant checker read the same truth.
#pragma once

#include <cstdint>

#include "models/coherence/core_set.hpp"
#include "models/machine/machine_limits.hpp"
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

// One host cacheline per simulated line: a hit, a miss's plan and an eviction read this record
// and nothing else (docs/performance.md, "seventh step": halving the record's host footprint is
// what the git-diff-many runs, bound by host memory latency on these records, gain most from).
// The widths are the machine limits' (models/machine/machine_limits.hpp): nodes fit 16 bits, cache
// domains 15 bits and a sign. What only transactions write, the statistics, is kept beside
// (LineStats).
struct alignas(64) LineState {
  std::uint16_t home = 0;  // NUMA node whose memory and home agent hold the line
  OwnerState owner_state = OwnerState::kExclusive;
  bool home_assigned : 1 = false;     // false until first touch (when the allocation did not pin it)
  bool has_waiters : 1 = false;       // requests wait in the line's queue (MemorySystem::request)
  bool home_busy : 1 = false;         // home_free ends a busy state: requests arriving before it are NACKed
  std::int16_t excl_domain = kNone;   // domain with write permission (E/M at the domain level)
  std::int16_t dirty_domain = kNone;  // domain holding data newer than memory, or none
  std::int32_t owner = kNone;         // core holding E/M/O/F, or none
  std::int32_t pending_core = kNone;  // core whose latest transaction's data arrives at busy_until
  Picos busy_until = 0;
  // Serialisation at the home (docs/model.md, "Grants"): the next transaction is served no earlier
  // than home_free and takes effect no earlier than grant_free (a forwarding home's retention).
  Picos home_free = 0;
  Picos grant_free = 0;
  IdSet holders;   // cores with a copy in their private caches
  SmallIdSet llc;  // cache domains whose shared last-level cache holds a copy (empty without one)
};
static_assert(sizeof(LineState) == 64, "a line record is one host cacheline");
static_assert(machine::kMaxNodes <= UINT16_MAX, "LineState::home is 16 bits");
static_assert(machine::kMaxDomains <= INT16_MAX, "LineState's domains are 16 bits with a sign");

// Statistics, for the hot-line report: written by transactions only, so kept apart from the record.
struct LineStats {
  std::uint64_t transactions = 0;  // accesses that needed more than a private-cache hit
  std::uint64_t transfers = 0;     // transactions that moved data or ownership between cores
  Picos stall = 0;                 // requesters' waiting time (queueing + latency) in those
  Picos queued = 0;                // the queueing part alone
};

}  // namespace walksim::coherence
