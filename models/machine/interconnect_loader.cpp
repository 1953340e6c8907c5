// The interconnect section of a machine YAML (docs/machines.md): named link classes, then the links
// listed one by one or made by a generator, checked as a whole topology.
#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>

#include "models/machine/machine_limits.hpp"
#include "models/machine/machine_loader_detail.hpp"
#include "models/machine/topology.hpp"

namespace walksim::machine::loader_detail {
namespace {

// A named link class: one latency and bandwidth shared by every link of that kind.
struct LinkClass {
  Picos latency;
  double bandwidth;
};

std::map<std::string, LinkClass> read_link_classes(const Node& ic, std::uint32_t line_size, SourceMap& sources) {
  std::map<std::string, LinkClass> classes;
  const std::optional<Node> section = ic.optional("link_classes");
  if (!section) return classes;
  if (!section->is_map()) section->fail("expected a mapping from class name to {latency, bandwidth}");
  for (const std::string& name : section->keys()) {
    const Node c = section->child(name);
    LinkClass lc{};
    // Interconnect times are in time units only: a core clock says nothing about a link.
    lc.latency = component_time(c, "latency", sources);
    const Node bw = c.sourced("bandwidth", sources);
    lc.bandwidth = bw.as_bandwidth();
    if (!(lc.bandwidth > 0)) bw.fail("bandwidth must be positive");
    // With model_bandwidth a line occupies the link for line_size / bandwidth: a component time.
    const double occupancy = line_size / lc.bandwidth * 1e12;
    if (!(occupancy <= static_cast<double>(config::kMaxComponentTime))) {
      bw.fail("bandwidth " + bw.as_string() + " is too low: one " + std::to_string(line_size) +
              " B line would occupy the link for more than " + config::format_time(config::kMaxComponentTime) +
              " (at least " + std::to_string(line_size) + "B/s)");
    }
    classes.emplace(name, lc);
  }
  return classes;
}

class LinkBuilder {
 public:
  LinkBuilder(const std::map<std::string, LinkClass>& classes, TopologySpec& topology)
      : classes_(classes), topology_(topology) {}

  // `class_node` is the YAML scalar naming the class, for the error position.
  void add(const std::string& a, const std::string& b, const Node& class_node) {
    const std::string name = class_node.as_string();
    const auto it = classes_.find(name);
    if (it == classes_.end()) {
      std::vector<std::string> known;
      for (const auto& entry : classes_) known.push_back(entry.first);
      class_node.fail("unknown link class " + in_quotes(name) + config::did_you_mean(name, known) +
                      "; classes defined in interconnect.link_classes: " +
                      (known.empty() ? std::string("none") : config::quoted_list(known)));
    }
    topology_.links.push_back(LinkSpec{a, b, it->second.latency, it->second.bandwidth});
  }

