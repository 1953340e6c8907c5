// layout.smt_throughput: every shipped SMT machine gives it with a source, machines without SMT
// have none, and a missing, out-of-range, sourceless, too fine or meaningless one is one
// ConfigError at its key (files in models/machine/testdata).
#include <gtest/gtest.h>

#include <stdexcept>

#include "models/config/config_error.hpp"
#include "models/machine/machine.hpp"
#include "models/machine/machine_loader.hpp"

namespace walksim::machine {
namespace {

const std::string kRoot = WALKSIM_SOURCE_DIR;
const std::vector<std::string> kMachineDirs{kRoot + "/configs/machines"};

std::string testdata(const std::string& name) { return kRoot + "/models/machine/testdata/" + name + ".yaml"; }

config::ConfigError load_error(const std::string& name) {
  try {
    load_machine(testdata(name), kMachineDirs);
  } catch (const config::ConfigError& e) {
    return e;
  }
  ADD_FAILURE() << name << " loaded without error";
  return config::ConfigError({}, "", "<none>");
}

void expect_error(const config::ConfigError& e, int line, const std::string& key_path, const std::string& fragment) {
  EXPECT_EQ(e.mark().line, line) << e.what();
  EXPECT_EQ(e.key_path(), key_path) << e.what();
  EXPECT_NE(e.message().find(fragment), std::string::npos) << "expected '" << fragment << "' in: " << e.what();
}

TEST(SmtThroughput, EveryShippedSmtMachineGivesItWithASourceAndTheOthersDoNot) {
  for (const std::string& name : list_machines(kMachineDirs)) {
    SCOPED_TRACE(name);
    const MachineSpec m = load_machine(name, kMachineDirs);
    if (m.threads_per_core > 1) {
      EXPECT_GT(m.smt_throughput, 0.0);
      EXPECT_LT(m.smt_throughput, 1.0);
      ASSERT_TRUE(m.sources.count("layout.smt_throughput"));
      EXPECT_FALSE(m.sources.at("layout.smt_throughput").empty());
    } else {
      EXPECT_EQ(m.smt_throughput, 1.0);
      EXPECT_FALSE(m.sources.count("layout.smt_throughput"));
    }
  }
}

TEST(SmtThroughput, TheNehalemAndZen4ValuesAreTheCitedOnes) {
  EXPECT_DOUBLE_EQ(load_machine("nehalem-ep-2s8c", kMachineDirs).smt_throughput, 0.59);
  EXPECT_DOUBLE_EQ(load_machine("westmere-ep-2s12c", kMachineDirs).smt_throughput, 0.59);
  EXPECT_DOUBLE_EQ(load_machine("nehalem-ex-4s32c", kMachineDirs).smt_throughput, 0.59);
  EXPECT_DOUBLE_EQ(load_machine("epyc-zen4-2s", kMachineDirs).smt_throughput, 0.68);
  EXPECT_EQ(Machine(load_machine("nehalem-ex-4s32c", kMachineDirs)).smt_throughput_ppm(), 590'000u);
}

TEST(SmtThroughput, AMachineWithSmtButNoThroughputIsRefusedAtThreadsPerCore) {
  expect_error(load_error("bad-smt-missing"), 5, "layout.smt_throughput", "missing: with threads_per_core 2 give");
}

TEST(SmtThroughput, AThroughputAboveOneIsRefused) {
  expect_error(load_error("bad-smt-range"), 5, "layout.smt_throughput.value", "1.2 is outside (0, 1]");
}

TEST(SmtThroughput, AThroughputOfZeroIsRefused) {
  expect_error(load_error("bad-smt-zero"), 5, "layout.smt_throughput.value", "0 is outside (0, 1]");
}

TEST(SmtThroughput, AThroughputWithoutASourceIsRefused) {
  expect_error(load_error("bad-smt-sourceless"), 5, "layout.smt_throughput", "missing 'source' for 'smt_throughput'");
}

TEST(SmtThroughput, AThroughputOnAMachineWithoutSmtIsRefusedRatherThanIgnored) {
  expect_error(load_error("bad-smt-without-smt"), 5, "layout.smt_throughput",
               "applies only to cores with more than one hardware thread");
}

TEST(SmtThroughput, AThroughputFinerThanMillionthsIsRefusedRatherThanRounded) {
  expect_error(load_error("bad-smt-digits"), 5, "layout.smt_throughput.value", "more than 6 decimal places");
}

TEST(SmtThroughput, AMachineBuiltInCodeWithAThroughputOutsideTheRangeIsRefused) {
  MachineSpec spec = load_machine("nehalem-ep-2s8c", kMachineDirs);
  spec.smt_throughput = 0;
  EXPECT_THROW(Machine{spec}, std::invalid_argument);
  spec.smt_throughput = 1.5;
  EXPECT_THROW(Machine{spec}, std::invalid_argument);
}

}  // namespace
}  // namespace walksim::machine
