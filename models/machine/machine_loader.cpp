// Reads a machine YAML into a MachineSpec. The schema is documented in docs/machines.md; this file
// and interconnect_loader.cpp (the interconnect: link classes, links, generated topologies) are its
// only implementation, so every check and every message about a machine file lives in them.
// Numbers come as {value, source}; structure errors come from strict_yaml, meaning errors from here.
#include "models/machine/machine_loader.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>

#include "models/config/limits.hpp"
#include "models/config/named_config.hpp"
#include "models/config/strict_yaml.hpp"
#include "models/machine/machine_limits.hpp"
#include "models/machine/machine_loader_detail.hpp"
#include "models/machine/topology.hpp"

namespace walksim::machine {
namespace {

namespace fs = std::filesystem;
using config::ConfigError;
using config::Node;
using config::SourceMap;
using loader_detail::component_time;
using loader_detail::in_quotes;
using loader_detail::positive_count;

bool is_power_of_two(std::uint64_t v) { return v != 0 && (v & (v - 1)) == 0; }

std::string divisors_of(std::uint32_t n) {
  std::string out;
  for (std::uint32_t d = 1; d <= n; ++d) {
    if (n % d == 0) out += (out.empty() ? "" : ", ") + std::to_string(d);
  }
  return out;
}

// --- Sections, in file order ---

// The fraction of its single-thread speed a hardware thread keeps while its SMT siblings run too.
// Required exactly when a core has siblings: on a machine without SMT the number would be read by
// nothing, so it is refused rather than silently ignored.
void read_smt_throughput(const Node& layout, MachineSpec& spec) {
  const std::string key = "smt_throughput";
  const std::string meaning =
      "the fraction of its single-thread speed each hardware thread keeps while its siblings run processes "
      "too (0.6 means two threads together do 1.2x the work of one)";
  if (spec.threads_per_core == 1) {
    if (layout.has(key)) {
      layout.child(key).fail(in_quotes(key) +
                             " applies only to cores with more than one hardware thread and this "
                             "machine has threads_per_core 1; remove it");
    }
    return;
  }
  if (!layout.has(key)) {
    throw ConfigError(layout.child("threads_per_core").mark(), layout.path() + "." + key,
                      "missing: with threads_per_core " + std::to_string(spec.threads_per_core) + " give " +
                          in_quotes(key) + ", " + meaning + ", in (0, 1], as {value: ..., source: \"...\"}");
  }
  const Node value = layout.sourced(key, spec.sources);
  const double f = value.as_double();
  if (!(f > 0 && f <= 1)) {
    std::ostringstream text;
    text << f;
    value.fail(in_quotes(key) + " " + text.str() + " is outside (0, 1]; it is " + meaning);
  }
  // The executor scales time by it in whole millionths; more digits would be dropped silently.
  const double millionths = f * 1e6;
  if (std::fabs(millionths - std::round(millionths)) > 1e-6) {
    value.fail(in_quotes(key) + " has more than 6 decimal places; give it in millionths or coarser");
  }
  spec.smt_throughput = f;
}

void read_layout(const Node& root, MachineSpec& spec) {
  const Node layout = root.child("layout");
  spec.nodes = positive_count(layout, "nodes", spec.sources, kMaxNodes,
                              " NUMA nodes (the topology keeps a latency and a route for every pair of nodes)");
  spec.sockets_per_node = positive_count(layout, "sockets_per_node", spec.sources);
  spec.cores_per_socket = positive_count(layout, "cores_per_socket", spec.sources);
  spec.threads_per_core = positive_count(layout, "threads_per_core", spec.sources);
  // In 64 bits with overflow checked: in 32 bits the product wrapped (to 0, or to 8 CPUs that then
  // crashed the probe).
  const std::uint64_t factors[] = {spec.nodes, spec.sockets_per_node, spec.cores_per_socket, spec.threads_per_core};
  std::uint64_t cpus = 1;
  bool wraps = false;  // the product does not even fit 64 bits (for the message only)
  for (const std::uint64_t f : factors) wraps = __builtin_mul_overflow(cpus, f, &cpus) || wraps;
  if (wraps || cpus > kMaxCpus) {
    layout.fail("nodes x sockets_per_node x cores_per_socket x threads_per_core = " + std::to_string(spec.nodes) +
                " x " + std::to_string(spec.sockets_per_node) + " x " + std::to_string(spec.cores_per_socket) + " x " +
                std::to_string(spec.threads_per_core) + " = " +
                (wraps ? std::string("more than 2^64") : std::to_string(cpus)) + " CPUs, above the limit of " +
                std::to_string(kMaxCpus) +
                " CPUs (the simulator keeps a thread, private caches and a presence bit in every line per CPU)");
  }
  read_smt_throughput(layout, spec);
}

void read_caches(const Node& root, MachineSpec& spec) {
  const Node caches = root.child("caches");
  if (!caches.is_sequence() || caches.size() == 0) {
    caches.fail("expected a list of cache levels, from the core outwards, with at least one entry");
  }
  std::set<std::string> names;
  for (std::size_t i = 0; i < caches.size(); ++i) {
    const Node c = caches.at(i);
    CacheLevelSpec level;
    const Node name = c.child("name");
    level.name = name.as_string();
    if (level.name.empty() || !names.insert(level.name).second) name.fail("cache names must be non-empty and unique");

    const Node shared_by = c.sourced("shared_by", spec.sources);
    level.shared_by = shared_by.as_uint32();
    // Instances are carved out of each socket; a count that does not divide the socket's cores
    // would leave some core attached to no instance of this level.
    if (level.shared_by == 0 || spec.cores_per_socket % level.shared_by != 0) {
      shared_by.fail("shared_by " + std::to_string(level.shared_by) + " does not fit the layout: with " +
                     std::to_string(spec.cores_per_socket) + " cores per socket some core would belong to no " +
                     level.name +
                     " instance; shared_by counts cores per instance and must divide cores_per_socket "
                     "(valid values: " +
                     divisors_of(spec.cores_per_socket) + ")");
    }

    const Node size = c.sourced("size", spec.sources);
    level.size_bytes = size.as_size();
    if (level.size_bytes == 0) size.fail("cache size must be positive");
    if (level.size_bytes / spec.line_size > kMaxLinesPerCache) {
      size.fail("size " + size.as_string() + " is " + std::to_string(level.size_bytes / spec.line_size) + " lines of " +
                std::to_string(spec.line_size) + " B, above the limit of " + std::to_string(kMaxLinesPerCache) +
                " lines per cache instance (1 GiB of 64-byte lines): the simulator keeps " +
                std::to_string(kCacheBytesPerLine) + " bytes per line of every instance");
    }
    const Node ways = c.sourced("ways", spec.sources);
    level.ways = ways.as_uint32();
    if (level.ways == 0) ways.fail("ways must be at least 1");
    if (level.ways > kMaxWays) {
      ways.fail("ways " + std::to_string(level.ways) + " is above the limit of " + std::to_string(kMaxWays) +
                " (every access scans all the ways of a set; real caches have at most a few dozen)");
    }
    const std::uint64_t way_bytes = std::uint64_t{level.ways} * spec.line_size;
    if (level.size_bytes % way_bytes != 0) {
      size.fail("size " + std::to_string(level.size_bytes) + " B is not a whole number of sets of " +
                std::to_string(level.ways) + " ways x " + std::to_string(spec.line_size) + " B lines");
    }
    level.latency = component_time(c, "latency", spec.sources, spec.clock_hz);

    // The first level has nothing above it to include or exclude, so the key would be meaningless.
    if (i == 0) {
      if (c.has("inclusion")) {
        c.child("inclusion").fail("the first cache level has no level above it; remove 'inclusion'");
      }
      level.inclusion = Inclusion::kNonInclusive;
    } else {
      level.inclusion = c.child("inclusion")
                            .as_enum<Inclusion>({{"inclusive", Inclusion::kInclusive},
                                                 {"exclusive", Inclusion::kExclusive},
                                                 {"victim", Inclusion::kVictim},
                                                 {"non-inclusive", Inclusion::kNonInclusive}});
    }
    spec.caches.push_back(level);
  }
  // The arrays of every instance together (instances of a level: the cores over shared_by).
  std::uint64_t lines = 0;
  for (const CacheLevelSpec& level : spec.caches) {
    lines += std::uint64_t{spec.cores()} / level.shared_by * (level.size_bytes / spec.line_size);
  }
  if (lines > kMaxCacheLines) {
    caches.fail("the " + std::to_string(spec.cores()) + " cores' caches hold " + std::to_string(lines) +
                " lines in all instances together, above the limit of " + std::to_string(kMaxCacheLines) +
                " lines (the simulator keeps " + std::to_string(kCacheBytesPerLine) +
                " bytes per line of every cache instance, " +
                std::to_string(kMaxCacheLines * kCacheBytesPerLine >> 30) + " GiB at the limit)");
  }
  // The cache domains: the shared level's instances, or every core without a shared level.
  std::uint32_t domain_size = 1;
  for (const CacheLevelSpec& level : spec.caches) domain_size = std::max(domain_size, level.shared_by);
  const std::uint64_t domains = std::uint64_t{spec.cores()} / domain_size;
  if (domains > kMaxDomains) {
    caches.fail("the " + std::to_string(spec.cores()) + " cores make " + std::to_string(domains) +
                " cache domains (instances of the shared level, or every core without one), above the limit of " +
                std::to_string(kMaxDomains) + " (a line record keeps a domain in 16 bits)");
  }
}

// The protocol families by name, as Node::as_enum takes them.
const std::vector<std::pair<std::string, ProtocolKind>>& protocol_names() {
  static const std::vector<std::pair<std::string, ProtocolKind>> names = [] {
    std::vector<std::pair<std::string, ProtocolKind>> v;
    for (const auto& p : kProtocolFamilies) v.emplace_back(p.name, p.kind);
    return v;
  }();
  return names;
}

// The quoted names of the families for which `applies` holds, as "'a', 'b'".
template <typename Pred>
std::string family_names(Pred applies) {
  std::string out;
  for (const ProtocolFamily& f : kProtocolFamilies) {
    if (applies(f)) out += (out.empty() ? "" : ", ") + in_quotes(f.name);
  }
  return out;
}

// The directory families' names, for errors about a directory's own keys.
std::string directories() {
  return family_names([](const ProtocolFamily& f) { return f.messaging == Messaging::kDirectory; });
}

// A directory's own keys (what it records, shadow tags of a victim cache); a broadcast protocol's
// probe origin. Each key of the other family is an error naming the family it belongs to.
void read_protocol_keys(const Node& coherence, MachineSpec& spec) {
  if (protocol_family(spec.protocol).messaging == Messaging::kDirectory) {
    if (coherence.has("probe_origin")) {
      coherence.child("probe_origin")
          .fail("'probe_origin' applies only to the broadcast protocols (" +
                family_names([](const ProtocolFamily& f) { return f.messaging == Messaging::kBroadcast; }) +
                "); a directory always forwards from the home");
    }
    spec.probe_origin = ProbeOrigin::kHome;
    spec.directory_tracks_sharers =
        coherence.sourced("sharers", spec.sources).as_enum<bool>({{"tracked", true}, {"owner-only", false}});
    const auto shared =
        std::find_if(spec.caches.begin(), spec.caches.end(), [](const CacheLevelSpec& c) { return c.shared_by > 1; });
    if (shared != spec.caches.end() && shared->inclusion == Inclusion::kVictim) {
      spec.victim_shadow_tags = coherence.sourced("shadow_tags", spec.sources).as_bool();
    } else if (coherence.has("shadow_tags")) {
      coherence.child("shadow_tags")
          .fail("'shadow_tags' applies only to a directory machine whose shared cache level is a victim cache");
    }
    return;
  }
  if (coherence.has("shadow_tags")) {
    coherence.child("shadow_tags").fail("'shadow_tags' applies only to protocol " + directories());
  }
  if (coherence.has("sharers")) {
    coherence.child("sharers").fail("'sharers' applies only to protocol " + directories() +
                                    "; a broadcast protocol probes every domain anyway");
  }
  spec.probe_origin = coherence.child("probe_origin")
                          .as_enum<ProbeOrigin>({{"home", ProbeOrigin::kHome}, {"requester", ProbeOrigin::kRequester}});
}

// `home:` (how the home serialises transactions on a line), a forwarding home's retention, and
// `service_order:` (which waiting request it takes next; optional, arrival when left out).
void read_home(const Node& coherence, MachineSpec& spec) {
  if (coherence.has("remote_shared_reads")) {
    const Node n = coherence.sourced("remote_shared_reads", spec.sources);
    spec.remote_shared_reads_from_llc = n.as_enum<bool>({{"core-snoop", false}, {"llc", true}});
    bool inclusive_shared = false;
    for (const auto& c : spec.caches) {
      if (c.shared_by > 1 && c.inclusion == Inclusion::kInclusive) inclusive_shared = true;
    }
    if (spec.remote_shared_reads_from_llc &&
        (protocol_family(spec.protocol).messaging != Messaging::kDirectory || !inclusive_shared)) {
      coherence.child("remote_shared_reads")
          .fail("'remote_shared_reads: llc' applies only to protocol " + directories() +
                " with an inclusive shared cache level");
    }
  }
  if (coherence.has("service_order")) {
    spec.service_order = coherence.sourced("service_order", spec.sources)
                             .as_enum<ServiceOrder>({{"arrival", ServiceOrder::kArrival},
                                                     {"node-round-robin", ServiceOrder::kNodeRoundRobin}});
  }
  if (coherence.has("home_occupancy")) {
    spec.home_occupancy = component_time(coherence, "home_occupancy", spec.sources, spec.clock_hz);
  }
  const Node home = coherence.sourced("home", spec.sources);
  spec.home_policy = home.as_enum<HomePolicy>({{"blocking", HomePolicy::kBlocking},
                                               {"busy-on-forward", HomePolicy::kBusyOnForward},
                                               {"forwarding", HomePolicy::kForwarding}});
  if (spec.home_policy == HomePolicy::kForwarding) {
    spec.home_retention = component_time(coherence, "retention", spec.sources, spec.clock_hz);
  } else if (coherence.has("retention")) {
    coherence.child("retention")
        .fail(
            "'retention' applies only to 'home: forwarding'; a blocking (or busy-on-forward) home keeps the "
            "next transaction back until the previous one completed");
  }
}

// `costs:`. Which cost applies to which protocol: one table, each cost with the trait of the
// families that read it; a cost of another protocol is an error naming the protocols it applies to.
void read_coherence_costs(const Node& coherence, const std::string& protocol_name, MachineSpec& spec) {
  using Applies = bool (*)(const ProtocolFamily&);
  struct Cost {
    std::string key;
    Picos CoherenceCosts::*field;
    Applies applies;
  };
  const Applies all = [](const ProtocolFamily&) { return true; };
  const Applies directory = [](const ProtocolFamily& f) { return f.messaging == Messaging::kDirectory; };
  const Applies onchip = [](const ProtocolFamily& f) { return f.onchip_snoop_costs; };
  const std::vector<Cost> costs{
      {"probe_lookup", &CoherenceCosts::probe_lookup, all},
      {"directory_lookup", &CoherenceCosts::directory_lookup, directory},
      {"onchip_snoop_clean", &CoherenceCosts::onchip_snoop_clean, onchip},
      {"onchip_snoop_dirty", &CoherenceCosts::onchip_snoop_dirty, onchip},
      {"atomic_overhead", &CoherenceCosts::atomic_overhead, all},
      {"fence", &CoherenceCosts::fence, all},
      {"branch_mispredict", &CoherenceCosts::branch_mispredict, all},
  };
  const Node section = coherence.child("costs");
  for (const Cost& cost : costs) {
    if (cost.applies(protocol_family(spec.protocol))) {
      spec.costs.*cost.field = component_time(section, cost.key, spec.sources, spec.clock_hz);
    } else if (section.has(cost.key)) {
      section.child(cost.key).fail(in_quotes(cost.key) + " applies only to protocol " + family_names(cost.applies) +
                                   "; this machine's protocol is " + in_quotes(protocol_name));
    }
  }
}

// `interrupts:`: how the idle CPU of a sleeping task is woken, and what that costs.
void read_interrupts(const Node& root, MachineSpec& spec) {
  const Node irq = root.child("interrupts");
  spec.interrupts.idle_wake =
      irq.sourced("idle_wake", spec.sources).as_enum<IdleWake>({{"ipi", IdleWake::kIpi}, {"mwait", IdleWake::kMwait}});
  spec.interrupts.wake_exit = component_time(irq, "wake_exit", spec.sources, spec.clock_hz);
  if (spec.interrupts.idle_wake == IdleWake::kIpi) {
    spec.interrupts.ipi_send = component_time(irq, "ipi_send", spec.sources, spec.clock_hz);
  } else if (irq.has("ipi_send")) {
    irq.child("ipi_send").fail("'ipi_send' applies only to 'idle_wake: ipi'; an mwaiting CPU is woken by the store");
  }
}

void read_coherence(const Node& root, MachineSpec& spec) {
  const Node coherence = root.child("coherence");
  const Node protocol = coherence.child("protocol");
  spec.protocol = protocol.as_enum(protocol_names());
  read_protocol_keys(coherence, spec);
  read_home(coherence, spec);
  read_coherence_costs(coherence, protocol.as_string(), spec);
}

// memory: the DRAM access at the home, the installed size and the base page size.
void read_memory(const Node& memory, MachineSpec& spec) {
  spec.dram_access = component_time(memory, "dram_access", spec.sources);
  const Node size = memory.sourced("size", spec.sources);
  spec.memory_bytes = size.as_size();
  if (spec.memory_bytes < (std::uint64_t{1} << 24) || spec.memory_bytes > (std::uint64_t{1} << 50)) {
    size.fail("memory size must be 16MiB..1PiB (the installed memory of all nodes together)");
  }
  const Node page = memory.sourced("page_size", spec.sources);
  const std::uint64_t bytes = page.as_size();
  if (!is_power_of_two(bytes) || bytes < spec.line_size || bytes > (std::uint64_t{1} << 30)) {
    page.fail("page_size must be a power of two from the line size to 1GiB (e.g. 4KiB)");
  }
  spec.page_size = static_cast<std::uint32_t>(bytes);
}

MachineSpec read_machine(const Node& root, const std::string& file) {
  MachineSpec spec;
  spec.file = file;
  spec.name = root.child("name").as_string();
  spec.description = root.child("description").as_string();

  const Node clock = root.sourced("clock", spec.sources);
  spec.clock_hz = clock.as_frequency();
  if (!(spec.clock_hz > 0)) clock.fail("clock must be positive");
  // Checked here, so that a clock of 1e-300Hz is not first noticed as a cache latency in cycles.
  if (!(spec.clock_hz >= kMinClockHz && spec.clock_hz <= kMaxClockHz)) {
    clock.fail("clock " + clock.as_string() + " is outside the supported 1MHz..100GHz");
  }

  read_layout(root, spec);

  const Node line = root.sourced("line_size", spec.sources);
  const std::uint64_t line_size = line.as_size();
  if (!is_power_of_two(line_size) || line_size > (1u << 20))
    line.fail("line_size must be a power of two bytes (e.g. 64B)");
  spec.line_size = static_cast<std::uint32_t>(line_size);

  read_caches(root, spec);
  read_memory(root.child("memory"), spec);
  read_coherence(root, spec);
  loader_detail::read_interconnect(root, spec);
  read_interrupts(root, spec);
  root.finish();
  return spec;
}

}  // namespace

MachineSpec load_machine(const std::string& name_or_path, const std::vector<std::string>& search_dirs,
                         const std::vector<config::Override>& overrides) {
  const config::NamedConfig named = config::load_named("machine", name_or_path, search_dirs, overrides);
  try {
    return read_machine(named.root, named.path);
  } catch (const std::bad_alloc&) {
    // The limits above should make this unreachable; if not, say what was being built.
    throw ConfigError(config::SourceMark{named.path, 0, 0}, "",
                      "out of memory while reading the machine (its layout, caches or interconnect)");
  }
}

std::vector<std::string> list_machines(const std::vector<std::string>& search_dirs) {
  return config::list_named(search_dirs);
}

}  // namespace walksim::machine