 private:
  const std::map<std::string, LinkClass>& classes_;
  TopologySpec& topology_;
};

std::string node_name(std::uint32_t n) { return "n" + std::to_string(n); }

void read_links(const Node& ic, const MachineSpec& spec, LinkBuilder& builder) {
  std::vector<std::string> vertices;
  for (std::uint32_t n = 0; n < spec.nodes; ++n) vertices.push_back(node_name(n));
  for (const std::string& r : spec.topology.routers) vertices.push_back(r);
  for (const Node& link : ic.child("links").elements()) {
    std::string ends[2];
    for (int e = 0; e < 2; ++e) {
      const Node v = link.child(e == 0 ? "a" : "b");
      ends[e] = v.as_string();
      if (std::find(vertices.begin(), vertices.end(), ends[e]) == vertices.end()) {
        v.fail("unknown vertex " + in_quotes(ends[e]) + config::did_you_mean(ends[e], vertices) +
               "; vertices are the nodes n0..n" + std::to_string(spec.nodes - 1) + " and the routers" +
               (spec.topology.routers.empty() ? std::string(" (none declared)")
                                              : " " + config::quoted_list(spec.topology.routers)));
      }
    }
    if (ends[0] == ends[1]) link.fail("a link must join two different vertices");
    builder.add(ends[0], ends[1], link.child("class"));
  }
}

void read_generator(const Node& ic, MachineSpec& spec, LinkBuilder& builder) {
  enum class Kind { kFullMesh, kRing, kFatTree, kSingle };
  const Node gen = ic.child("generator");
  const Node kind_node = gen.child("kind");
  const Kind kind = kind_node.as_enum<Kind>(
      {{"full-mesh", Kind::kFullMesh}, {"ring", Kind::kRing}, {"fat-tree", Kind::kFatTree}, {"single", Kind::kSingle}});
  const std::uint32_t n = spec.nodes;
  const std::string link_limit = "the limit of " + std::to_string(kMaxLinks) + " links";
  switch (kind) {
    case Kind::kSingle:
      if (n != 1)
        kind_node.fail("generator 'single' makes no links, so layout.nodes must be 1 (it is " + std::to_string(n) +
                       ")");
      break;
    case Kind::kFullMesh: {
      const Node cls = gen.child("class");
      if (std::uint64_t{n} * (n - 1) / 2 > kMaxLinks) {
        kind_node.fail("a full mesh of " + std::to_string(n) + " nodes has " +
                       std::to_string(std::uint64_t{n} * (n - 1) / 2) + " links, above " + link_limit +
                       " (a full mesh of at most 362 nodes); use a fat-tree");
      }
      for (std::uint32_t a = 0; a < n; ++a) {
        for (std::uint32_t b = a + 1; b < n; ++b) builder.add(node_name(a), node_name(b), cls);
      }
      if (n == 1) cls.as_string();  // still read, so a typo in it is caught
      break;
    }
    case Kind::kRing: {
      const Node cls = gen.child("class");
      // Two nodes make a ring of one link, not two parallel ones.
      const std::uint32_t links = n <= 2 ? n - 1 : n;
      for (std::uint32_t a = 0; a < links; ++a) builder.add(node_name(a), node_name((a + 1) % n), cls);
      if (links == 0) cls.as_string();
      break;
    }
    case Kind::kFatTree: {
      const std::uint32_t per_leaf = positive_count(gen, "nodes_per_leaf", spec.sources);
      const Node spines_node = gen.sourced("spines", spec.sources);
      const std::uint32_t spines = spines_node.as_uint32();
      const Node leaf_class = gen.child("leaf_class");
      const Node spine_class = gen.child("spine_class");
      const std::uint32_t leaves = (n + per_leaf - 1) / per_leaf;
      if (std::uint64_t{leaves} + spines > kMaxRouters) {
        spines_node.fail(std::to_string(leaves) + " leaves and " + std::to_string(spines) + " spines are " +
                         std::to_string(std::uint64_t{leaves} + spines) + " routers, above the limit of " +
                         std::to_string(kMaxRouters) + " routers");
      }
      if (n + std::uint64_t{leaves} * spines > kMaxLinks) {
        spines_node.fail(std::to_string(n) + " node links and " + std::to_string(leaves) + " leaves x " +
                         std::to_string(spines) + " spines are " + std::to_string(n + std::uint64_t{leaves} * spines) +
                         " links, above " + link_limit);
      }
      for (std::uint32_t l = 0; l < leaves; ++l) spec.topology.routers.push_back("leaf" + std::to_string(l));
      for (std::uint32_t s = 0; s < spines; ++s) spec.topology.routers.push_back("spine" + std::to_string(s));
      for (std::uint32_t node = 0; node < n; ++node) {
        builder.add(node_name(node), "leaf" + std::to_string(node / per_leaf), leaf_class);
      }
      for (std::uint32_t l = 0; l < leaves; ++l) {
        for (std::uint32_t s = 0; s < spines; ++s) {
          builder.add("leaf" + std::to_string(l), "spine" + std::to_string(s), spine_class);
        }
      }
      if (spines == 0) spine_class.as_string();
      break;
    }
  }
}

}  // namespace

void read_interconnect(const Node& root, MachineSpec& spec) {
  const Node ic = root.child("interconnect");
  TopologySpec& topo = spec.topology;
  topo.domain_link = component_time(ic, "domain_link", spec.sources);
  topo.model_bandwidth = ic.child("model_bandwidth").as_bool();
  const std::map<std::string, LinkClass> classes = read_link_classes(ic, spec.line_size, spec.sources);
  LinkBuilder builder(classes, topo);

  const bool has_links = ic.has("links");
  const bool has_generator = ic.has("generator");
  if (has_links == has_generator) {
    ic.fail(has_links ? "give either 'links' or 'generator', not both"
                      : "missing the topology: give 'links' (a list of {a, b, class}) or 'generator' "
                        "(kind: full-mesh, ring, fat-tree or single)");
  }
  if (has_links) {
    if (const std::optional<Node> routers = ic.optional("routers")) {
      if (routers->size() > kMaxRouters) {
        routers->fail(std::to_string(routers->size()) + " routers, above the limit of " + std::to_string(kMaxRouters));
      }
      std::set<std::string> seen;
      for (const Node& r : routers->elements()) {
        const std::string name = r.as_string();
        const bool node_like =
            name.size() > 1 && name[0] == 'n' && name.find_first_not_of("0123456789", 1) == std::string::npos;
        if (name.empty() || node_like || !seen.insert(name).second) {
          r.fail("router names must be unique, non-empty and not of the node form n<number>");
        }
        topo.routers.push_back(name);
      }
    }
    const Node links = ic.child("links");
    if (links.size() > kMaxLinks)
      links.fail(std::to_string(links.size()) + " links, above the limit of " + std::to_string(kMaxLinks));
    read_links(ic, spec, builder);
  } else {
    if (ic.has("routers")) ic.child("routers").fail("'routers' goes with 'links'; a generator makes its own routers");
    read_generator(ic, spec, builder);
  }

  if (topo.routers.empty()) {
    if (const std::optional<Node> r = ic.optional_sourced("router_latency", spec.sources))
      topo.router_latency = r->as_time_at_most(config::kMaxComponentTime, config::kComponentTimeWhy);
  } else {
    topo.router_latency = component_time(ic, "router_latency", spec.sources);
  }

  try {
    const Topology check(topo, spec.nodes);
  } catch (const std::invalid_argument& e) {
    ic.fail(e.what());
  }
}

}  // namespace walksim::machine::loader_detail
