// Size limits of a machine, checked by the loader with the file and key (docs/machines.md,
// "Limits"). Each is far above every machine shipped (the largest, synthetic-1024c, has 64 nodes
// and 1024 CPUs) and set by what the simulator must hold in memory or scan per access, so that an
// absurd file stops at once with a message instead of running out of memory, crashing or hanging.
#pragma once

#include <cstdint>

namespace walksim::machine {

// The topology keeps a latency, a hop count and a route for every ordered pair of nodes (N^2
// entries) and runs Dijkstra from every node.
inline constexpr std::uint32_t kMaxNodes = 1024;

// CPUs = nodes x sockets_per_node x cores_per_socket x threads_per_core. The simulator keeps a
// thread, a set of private caches and a bit in every line's presence sets per CPU or core.
inline constexpr std::uint64_t kMaxCpus = 65536;

// Every access scans all the ways of a set (true LRU by stamps), so a huge associativity is a
// hang rather than a cache; real caches have at most a few dozen ways.
inline constexpr std::uint32_t kMaxWays = 1024;

// The cache arrays keep 8 bytes (a tag and an LRU stamp) for every line of every instance. One
// instance may hold 2^24 lines (1 GiB of 64-byte lines, 128 MiB of array), and all instances
// together 2^28 lines (2 GiB of arrays; reserved up front, touched only where a run goes).
inline constexpr std::uint64_t kMaxLinesPerCache = std::uint64_t{1} << 24;
inline constexpr std::uint64_t kMaxCacheLines = std::uint64_t{1} << 28;
inline constexpr std::uint64_t kCacheBytesPerLine = 8;

// Cache domains (the instances of the shared cache level, every core its own without one): a line
// record keeps one in 16 bits with a sign (models/coherence/line_state.hpp).
inline constexpr std::uint64_t kMaxDomains = 32767;

// Interconnect: routers (declared, or made by a fat-tree generator) and links (listed or
// generated; a full mesh of N nodes has N(N-1)/2). The stored routes of all node pairs together
// may cross at most kMaxRouteSteps links (8 bytes each): a long ring or chain exceeds it.
inline constexpr std::uint64_t kMaxRouters = 4096;
inline constexpr std::uint64_t kMaxLinks = 65536;
inline constexpr std::uint64_t kMaxRouteSteps = std::uint64_t{1} << 24;

// Core clock, Hz. Cycle counts are converted to picoseconds at this clock: below 1 MHz a few
// cycles are already a large fraction of a second, above 100 GHz a cycle rounds to a few ps.
inline constexpr double kMinClockHz = 1e6;
inline constexpr double kMaxClockHz = 100e9;

}  // namespace walksim::machine
