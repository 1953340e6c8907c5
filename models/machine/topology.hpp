// The interconnect as a Boost.Graph graph of NUMA nodes and routers. One-way latencies and hop
// counts between nodes are computed from the graph (all-pairs shortest paths), never typed in.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "models/machine/machine_spec.hpp"

namespace walksim::machine {

using NodeId = std::uint32_t;

// One link crossed by a path, and in which direction (a -> b is forward).
struct RouteStep {
  std::uint32_t link;  // index into TopologySpec::links
  bool forward;
};

class Topology {
 public:
  // Builds the graph of `node_count` nodes named "n0".."n{N-1}" plus spec.routers, joined by
  // spec.links. Throws std::invalid_argument naming the offending vertex when a link names an
  // unknown vertex or the graph leaves some node unreachable from another.
  Topology(const TopologySpec& spec, std::uint32_t node_count);

  std::uint32_t node_count() const { return node_count_; }
  // One-way latency of a message from node a to node b along the fastest path: the sum of its
  // links' latencies plus router_latency for every router passed through. 0 when a == b.
  Picos latency(NodeId a, NodeId b) const { return latency_[a * node_count_ + b]; }
  // Hops on that path: each router passed through counts one, and each link joining two nodes
  // directly counts one (so n0-n1 is 1 hop, n0-r-n1 is 1 hop, n0-r-r-r-n1 is 3). 0 when a == b.
  std::uint32_t hops(NodeId a, NodeId b) const { return hops_[a * node_count_ + b]; }
  std::uint32_t max_hops() const;
  // The links (indices into TopologySpec::links) of that path, in order from a to b.
  const std::vector<RouteStep>& route(NodeId a, NodeId b) const { return routes_[a * node_count_ + b]; }
  // The lowest-numbered node at exactly `h` hops from `from`, or -1 if none.
  std::int64_t node_at_hops(NodeId from, std::uint32_t h) const;

 private:
  std::uint32_t node_count_;
  std::vector<Picos> latency_;
  std::vector<std::uint32_t> hops_;
  std::vector<std::vector<RouteStep>> routes_;
};

}  // namespace walksim::machine
