// Everything that can be checked before a run is checked at load, with the key (robustness review,
// defects 11, 18 and the cosmetic list; the issue's name, label, os and 50-operation rules).
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "models/config/config_error.hpp"
#include "tools/experiment/experiment_spec.hpp"

namespace walksim::experiment {
namespace {

const std::string kRoot = std::string(WALKSIM_SOURCE_DIR) + "/configs";

const std::string kPlain = R"(name: plain
description: "x"
machine: nehalem-ep-2s8c
kernels: [linux-2.6.38]
workload: {kind: stat-loop}
threads: [1, 2]
run: {ops_per_process: 100, warmup_ops: 0}
)";

// Loads `yaml` from a temporary file, removed however the load ends.
ExperimentSpec load_spec(const std::string& yaml) {
  struct TempFile {
    std::filesystem::path path =
        std::filesystem::temp_directory_path() / ("walksim-loader-" + std::to_string(getpid()) + ".yaml");
    ~TempFile() { std::filesystem::remove(path); }
  } file;
  std::ofstream(file.path) << yaml;
  return load_experiment(file.path.string(), kRoot);
}

// Loads `yaml`; returns the error (or "" when it loads).
std::string load(const std::string& yaml, std::string* key = nullptr) {
  try {
    load_spec(yaml);
  } catch (const config::ConfigError& e) {
    if (key) *key = e.key_path();
    return e.what();
  }
  return "";
}

// kPlain with the line starting with `key:` replaced by `line` (or `line` appended).
std::string with(const std::string& key, const std::string& line) {
  const std::string y = "\n" + kPlain;
  const auto at = y.find("\n" + key + ":");
  if (at == std::string::npos) return kPlain + line + "\n";
  const auto end = y.find('\n', at + 1);
  return y.substr(1, at) + line + y.substr(end);
}

void expect_error(const std::string& yaml, const std::string& key, const std::string& words) {
  std::string k;
  const std::string e = load(yaml, &k);
  EXPECT_FALSE(e.empty()) << "loaded:\n" << yaml;
  EXPECT_EQ(k, key) << e;
  EXPECT_NE(e.find(words), std::string::npos) << e;
}

TEST(ExperimentLoader, APlainStatLoopNeedsNoOsBlock) { EXPECT_EQ(load(kPlain), ""); }

// A workload that can sleep needs nothing more: waking is the scheduler's and the machine's.
TEST(ExperimentLoader, AWorkloadThatCanSleepNeedsNoWakeUpLatency) {
  EXPECT_EQ(load(with("workload", "workload: {kind: creat-unlink}")), "");
  expect_error(kPlain + "os: {wakeup_latency: {value: 5us, source: x}}\n", "os", "no longer read");
}

TEST(ExperimentLoader, ANameIsAPlainFileNameAndNeverAPathOrShellText) {
  expect_error(with("name", "name: \"x';touch PWNED;'\""), "name", "A-Z a-z 0-9 . _ -");
  expect_error(with("name", "name: ../../victim"), "name", "A-Z a-z 0-9 . _ -");
  expect_error(with("name", "name: .hidden"), "name", "does not start with '.'");
  EXPECT_EQ(load(with("name", "name: v-dbench_2.6.38")), "");
}

TEST(ExperimentLoader, ALabelCannotHoldControlCharacters) {
  expect_error(with("kernels", "kernels: [{kernel: linux-2.6.38, label: \"a\\e]0;TITLE\\a\"}]"), "kernels[0].label",
               "control characters");
}

TEST(ExperimentLoader, PublishedFiguresArePositiveInTheSweepInTheirUnitAndWithinANonNegativeTolerance) {
  const std::string head = "published:\n  - {metric: ns_per_op, kernel: linux-2.6.38, role: prediction, source: s, ";
  expect_error(kPlain + head + "threads: 1, value: 0, unit: ns}\n", "published[0].value", "positive");
  expect_error(kPlain + head + "threads: 1, value: -5, unit: ns}\n", "published[0].value", "positive");
  expect_error(kPlain + head + "threads: 1, value: 5, unit: ns, tolerance_pct: -10}\n", "published[0].tolerance_pct",
               ">= 0");
  expect_error(kPlain + head + "threads: 7, value: 5, unit: ns}\n", "published[0].threads",
               "not in the experiment's sweep");
  expect_error(kPlain + head + "threads: 1, value: 5, unit: furlongs}\n", "published[0].unit", "in 'ns'");
  expect_error(
      kPlain +
          "published:\n  - {metric: throughput, kernel: linux-2.6.38, role: prediction, source: s, threads: 1, "
          "value: 5, unit: MB/s}\n",
      "published[0].unit", "in 'stat/s'");
}

TEST(ExperimentLoader, APublishedMetricIsOneOfTheTablesAndTheSumsAreNotTakenForOneProcess) {
  const std::string head = "published:\n  - {kernel: linux-2.6.38, role: prediction, source: s, threads: 1, value: 5, ";
  // sys_s is the sum over processes in the results; a time(1) figure of one process is process_sys_s.
  expect_error(kPlain + head + "metric: sys_s, unit: s}\n", "published[0].metric", "'process_sys_s'");
  expect_error(kPlain + head + "metric: real_s, unit: s}\n", "published[0].metric", "wall_s");
  expect_error(kPlain + head + "metric: througput, unit: s}\n", "published[0].metric", "did you mean 'throughput'");
  expect_error(kPlain + head + "metric: loads_per_op, unit: count}\n", "published[0].metric", "unknown value");
  EXPECT_EQ(load(kPlain + head + "metric: process_sys_s, unit: s}\n"), "");
}

TEST(ExperimentLoader, AScalingFigureIsNoCalibrationPoint) {
  expect_error(
      kPlain +
          "calibrate: {parameter: cpu_cost_scale}\npublished:\n  - {metric: scaling_pct, kernel: linux-2.6.38, "
          "role: calibration, source: s, threads: 2, value: 90, unit: '%'}\n",
      "published[0].role", "give the throughput figures");
}

TEST(ExperimentLoader, RunLengthsAreBoundedAndMeasureEnough) {
  expect_error(with("repeats", "repeats: 4294967295"), "repeats", "at most 1000");
  expect_error(with("run", "run: {ops_per_process: 18446744073709551615}"), "run.ops_per_process", "within 1000000000");
  expect_error(with("run", "run: {duration: 9000000s}"), "run.duration", "at most 60s");
  expect_error(with("run", "run: {ops_per_process: 100, warmup_ops: 60}"), "run.ops_per_process",
               "would measure 40 operations");
  expect_error(with("run", "run: {ops_per_process: 100, extrapolate_to_ops: 0}"), "run.extrapolate_to_ops",
               "at least 1");
}

TEST(ExperimentLoader, AThreadSweepStartsAtOneAndNamesEachCountOnce) {
  expect_error(with("threads", "threads: [1, 1, 2]"), "threads", "listed twice");
  expect_error(with("threads", "threads: {from: 0, to: 4}"), "threads.from", "at 1 thread");
}

TEST(ExperimentLoader, AHugeCostScaleIsRefusedNotSilentlyZeroed) {
  expect_error(with("cpu_cost_scale", "cpu_cost_scale: 1e300"), "cpu_cost_scale", "(0, 1000]");
}

// The review's defect 3 inputs: found when the file is read, not when a point runs (where, with
// several jobs, they used to abort the program).
TEST(ExperimentLoader, ATracesNodesAndProcessCountAreCheckedAgainstTheMachineAndTheSweepAtLoad) {
  const auto dir = std::filesystem::temp_directory_path();
  const auto node5 = dir / ("walksim-node5-" + std::to_string(getpid()) + ".trace");
  std::ofstream(node5) << "process a cwd=/mnt/ram\nfile /mnt/ram/f node=5\na stat ./f\n";
  const std::string wl = "workload: {kind: trace-replay, params: {file: " + node5.string() + "}}";
  std::string k;
  const std::string plain_wl = "workload: {kind: stat-loop}";
  auto trace_run = [&](const std::string& threads) {
    std::string y = with("threads", threads);
    return y.replace(y.find(plain_wl), plain_wl.size(), wl);
  };
  std::string e = load(trace_run("threads: [1]"), &k);
  EXPECT_NE(e.find(node5.filename().string() + ":2:"), std::string::npos) << e;
  EXPECT_NE(e.find("node=5 but the machine has 2 nodes"), std::string::npos) << e;
  std::ofstream(node5) << "process a cwd=/mnt/ram\nprocess b cwd=/mnt/ram\na stat ./f\n";
  e = load(trace_run("threads: [1, 2]"), &k);
  EXPECT_EQ(k, "threads") << e;
  EXPECT_NE(e.find("declares 2 processes"), std::string::npos) << e;
  std::filesystem::remove(node5);
}

// Review defect 21: a kernel's boot node the machine lacks was clamped silently; now the kernel and
// the machine are checked against each other when the experiment is read.
TEST(ExperimentLoader, AKernelsBootNodeMustExistOnTheMachine) {
  const auto k = std::filesystem::temp_directory_path() / ("kboot" + std::to_string(getpid()) + ".yaml");
  std::ofstream(k) << "name: kboot" << getpid()
                   << "\nextends: linux-2.6.38\ndescription: x\nplacement:\n  boot_objects_node: 99\n";
  std::string key;
  const std::string e = load(with("kernels", "kernels: [" + k.string() + "]"), &key);
  EXPECT_EQ(key, "placement.boot_objects_node") << e;
  EXPECT_NE(e.find("node 99 does not exist on machine 'nehalem-ep-2s8c'"), std::string::npos) << e;
  std::filesystem::remove(k);
}

TEST(ExperimentLoader, AnEmptyFileSaysWhatAnExperimentIs) {
  std::string k;
  EXPECT_NE(load("", &k).find("the file is empty: an experiment file is a mapping"), std::string::npos);
  EXPECT_NE(load("# only a comment\n", &k).find("the file is empty"), std::string::npos);
  const std::string list = load("- a\n", &k);
  EXPECT_EQ(list.find("empty"), std::string::npos) << list;
  EXPECT_NE(list.find("an experiment file is a mapping"), std::string::npos) << list;
}

}  // namespace
}  // namespace walksim::experiment

