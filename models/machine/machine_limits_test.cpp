// Tests for the machine limits (machine_limits.hpp, config/limits.hpp): every absurd size or time of
// the robustness review is refused at load with the key and the limit, instead of wrapping,
// crashing, hanging or running out of memory; values at the limits still load.
#include "models/machine/machine_limits.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>

#include "models/config/config_error.hpp"
#include "models/machine/machine.hpp"
#include "models/machine/machine_loader.hpp"

namespace walksim::machine {
namespace {

namespace fs = std::filesystem;
const std::string kRoot = WALKSIM_SOURCE_DIR;
const std::vector<std::string> kMachineDirs{kRoot + "/configs/machines", kRoot + "/configs/machines-synthetic"};

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// Machine files written for one test into a scratch directory, removed at the end.
class MachineLimits : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("walksim-machine-limits-" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // `name` extending nehalem-ep-2s8c (links listed: layout, caches and times can be overridden).
  std::string child(const std::string& name, const std::string& body) {
    return write(name, "name: " + name + "\nextends: nehalem-ep-2s8c\ndescription: \"x\"\n" + body);
  }

  // A full copy of synthetic-1024c (a generated fat tree) with text replaced, for topologies.
  std::string synthetic(const std::string& name, const std::vector<std::pair<std::string, std::string>>& edits) {
    std::ifstream in(kRoot + "/configs/machines-synthetic/synthetic-1024c.yaml");
    std::stringstream buf;
    buf << in.rdbuf();
    std::string text = buf.str();
    text.replace(text.find("name: synthetic-1024c"), 21, "name: " + name);
    for (const auto& [from, to] : edits) {
      const auto at = text.find(from);
      if (at == std::string::npos)
        ADD_FAILURE() << "no '" << from << "' in synthetic-1024c.yaml";
      else
        text.replace(at, from.size(), to);
    }
    return write(name, text);
  }

  std::string write(const std::string& name, const std::string& text) {
    const fs::path p = dir_ / (name + ".yaml");
    std::ofstream(p) << text;
    return p.string();
  }

  static config::ConfigError load_error(const std::string& path) {
    try {
      load_machine(path, kMachineDirs);
    } catch (const config::ConfigError& e) {
      return e;
    }
    ADD_FAILURE() << path << " loaded without error";
    return config::ConfigError({}, "", "<none>");
  }

  fs::path dir_;
};

std::string sourced(const std::string& value) { return "{value: " + value + ", source: \"estimate: test\"}"; }

TEST_F(MachineLimits, ACpuCountThatWrappedTo8In32BitsIsRefusedNamingTheLayoutKeys) {
  // 2 x 1 x 4 x 536870913 = 2^32 + 8: it used to become an 8-CPU machine that crashed in the probe.
  const auto e = load_error(child("wrap", "layout:\n  threads_per_core: " + sourced("536870913") + "\n"));
  EXPECT_EQ(e.key_path(), "layout");
  EXPECT_TRUE(contains(e.message(),
                       "nodes x sockets_per_node x cores_per_socket x threads_per_core = 2 x 1 x 4 x "
                       "536870913 = 4294967304 CPUs, above the limit of 65536 CPUs"))
      << e.what();
}

TEST_F(MachineLimits, ACpuCountThatWrappedTo0IsRefusedInsteadOfCalledEmpty) {
  const auto e = load_error(child("wrap0", "layout:\n  sockets_per_node: " + sourced("65536") +
                                               "\n  cores_per_socket: " + sourced("32768") + "\n"));
  EXPECT_EQ(e.key_path(), "layout");
  EXPECT_TRUE(contains(e.message(), "= 8589934592 CPUs, above the limit of 65536 CPUs")) << e.what();
  EXPECT_FALSE(contains(e.message(), "no CPUs")) << e.what();
}

TEST_F(MachineLimits, TooManyNodesIsRefusedAtTheKey) {
  const auto e = load_error(child("many", "layout:\n  nodes: " + sourced("100000") + "\n"));
  EXPECT_EQ(e.key_path(), "layout.nodes.value");
  EXPECT_TRUE(contains(e.message(), "'nodes' 100000 is above the limit of 1024 NUMA nodes")) << e.what();
}

TEST_F(MachineLimits, AMachineBuiltInCodeAboveTheCpuLimitIsRefusedByMachine) {
  MachineSpec spec = load_machine("nehalem-ep-2s8c", kMachineDirs);
  spec.threads_per_core = 536870913;  // the 32-bit product is 8
  try {
    const Machine m(spec);
    ADD_FAILURE() << "a machine of 2^32 + 8 CPUs was built";
  } catch (const std::invalid_argument& e) {
    EXPECT_TRUE(contains(e.what(), "4294967304 CPUs")) << e.what();
  }
}

TEST_F(MachineLimits, AHugeDramAccessIsRefusedAndOneSecondStillLoads) {
  const auto e = load_error(child("slow", "memory:\n  dram_access: " + sourced("9000000s") + "\n"));
  EXPECT_EQ(e.key_path(), "memory.dram_access.value");
  EXPECT_TRUE(contains(e.message(), "time '9000000s' is above the limit of 1s for a hardware latency")) << e.what();
  EXPECT_NO_THROW(load_machine(child("slow1", "memory:\n  dram_access: " + sourced("1s") + "\n"), kMachineDirs));
}

TEST_F(MachineLimits, TheMemorySizeAndPageSizeAreCheckedAndLoaded) {
  auto with = [&](const char* name, const std::string& size, const std::string& page) {
    return child(name, "memory:\n  size: " + sourced(size) + "\n  page_size: " + sourced(page) + "\n");
  };
  const auto small = load_error(with("tiny", "1MiB", "4KiB"));
  EXPECT_EQ(small.key_path(), "memory.size.value");
  EXPECT_TRUE(contains(small.message(), "memory size must be 16MiB..1PiB")) << small.what();
  const auto odd = load_error(with("odd", "24GiB", "3KiB"));
  EXPECT_EQ(odd.key_path(), "memory.page_size.value");
  EXPECT_TRUE(contains(odd.message(), "page_size must be a power of two")) << odd.what();
  const auto m = load_machine(with("ok", "48GiB", "16KiB"), kMachineDirs);
  EXPECT_EQ(m.memory_bytes, std::uint64_t{48} << 30);
  EXPECT_EQ(m.page_size, 16384u);
}

TEST_F(MachineLimits, ACacheLatencyJustBelowTheEndOfTheClockIsRefused) {
  const std::string l1 = "caches:\n  - name: L1D\n    shared_by: " + sourced("1") + "\n    size: " + sourced("32KiB") +
                         "\n    ways: " + sourced("8") + "\n    latency: " + sourced("9000000000000000000ps") + "\n";
  const auto e = load_error(child("l1slow", l1));
  EXPECT_EQ(e.key_path(), "caches[0].latency.value");
  EXPECT_TRUE(contains(e.message(), "above the limit of 1s")) << e.what();
}

TEST_F(MachineLimits, CostsAndLinkLatenciesInCyclesOrTimeAreCapped) {
  auto e = load_error(child("fence", "coherence:\n  costs:\n    fence: " + sourced("5000000000cycles") + "\n"));
  EXPECT_EQ(e.key_path(), "coherence.costs.fence.value");
  e = load_error(child("qpi", "interconnect:\n  link_classes:\n    qpi:\n      latency: " + sourced("2s") +
                                  "\n      bandwidth: " + sourced("12.8GB/s") + "\n"));
  EXPECT_EQ(e.key_path(), "interconnect.link_classes.qpi.latency.value");
  e = load_error(child("dlink", "interconnect:\n  domain_link: " + sourced("1.5s") + "\n"));
  EXPECT_EQ(e.key_path(), "interconnect.domain_link.value");
}

TEST_F(MachineLimits, AnInfiniteClockIsRefused) {
  const auto e = load_error(child("fast", "clock: " + sourced("1e300GHz") + "\n"));
  EXPECT_EQ(e.key_path(), "clock.value");
  EXPECT_TRUE(contains(e.message(), "frequency '1e300GHz' is too large")) << e.what();
}

TEST_F(MachineLimits, AnAbsurdlySlowClockIsBlamedOnTheClockNotOnACache) {
  const auto e = load_error(child("tiny", "clock: " + sourced("1e-300Hz") + "\n"));
  EXPECT_EQ(e.key_path(), "clock.value");
  EXPECT_TRUE(contains(e.message(), "outside the supported 1MHz..100GHz")) << e.what();
  EXPECT_NO_THROW(load_machine(child("mhz", "clock: " + sourced("1MHz") + "\n"), kMachineDirs));
}

std::string l3(const std::string& size, const std::string& ways) {
  return "caches:\n"
         "  - name: L1D\n    shared_by: {value: 1, source: \"x\"}\n    size: {value: 32KiB, source: \"x\"}\n"
         "    ways: {value: 8, source: \"x\"}\n    latency: {value: 4cycles, source: \"x\"}\n"
         "  - name: L3\n    shared_by: {value: 4, source: \"x\"}\n    size: " +
         sourced(size) + "\n    ways: " + sourced(ways) +
         "\n    latency: {value: 40cycles, source: \"x\"}\n    inclusion: inclusive\n";
}

TEST_F(MachineLimits, AHugeAssociativityIsRefusedBeforeItHangsEveryAccess) {
  const auto e = load_error(child("ways", l3("1GiB", "16777216")));  // one set of 2^24 ways
  EXPECT_EQ(e.key_path(), "caches[1].ways.value");
  EXPECT_TRUE(contains(e.message(), "ways 16777216 is above the limit of 1024")) << e.what();
}

TEST_F(MachineLimits, AHugeCacheIsRefusedAtItsSizeKey) {
  for (const std::string size : {"64GiB", "1TiB", "8000000TiB"}) {
    SCOPED_TRACE(size);
    const auto e = load_error(child("big", l3(size, "16")));
    EXPECT_EQ(e.key_path(), "caches[1].size.value");
    EXPECT_TRUE(contains(e.message(), "above the limit of 16777216 lines per cache instance")) << e.what();
  }
  EXPECT_NO_THROW(load_machine(child("gib", l3("1GiB", "16")), kMachineDirs));
}

TEST_F(MachineLimits, TheCachesOfAllCoresTogetherAreBounded) {
  // 2 x 1 x 16384 x 2 = 65536 CPUs is allowed, but 32768 cores' nehalem caches are 2^31 lines.
  const auto e = load_error(child("cores", "layout:\n  cores_per_socket: " + sourced("16384") + "\n"));
  EXPECT_EQ(e.key_path(), "caches");
  EXPECT_TRUE(contains(e.message(), "above the limit of 268435456 lines")) << e.what();
}

TEST_F(MachineLimits, MoreCacheDomainsThanALineRecordCanNameAreRefusedAtTheCaches) {
  // Without a shared level every core is its own domain: 2 sockets x 16384 cores = 32768 domains,
  // one above what a line record keeps in 16 bits with a sign; 2 x 16383 loads.
  const std::string private_only = "caches:\n  - name: L1D\n    shared_by: " + sourced("1") +
                                   "\n    size: " + sourced("1KiB") + "\n    ways: " + sourced("4") +
                                   "\n    latency: " + sourced("4cycles") + "\n";
  const auto e = load_error(child("domains", "layout:\n  cores_per_socket: " + sourced("16384") + "\n" + private_only));
  EXPECT_EQ(e.key_path(), "caches");
  EXPECT_TRUE(contains(e.message(), "32768 cache domains")) << e.what();
  EXPECT_TRUE(contains(e.message(), "above the limit of 32767")) << e.what();
  EXPECT_NO_THROW(load_machine(
      child("domains-ok", "layout:\n  cores_per_socket: " + sourced("16383") + "\n" + private_only), kMachineDirs));
}

TEST_F(MachineLimits, AFullMeshWithTooManyLinksIsRefusedBeforeItIsBuilt) {
  const auto e = load_error(synthetic("mesh", {{"nodes: {value: 64", "nodes: {value: 1024"},
                                               {"    kind: fat-tree\n", "    kind: full-mesh\n    class: fabric\n"}}));
  EXPECT_EQ(e.key_path(), "interconnect.generator.kind");
  EXPECT_TRUE(contains(e.message(), "a full mesh of 1024 nodes has 523776 links, above the limit of 65536 links"))
      << e.what();
}

TEST_F(MachineLimits, AFatTreeWithAHundredMillionSpinesIsRefusedAtSpines) {
  const auto e = load_error(synthetic("spines", {{"spines: {value: 4", "spines: {value: 100000000"}}));
  EXPECT_EQ(e.key_path(), "interconnect.generator.spines.value");
  EXPECT_TRUE(contains(e.message(), "above the limit of 4096 routers")) << e.what();
}

TEST_F(MachineLimits, ALongRingIsRefusedForItsStoredRoutes) {
  const auto e = load_error(synthetic("ring", {{"nodes: {value: 64", "nodes: {value: 1024"},
                                               {"cores_per_socket: {value: 16", "cores_per_socket: {value: 1"},
                                               {"    kind: fat-tree\n    nodes_per_leaf: {value: 8, source: "
                                                "\"estimate: synthetic machine for scale testing\"}\n    spines: "
                                                "{value: 4, source: \"estimate: synthetic machine for scale "
                                                "testing\"}\n    leaf_class: fabric\n    spine_class: fabric\n",
                                                "    kind: ring\n    class: fabric\n"}}));
  EXPECT_EQ(e.key_path(), "interconnect");
  EXPECT_TRUE(contains(e.message(), "links in all, the limit (every route is stored)")) << e.what();
}

TEST_F(MachineLimits, ALinkTooSlowToCarryOneLineASecondIsRefused) {
  const auto e = load_error(child("bw", "interconnect:\n  link_classes:\n    qpi:\n      latency: " + sourced("20ns") +
                                            "\n      bandwidth: " + sourced("1e-300B/s") + "\n"));
  EXPECT_EQ(e.key_path(), "interconnect.link_classes.qpi.bandwidth.value");
  EXPECT_TRUE(contains(e.message(), "is too low: one 64 B line would occupy the link for more than 1s")) << e.what();
}

TEST_F(MachineLimits, AMachineBuiltInCodeWithAComponentAboveOneSecondIsRefusedByMachine) {
  MachineSpec spec = load_machine("nehalem-ep-2s8c", kMachineDirs);
  spec.dram_access = 5'000'000'000'000'000'000;
  try {
    const Machine m(spec);
    ADD_FAILURE() << "a DRAM access of 5e18 ps was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_TRUE(contains(e.what(), "dram_access of 5000000000000000000 ps is outside 0..1s")) << e.what();
  }
}

TEST(MachineCycles, ACycleCountThatDoesNotFitPicosecondsThrowsInsteadOfWrapping) {
  const Machine m(load_machine("nehalem-ep-2s8c", kMachineDirs));
  EXPECT_EQ(m.cycles(2.93e9), 1'000'000'000'000);  // one second
  EXPECT_THROW(m.cycles(1e300), std::runtime_error);
  EXPECT_THROW(m.cycles(std::numeric_limits<double>::quiet_NaN()), std::runtime_error);
  try {
    m.cycles(1e300);
  } catch (const std::runtime_error& e) {
    EXPECT_TRUE(contains(e.what(), "does not fit the simulated clock")) << e.what();
  }
}

}  // namespace
}  // namespace walksim::machine

