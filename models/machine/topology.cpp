// All-pairs node-to-node latency and hop counts over the interconnect graph (Boost.Graph Dijkstra
// from each node). Latency and hops are minimised together as one lexicographic integer weight, so
// among equally fast paths the one with fewest hops wins, whatever order Dijkstra visits them in.
#include "models/machine/topology.hpp"

#include <algorithm>
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/dijkstra_shortest_paths.hpp>
#include <limits>
#include <map>
#include <stdexcept>

#include "models/machine/machine_limits.hpp"

namespace walksim::machine {
namespace {

using Weight = std::int64_t;
using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS, boost::no_property,
                                    boost::property<boost::edge_weight_t, Weight>>;

std::string node_name(NodeId n) { return "n" + std::to_string(n); }

}  // namespace

Topology::Topology(const TopologySpec& spec, std::uint32_t node_count) : node_count_(node_count) {
  if (node_count == 0) throw std::invalid_argument("a machine needs at least one node");
  if (spec.router_latency < 0) throw std::invalid_argument("router latency is negative");

  // Vertices 0..N-1 are the nodes, then the routers in the order given.
  std::map<std::string, std::size_t> vertex;
  for (NodeId n = 0; n < node_count; ++n) vertex.emplace(node_name(n), n);
  for (const std::string& r : spec.routers) {
    if (!vertex.emplace(r, vertex.size()).second) {
      throw std::invalid_argument("router '" + r + "' duplicates another vertex name");
    }
  }
  const std::size_t vertex_count = vertex.size();
  const auto is_router = [&](std::size_t v) { return v >= node_count; };

  // Each edge weighs (2 * latency_ps + router_latency per router end) * K + hop halves. A path
  // enters and leaves every router it passes through, so the router ends add up to router_latency
  // per router crossed, and the doubling keeps odd router latencies exact. Hop halves: 2 for a
  // node-node link, 1 per router end otherwise, so n-r-n sums to 2 (one hop) and n-r-r-n to 4.
  // K exceeds the largest possible hop-half total, so latency dominates and hops break ties.
  const Weight k = 2 * static_cast<Weight>(vertex_count) + 2;
  Graph g(vertex_count);
  std::map<std::pair<std::size_t, std::size_t>, std::uint32_t> link_index;  // (u, v) -> spec.links index
  std::vector<std::size_t> link_a(spec.links.size());                       // vertex of each link's end a
  for (std::uint32_t li = 0; li < spec.links.size(); ++li) {
    const LinkSpec& link = spec.links[li];
    const auto a = vertex.find(link.a);
    const auto b = vertex.find(link.b);
    if (a == vertex.end()) throw std::invalid_argument("link names unknown vertex '" + link.a + "'");
    if (b == vertex.end()) throw std::invalid_argument("link names unknown vertex '" + link.b + "'");
    if (a->second == b->second) throw std::invalid_argument("link joins vertex '" + link.a + "' to itself");
    if (link.latency < 0) {
      throw std::invalid_argument("link " + link.a + "-" + link.b + " has a negative latency");
    }
    const Weight router_ends = (is_router(a->second) ? 1 : 0) + (is_router(b->second) ? 1 : 0);
    const Weight hop_halves = router_ends == 0 ? 2 : router_ends;
    const Weight weight = (2 * link.latency + router_ends * spec.router_latency) * k + hop_halves;
    boost::add_edge(a->second, b->second, weight, g);
    link_a[li] = a->second;
    link_index.emplace(std::make_pair(a->second, b->second), li);
    link_index.emplace(std::make_pair(b->second, a->second), li);
  }

  latency_.assign(static_cast<std::size_t>(node_count) * node_count, 0);
  hops_.assign(static_cast<std::size_t>(node_count) * node_count, 0);
  routes_.assign(static_cast<std::size_t>(node_count) * node_count, {});
  std::vector<Weight> dist(vertex_count);
  std::vector<std::size_t> pred(vertex_count);
  std::uint64_t route_steps = 0;  // links crossed by all the routes stored so far
  for (NodeId from = 0; from < node_count; ++from) {
    boost::dijkstra_shortest_paths(g, from, boost::distance_map(dist.data()).predecessor_map(pred.data()));
    for (NodeId to = 0; to < node_count; ++to) {
      if (dist[to] == std::numeric_limits<Weight>::max()) {
        throw std::invalid_argument("node '" + node_name(to) + "' is unreachable from node '" + node_name(from) + "'");
      }
      latency_[from * node_count_ + to] = dist[to] / k / 2;
      hops_[from * node_count_ + to] = static_cast<std::uint32_t>(dist[to] % k / 2);
      auto& route = routes_[from * node_count_ + to];
      for (std::size_t v = to; v != from; v = pred[v]) {
        const std::uint32_t li = link_index.at({pred[v], v});
        route.push_back({li, link_a[li] == pred[v]});
      }
      // Every pair's route is stored, so a long ring or chain costs N^2 x its diameter: stop before
      // that takes the host's memory.
      route_steps += route.size();
      if (route_steps > kMaxRouteSteps) {
        throw std::invalid_argument(
            "the routes between all pairs of the " + std::to_string(node_count) + " nodes cross more than " +
            std::to_string(kMaxRouteSteps) +
            " links in all, the limit (every route is stored); use fewer nodes or a topology with shorter "
            "paths, such as a fat-tree");
      }
      std::reverse(route.begin(), route.end());
    }
  }
}

std::uint32_t Topology::max_hops() const { return hops_.empty() ? 0 : *std::max_element(hops_.begin(), hops_.end()); }

std::int64_t Topology::node_at_hops(NodeId from, std::uint32_t h) const {
  for (NodeId to = 0; to < node_count_; ++to) {
    if (hops(from, to) == h) return to;
  }
  return -1;
}

}  // namespace walksim::machine