namespace walksim::experiment {
namespace {

const std::string kSeries = R"(name: series
description: "x"
machine: nehalem-ep-2s8c
kernels:
  - {kernel: linux-2.6.35, label: ticket, params: {lock: ticket}}
  - {kernel: linux-2.6.35, label: mcs, params: {lock: mcs, protected_lines: 2}}
workload: {kind: lock-loop, params: {think_time: auto, protected_lines: 1}}
threads: [1, 2]
run: {ops_per_process: 100, warmup_ops: 0}
)";

std::string replaced(std::string y, const std::string& from, const std::string& to) {
  return y.replace(y.find(from), from.size(), to);
}

TEST(ExperimentLoader, AKernelEntryCanCarryWorkloadParametersOverTheSharedOnesKeyByKey) {
  const auto path = std::filesystem::temp_directory_path() / ("walksim-series-" + std::to_string(getpid()) + ".yaml");
  std::ofstream(path) << kSeries;
  const ExperimentSpec e = load_experiment(path.string(), kRoot);
  std::filesystem::remove(path);
  ASSERT_EQ(e.kernel_params.size(), 2u);
  ASSERT_TRUE(e.kernel_params[0] && e.kernel_params[1]);
  EXPECT_EQ(e.kernel_params[0]->child("lock").as_string(), "ticket");
  EXPECT_EQ(e.kernel_params[0]->child("protected_lines").as_uint32(), 1u);  // the shared value
  EXPECT_EQ(e.kernel_params[1]->child("protected_lines").as_uint32(), 2u);  // the entry's own
  EXPECT_EQ(e.kernel_params[1]->child("think_time").as_string(), "auto");
  EXPECT_FALSE(e.seeded);
  // What results.json records: every parameter as resolved, defaults included, per entry.
  auto value = [](const workload::ResolvedParams& ps, std::string_view key) {
    for (const auto& p : ps) {
      if (p.key == key) return p.value;
    }
    ADD_FAILURE() << "no resolved parameter " << key;
    return workload::ParamValue{};
  };
  ASSERT_EQ(e.kernel_resolved.size(), 2u);
  EXPECT_EQ(value(e.workload_resolved, "lock"), workload::ParamValue{});  // the kernel's spinlock
  EXPECT_EQ(value(e.workload_resolved, "hold_time"), workload::ParamValue{std::string("100ns")});  // a default
  EXPECT_EQ(value(e.kernel_resolved[0], "lock"), workload::ParamValue{std::string("ticket")});
  EXPECT_EQ(value(e.kernel_resolved[0], "protected_lines"), workload::ParamValue{std::uint64_t{1}});
  EXPECT_EQ(value(e.kernel_resolved[1], "protected_lines"), workload::ParamValue{std::uint64_t{2}});
  EXPECT_EQ(value(e.kernel_resolved[1], "think_time"), workload::ParamValue{std::string("auto")});
}

TEST(ExperimentLoader, AnEntrysWorkloadParametersAreCheckedAtTheirOwnKey) {
  expect_error(replaced(kSeries, "lock: mcs,", "lock: mcss,"), "kernels[1].params.lock", "'mcs'");
  expect_error(replaced(kSeries, "lock: mcs,", "lokc: mcs,"), "kernels[1].params.lokc", "did you mean 'lock'");
  expect_error(replaced(kSeries, "protected_lines: 2}", "protected_lines: 99}"), "kernels[1].params.protected_lines",
               "0..64");
  expect_error(replaced(kSeries, "params: {lock: ticket}", "params: ticket"), "kernels[0].params", "mapping");
}

TEST(ExperimentLoader, SeveralLocksInAnEntrysParametersAreSeeded) {
  const auto path = std::filesystem::temp_directory_path() / ("walksim-seeded-" + std::to_string(getpid()) + ".yaml");
  std::ofstream(path) << replaced(kSeries, "lock: mcs,", "lock: mcs, locks: 512,");
  const ExperimentSpec e = load_experiment(path.string(), kRoot);
  std::filesystem::remove(path);
  EXPECT_TRUE(e.seeded);
}

}  // namespace
}  // namespace walksim::experiment