namespace walksim::machine {
namespace {

// The home's serialisation policy decides how fast a saturated line moves, so a machine must say
// which it has (with a source) and a forwarding home must say how long an owner keeps the line.
TEST_F(MachineLimits, TheHomePolicyIsRequiredAndRetentionBelongsToAForwardingHome) {
  auto e = load_error(synthetic(
      "nohome", {{"  home: {value: blocking, source: \"estimate: synthetic machine for scale testing\"}\n", ""}}));
  EXPECT_EQ(e.key_path(), "coherence.home");
  EXPECT_TRUE(contains(e.message(), "home")) << e.what();

  e = load_error(synthetic("nosuch", {{"home: {value: blocking", "home: {value: blockign"}}));
  EXPECT_EQ(e.key_path(), "coherence.home.value");
  EXPECT_TRUE(contains(e.message(), "blocking")) << e.what();

  e = load_error(synthetic("noretention", {{"home: {value: blocking", "home: {value: forwarding"}}));
  EXPECT_TRUE(contains(e.message(), "retention")) << e.what();

  e = load_error(synthetic(
      "stray", {{"  home: {value: blocking, source: \"estimate: synthetic machine for scale testing\"}\n",
                 "  home: {value: blocking, source: \"x\"}\n  retention: {value: 20cycles, source: \"x\"}\n"}}));
  EXPECT_EQ(e.key_path(), "coherence.retention");
  EXPECT_TRUE(contains(e.message(), "only to 'home: forwarding'")) << e.what();

  const MachineSpec fwd = load_machine(
      synthetic("fwd",
                {{"  home: {value: blocking, source: \"estimate: synthetic machine for scale testing\"}\n",
                  "  home: {value: forwarding, source: \"x\"}\n  retention: {value: 20cycles, source: \"y\"}\n"}}),
      kMachineDirs);
  EXPECT_EQ(fwd.home_policy, HomePolicy::kForwarding);
  EXPECT_GT(fwd.home_retention, 0);
  EXPECT_EQ(fwd.sources.at("coherence.retention"), "y");

  const MachineSpec busy =
      load_machine(synthetic("busy", {{"home: {value: blocking", "home: {value: busy-on-forward"}}), kMachineDirs);
  EXPECT_EQ(busy.home_policy, HomePolicy::kBusyOnForward);
  e = load_error(synthetic(
      "busystray",
      {{"  home: {value: blocking, source: \"estimate: synthetic machine for scale testing\"}\n",
        "  home: {value: busy-on-forward, source: \"x\"}\n  retention: {value: 20cycles, source: \"x\"}\n"}}));
  EXPECT_EQ(e.key_path(), "coherence.retention");
}

// A home agent's occupancy per transaction is not modelled unless a machine gives it, with a source
// (a what-if: no shipped machine has a sourced value).
TEST_F(MachineLimits, TheHomeOccupancyIsZeroUnlessAMachineGivesItWithASource) {
  const std::string home = "  home: {value: blocking, source: \"estimate: synthetic machine for scale testing\"}\n";
  EXPECT_EQ(load_machine(synthetic("noocc", {}), kMachineDirs).home_occupancy, 0);
  const MachineSpec occ =
      load_machine(synthetic("occ", {{home, home + "  home_occupancy: {value: 7ns, source: \"w\"}\n"}}), kMachineDirs);
  EXPECT_EQ(occ.home_occupancy, sim::from_ns(7));
  EXPECT_EQ(occ.sources.at("coherence.home_occupancy"), "w");
  auto e = load_error(synthetic("unsourced", {{home, home + "  home_occupancy: 7ns\n"}}));
  EXPECT_EQ(e.key_path(), "coherence.home_occupancy");
  e = load_error(synthetic("negative", {{home, home + "  home_occupancy: {value: -7ns, source: \"w\"}\n"}}));
  EXPECT_TRUE(contains(e.key_path(), "coherence.home_occupancy")) << e.what();
}

// The order in which the home takes a line's waiting requests: arrival when left out; when given,
// one of the two known orders, with a source.
TEST_F(MachineLimits, TheServiceOrderIsArrivalUnlessAMachineSaysOtherwiseWithASource) {
  const std::string home = "  home: {value: blocking, source: \"estimate: synthetic machine for scale testing\"}\n";
  EXPECT_EQ(load_machine(synthetic("default", {}), kMachineDirs).service_order, ServiceOrder::kArrival);
  const MachineSpec rr = load_machine(
      synthetic("rr", {{home, home + "  service_order: {value: node-round-robin, source: \"z\"}\n"}}), kMachineDirs);
  EXPECT_EQ(rr.service_order, ServiceOrder::kNodeRoundRobin);
  EXPECT_EQ(rr.sources.at("coherence.service_order"), "z");
  auto e = load_error(synthetic("badorder", {{home, home + "  service_order: {value: round-robin, source: \"z\"}\n"}}));
  EXPECT_EQ(e.key_path(), "coherence.service_order.value");
  EXPECT_TRUE(contains(e.message(), "node-round-robin")) << e.what();
  e = load_error(synthetic("nosource", {{home, home + "  service_order: arrival\n"}}));
  EXPECT_EQ(e.key_path(), "coherence.service_order");
}

// A directory machine with an inclusive shared cache may say that a socket sharing a line clean
// answers a forwarded read from that cache (westmere-ex-8s80c does); any other machine may not:
// synthetic-1024c has no shared cache, nehalem-ep-2s8c is MESIF.
TEST_F(MachineLimits, RemoteSharedReadsFromTheLlcBelongToADirectoryWithAnInclusiveSharedCache) {
  const std::string coherence = "coherence:\n  remote_shared_reads: {value: VALUE, source: \"w\"}\n";
  const auto variant = [&](const std::string& name, const std::string& parent, const std::string& value) {
    std::string body = coherence;
    body.replace(body.find("VALUE"), 5, value);
    return write(name, "name: " + name + "\nextends: " + parent + "\ndescription: \"x\"\n" + body);
  };
  EXPECT_TRUE(load_machine("westmere-ex-8s80c", kMachineDirs).remote_shared_reads_from_llc);
  const MachineSpec snoop = load_machine(variant("wsnoop", "westmere-ex-8s80c", "core-snoop"), kMachineDirs);
  EXPECT_FALSE(snoop.remote_shared_reads_from_llc);
  EXPECT_EQ(snoop.sources.at("coherence.remote_shared_reads"), "w");
  auto e = load_error(variant("wbad", "westmere-ex-8s80c", "l3"));
  EXPECT_EQ(e.key_path(), "coherence.remote_shared_reads.value");
  const std::string home = "  home: {value: blocking, source: \"estimate: synthetic machine for scale testing\"}\n";
  e = load_error(synthetic("nollc", {{home, home + "  remote_shared_reads: {value: llc, source: \"w\"}\n"}}));
  EXPECT_EQ(e.key_path(), "coherence.remote_shared_reads");
  EXPECT_TRUE(contains(e.message(), "inclusive shared cache")) << e.what();
  e = load_error(variant("mesif", "nehalem-ep-2s8c", "llc"));
  EXPECT_EQ(e.key_path(), "coherence.remote_shared_reads");
}

// How an idle CPU is woken is required and cited; an IPI's send cost belongs to 'idle_wake: ipi'.
TEST_F(MachineLimits, TheIdleWakeIsRequiredAndAnMwaitMachineSendsNoIpi) {
  const std::string ipi = "  idle_wake: {value: ipi, source: \"estimate: synthetic machine for scale testing\"}\n";
  auto e = load_error(synthetic("noidle", {{ipi, ""}}));
  EXPECT_EQ(e.key_path(), "interrupts.idle_wake");
  e = load_error(synthetic("badidle", {{"idle_wake: {value: ipi", "idle_wake: {value: ipl"}}));
  EXPECT_TRUE(contains(e.message(), "mwait")) << e.what();
  e = load_error(synthetic("mwaitsend", {{"idle_wake: {value: ipi", "idle_wake: {value: mwait"}}));
  EXPECT_EQ(e.key_path(), "interrupts.ipi_send");
  EXPECT_TRUE(contains(e.message(), "only to 'idle_wake: ipi'")) << e.what();
  const MachineSpec m = load_machine(synthetic("ipi", {}), kMachineDirs);
  EXPECT_EQ(m.interrupts.idle_wake, IdleWake::kIpi);
  EXPECT_GT(m.interrupts.ipi_send, 0);
  EXPECT_GT(m.interrupts.wake_exit, 0);
}

}  // namespace
}  // namespace walksim::machine

namespace walksim::machine {
namespace {

TEST_F(MachineLimits, ADirectorySaysWhetherItTracksSharersAndABroadcastMachineMayNot) {
  auto e = load_error(synthetic(
      "nosharers", {{"  sharers: {value: tracked, source: \"estimate: synthetic machine for scale testing\"}\n", ""}}));
  EXPECT_EQ(e.key_path(), "coherence.sharers");
  e = load_error(synthetic("badsharers", {{"sharers: {value: tracked", "sharers: {value: some"}}));
  EXPECT_TRUE(contains(e.message(), "owner-only")) << e.what();
  e = load_error(child("bcast", "coherence:\n  sharers: " + sourced("tracked") + "\n"));
  EXPECT_EQ(e.key_path(), "coherence.sharers");
  EXPECT_TRUE(contains(e.message(), "only to protocol 'directory'")) << e.what();
}

}  // namespace
}  // namespace walksim::machine
