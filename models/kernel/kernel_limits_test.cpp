// Tests for the kernel file limits and the machine check of a kernel: huge step costs and huge
// layouts are refused at load with the key, and a boot node the machine lacks is an error naming
// the kernel file, line and key and the machine's node count, both before a run and inside Vfs.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "models/coherence/memory_system.hpp"
#include "models/config/config_error.hpp"
#include "models/kernel/kernel_loader.hpp"
#include "models/kernel/test_support.hpp"
#include "models/kernel/vfs.hpp"
#include "models/machine/machine_loader.hpp"

namespace walksim::kernel {
namespace {

namespace fs = std::filesystem;

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

class KernelLimits : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("walksim-kernel-limits-" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // A kernel `name` extending linux-2.6.35 with `body` appended.
  std::string child(const std::string& name, const std::string& body) {
    const fs::path p = dir_ / (name + ".yaml");
    std::ofstream(p) << "name: " << name << "\nextends: linux-2.6.35\ndescription: \"x\"\n" << body;
    return p.string();
  }

  // A kernel file `name` of its own (no extends:): linux-2.6.35.yaml without its cpu_costs entry `step`.
  std::string own_kernel_without(const std::string& name, const std::string& step) {
    std::ifstream base(std::string(WALKSIM_SOURCE_DIR) + "/configs/kernels/linux-2.6.35.yaml");
    std::string text, line;
    while (std::getline(base, line)) {
      if (line.rfind("name: ", 0) == 0) line = "name: " + name;
      if (line.rfind("  " + step + ":", 0) != 0) text += line + "\n";
    }
    const fs::path p = dir_ / (name + ".yaml");
    std::ofstream(p) << text;
    return p.string();
  }

  static config::ConfigError load_error(const std::string& path) {
    try {
      load_kernel(path, testing::kernel_dirs());
    } catch (const config::ConfigError& e) {
      return e;
    }
    ADD_FAILURE() << path << " loaded without error";
    return config::ConfigError({}, "", "<none>");
  }

  fs::path dir_;
};

TEST_F(KernelLimits, AHugeStepCostIsRefusedInsteadOfVanishingInTheConversion) {
  const auto e = load_error(child("kbig", "cpu_costs:\n  syscall: {cycles: 1e300, source: \"estimate: attack\"}\n"));
  EXPECT_EQ(e.key_path(), "cpu_costs.syscall.cycles");
  EXPECT_EQ(e.mark().line, 5);
  EXPECT_TRUE(contains(e.message(), "cycles 1e300 is above the limit of 1e9")) << e.what();
  EXPECT_NO_THROW(load_kernel(child("kmax", "cpu_costs:\n  syscall: {cycles: 1e9, source: \"estimate: x\"}\n"),
                              testing::kernel_dirs()));
}

// A kernel file of its own (no extends:) without the futex calls' cost is refused at load, at its
// cpu_costs key, rather than when a pthread mutex first sleeps in the middle of a run.
TEST_F(KernelLimits, AKernelWithoutTheFutexCostIsRefusedAtLoad) {
  const auto e = load_error(own_kernel_without("kfutex", "futex"));
  EXPECT_EQ(e.key_path(), "cpu_costs");
  EXPECT_TRUE(contains(e.message(), "no cpu_costs entry 'futex'")) << e.what();
}

// Any step the kernel's calls charge (here the per-byte name hash) missing from a kernel file of its
// own is refused at load at the cpu_costs key, naming the step; before, it was reported at
// `layouts`, the part of the load whose trial expansion happened to find it.
TEST_F(KernelLimits, AKernelWithoutAStepItsCallsChargeIsRefusedAtItsCpuCosts) {
  const auto e = load_error(own_kernel_without("kbytes", "name_hash_byte"));
  EXPECT_EQ(e.key_path(), "cpu_costs");
  EXPECT_TRUE(contains(e.message(), "no cpu_costs entry 'name_hash_byte'")) << e.what();
}

// glibc's pthread mutex is a user-space lock: a lock-loop may take it, a kernel cannot be built on it.
TEST_F(KernelLimits, AUserSpaceLockIsNotAKernelsMutex) {
  const auto e = load_error(child("kpm", "locking:\n  mutex: pthread-mutex\n"));
  EXPECT_EQ(e.key_path(), "locking.mutex");
  EXPECT_TRUE(contains(e.message(), "'mutex', 'mutex-spin'")) << e.what();
  EXPECT_NO_THROW(load_kernel(child("kms", "locking:\n  mutex: mutex-spin\n"), testing::kernel_dirs()));
}

TEST_F(KernelLimits, ALayoutOfTooManyLinesIsRefusedAtItsKey) {
  std::string lines =
      "layouts:\n  dentry:\n    - [d_count, d_flags, d_lock, d_mounted, d_inode, d_hash, d_parent, d_name]\n";
  for (int i = 0; i < 64; ++i) lines += "    - []\n";  // 65 lines: one above the limit
  const auto e = load_error(child("klines", lines));
  EXPECT_EQ(e.key_path(), "layouts.dentry");
  EXPECT_TRUE(contains(e.message(), "the layout of dentry has 65 lines, above the limit of 64")) << e.what();
}

TEST_F(KernelLimits, ABootNodeTheMachineLacksIsAnErrorAtTheKernelKey) {
  const KernelSpec k = load_kernel(child("kboot", "placement:\n  boot_objects_node: 99\n"), testing::kernel_dirs());
  EXPECT_EQ(k.boot_node, 99u);
  try {
    check_kernel_fits_machine(k, 2, "nehalem-ep-2s8c");
    ADD_FAILURE() << "node 99 accepted on a 2-node machine";
  } catch (const config::ConfigError& e) {
    EXPECT_TRUE(contains(e.mark().file, "kboot.yaml")) << e.what();
    EXPECT_EQ(e.mark().line, 5);
    EXPECT_EQ(e.key_path(), "placement.boot_objects_node");
    EXPECT_EQ(e.message(),
              "node 99 does not exist on machine 'nehalem-ep-2s8c', which has 2 NUMA nodes (valid values: 0..1)");
  }
  EXPECT_NO_THROW(check_kernel_fits_machine(k, 100));
}

TEST_F(KernelLimits, VfsRefusesABootNodeTheMachineLacksInsteadOfClampingIt) {
  const KernelSpec k =
      load_kernel(child("kboot2", "placement:\n  boot_objects_node: 4294967295\n"), testing::kernel_dirs());
  const machine::Machine m(machine::load_machine("nehalem-ep-2s8c", testing::machine_dirs()));
  coherence::MemorySystem mem(m, false);
  try {
    const Vfs vfs(mem, k);
    ADD_FAILURE() << "Vfs clamped node 4294967295 onto a 2-node machine";
  } catch (const config::ConfigError& e) {
    EXPECT_EQ(e.key_path(), "placement.boot_objects_node");
    EXPECT_TRUE(contains(e.message(), "node 4294967295 does not exist on machine 'nehalem-ep-2s8c'")) << e.what();
  }
}

TEST_F(KernelLimits, EveryShippedKernelFitsTheSmallestShippedMachine) {
  for (const std::string& name : list_kernels(testing::kernel_dirs())) {
    SCOPED_TRACE(name);
    EXPECT_NO_THROW(check_kernel_fits_machine(load_kernel(name, testing::kernel_dirs()), 1));
  }
}

}  // namespace
}  // namespace walksim::kernel