namespace walksim::experiment {
namespace {

const std::string kVaried = R"(name: varied
description: "x"
machine: nehalem-ep-2s8c
kernels: [linux-2.6.35, linux-2.6.38]
workload: {kind: stat-loop, params: {path_components: 2}}
vary:
  machine.memory.dram_access: [30ns, 60ns]
  kernel.cpu_costs.component: {scale: [0.5, 2]}
  workload.params.path_components: [1, 3]
threads: [1, 2]
run: {ops_per_process: 100, warmup_ops: 0}
)";

TEST(Vary, EveryKernelEntryBecomesOneSeriesPerCombinationOfTheAxes) {
  const ExperimentSpec s = load_spec(kVaried);
  ASSERT_EQ(s.axes.size(), 3u);
  ASSERT_EQ(s.kernels.size(), 2u * 2 * 2 * 2);
  EXPECT_EQ(s.kernels[0], "linux-2.6.35 dram_access=30ns component=x0.5 path_components=1");
  EXPECT_EQ(s.kernels[15], "linux-2.6.38 dram_access=60ns component=x2 path_components=3");
  EXPECT_EQ(s.entry_labels[15], "linux-2.6.38");
  EXPECT_EQ(s.kernel_variants[15], "linux-2.6.38");
  EXPECT_EQ((s.axis_values[5]), (std::vector<std::string>{"60ns", "x0.5", "3"}));
  ASSERT_EQ(s.machine_overrides[5].size(), 1u);
  EXPECT_EQ(s.machine_overrides[5][0].path, "memory.dram_access");
  EXPECT_EQ(s.kernel_overrides[5][0].scale, 0.5);
  // The workload of a series reads its own value of the axis.
  ASSERT_TRUE(s.kernel_params[5]);
  EXPECT_EQ(s.kernel_params[5]->child("path_components").as_uint(), 3u);
  EXPECT_EQ(std::get<std::uint64_t>(s.kernel_resolved[5][0].value), 3u);
}

TEST(Vary, AMistakenPathOrValueIsNamedWhereTheExperimentWritesIt) {
  auto varied = [](const std::string& axis) {
    std::string y = kVaried;
    const auto at = y.find("vary:\n");
    const auto end = y.find("threads:");
    return y.substr(0, at) + "vary:\n  " + axis + "\n" + y.substr(end);
  };
  std::string key;
  std::string e = load(varied("machine.memory.dram_acess: [30ns]"), &key);
  EXPECT_NE(e.find("has no key 'dram_acess' (did you mean 'dram_access'?)"), std::string::npos) << e;
  EXPECT_NE(e.find(":7:"), std::string::npos) << e;  // the experiment file, the vary line
  e = load(varied("machine.memory.dram_access: [30furlongs]"), &key);
  EXPECT_NE(e.find("30furlongs"), std::string::npos) << e;
  EXPECT_NE(e.find(":7:"), std::string::npos) << e;
  e = load(varied("kernel.cpu_costs.componnt: {scale: [2]}"), &key);
  EXPECT_NE(e.find("did you mean 'component'"), std::string::npos) << e;
  e = load(varied("workload.params.path_componnts: [2]"), &key);
  EXPECT_NE(e.find("path_componnts"), std::string::npos) << e;
  e = load(varied("disk.speed: [1]"), &key);
  EXPECT_NE(e.find("starting with machine., kernel. or workload.params."), std::string::npos) << e;
  e = load(varied("machine.memory.dram_access: [30ns, 30ns]"), &key);
  EXPECT_NE(e.find("given twice"), std::string::npos) << e;
  e = load(varied("machine.layout.cores_per_socket: [1]"), &key);  // the machine it makes is checked whole
  EXPECT_NE(e.find("does not fit the layout: with 1 cores per socket"), std::string::npos) << e;
  e = load(
      kVaried +
          "published:\n  - {metric: throughput, kernel: linux-2.6.35, threads: 1, value: 1, unit: stat/s, source: x}\n",
      &key);
  EXPECT_NE(e.find("cannot vary"), std::string::npos) << e;
}

// placement: {cpus: [...]} names each thread's CPU; a list that does not fit the machine or the
// sweep is an error at the key that is wrong.
TEST(ExperimentLoader, APlacementListNamesDistinctCpusOfTheMachineForEveryThread) {
  const ExperimentSpec e = load_spec(with("placement", "placement: {cpus: [9, 2]}"));
  EXPECT_EQ(e.placement, workload::Placement::kList);
  EXPECT_EQ(e.placement_cpus, (std::vector<workload::CpuId>{9, 2}));
  EXPECT_EQ(load_spec(with("placement", "placement: compact")).placement, workload::Placement::kCompact);
  expect_error(with("placement", "placement: {cpus: [0, 16]}"), "placement.cpus[1]", "not on nehalem-ep-2s8c");
  expect_error(with("placement", "placement: {cpus: [3, 3]}"), "placement.cpus[1]", "listed twice");
  expect_error(with("placement", "placement: {cpus: [3]}"), "threads", "lists 1 CPU");
  expect_error(with("placement", "placement: {cpus: []}"), "placement.cpus", "list of CPU numbers");
  expect_error(with("placement", "placement: {cpus: [0, 1], pin: yes}"), "placement.pin", "unknown key");
  expect_error(with("placement", "placement: [0, 1]"), "placement", "{cpus: [0, 6]}");
}

// git-diff on ext3 or ext4 needs the kernel's inode container (`filesystems:`): one whose struct
// inode is not laid out by offsets (linux-6.x) is refused at its entry, before anything runs.
TEST(ExperimentLoader, AFilesystemTheKernelHasNoInodeContainerForIsRefusedAtItsEntry) {
  const std::string yaml = R"(name: fs
description: "x"
machine: westmere-ep-2s12c
kernels: [linux-2.6.37, linux-6.x]
workload: {kind: git-diff, params: {files: 3000, dirs: 200, filesystem: ext4}}
threads: [1]
run: {ops_per_process: 3000, warmup_ops: 0}
)";
  std::string key;
  const std::string e = load(yaml, &key);
  EXPECT_EQ(key, "kernels[1]");
  EXPECT_NE(e.find("kernel 'linux-6.x' has no ext4 inode container"), std::string::npos) << e;
  std::string fine = yaml;
  fine.replace(fine.find("kernels: [linux-2.6.37, linux-6.x]"), 34, "kernels: [linux-2.6.37, linux-2.6.38]");
  EXPECT_EQ(load(fine), "");
}

}  // namespace
}  // namespace walksim::experiment
