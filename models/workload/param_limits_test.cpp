// Tests for the size and time limits of workload parameters (config/limits.hpp): a user time
// beyond a second per operation is refused with its key, so a run cannot overflow the clock and
// print negative CPU times; git-diff's tree is bounded by what a copy per process costs.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "models/config/config_error.hpp"
#include "models/workload/test_support.hpp"
#include "models/workload/trace_replay.hpp"
#include "models/workload/workload_registry.hpp"

namespace walksim::workload {
namespace {

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

config::ConfigError make_error(const WorkloadKind& kind, const std::string& yaml) {
  try {
    testing::make(kind, yaml);
  } catch (const config::ConfigError& e) {
    return e;
  }
  ADD_FAILURE() << kind.name << " accepted " << yaml;
  return config::ConfigError({}, "", "<none>");
}

TEST(WorkloadLimits, EveryUserTimeParameterIsCappedAtOneSecondPerOperation) {
  const std::vector<std::pair<const WorkloadKind*, std::string>> params{
      {&kStatLoopKind, "user_time"},          {&kOpenbenchKind, "user_time"},   {&kDbenchKind, "user_time"},
      {&kOpenCloseKind, "user_time"},         {&kCreatUnlinkKind, "user_time"}, {&kKbuildKind, "user_time_per_unit"},
      {&kGitDiffKind, "user_time_per_entry"}, {&kLockLoopKind, "think_time"},   {&kLockLoopKind, "hold_time"},
      {&kAtomicStressKind, "pause"}};
  for (const auto& [kind, key] : params) {
    SCOPED_TRACE(std::string(kind->name) + "." + key);
    const auto e = make_error(*kind, key + ": 9000000s");
    EXPECT_EQ(e.key_path(), key);
    EXPECT_TRUE(contains(e.message(), "time '9000000s' is above the limit of 1s for the user time of one operation"))
        << e.what();
    EXPECT_NO_THROW(testing::make(*kind, key + ": 1s"));
  }
}

TEST(WorkloadLimits, GitDiffFilesAreBoundedByTheMemoryOfATreeCopyPerProcess) {
  auto e = make_error(kGitDiffKind, "files: 10000000");
  EXPECT_EQ(e.key_path(), "files");
  EXPECT_TRUE(contains(e.message(), "files must be 1..300000")) << e.what();
  e = make_error(kGitDiffKind, "dirs: 4000000000");
  EXPECT_EQ(e.key_path(), "dirs");
  EXPECT_TRUE(contains(e.message(), "dirs must be 1..150000")) << e.what();
}

class TraceUserLimits : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = std::filesystem::temp_directory_path() / ("walksim-trace-user-" + std::to_string(::getpid()) + ".trace");
  }
  void TearDown() override { std::filesystem::remove(path_); }
  std::string write(const std::string& text) {
    std::ofstream(path_) << text;
    return path_.string();
  }
  std::filesystem::path path_;
};

TEST_F(TraceUserLimits, UserLinesBeforeOneCallAddingUpToMoreThanASecondAreRefusedAtTheLine) {
  const std::string path =
      write("process p0 cwd=/mnt/ram\nfile /mnt/ram/f\np0 user 600ms\np0 user 600ms\np0 stat ./f\n");
  try {
    load_trace(path);
    ADD_FAILURE() << "1.2 s of user time before one call was accepted";
  } catch (const config::ConfigError& e) {
    EXPECT_EQ(e.mark().line, 4);
    EXPECT_TRUE(contains(e.message(), "user time before one call adds up to more than 1s")) << e.what();
  }
  EXPECT_NO_THROW(
      load_trace(write("process p0 cwd=/mnt/ram\nfile /mnt/ram/f\np0 user 1s\np0 stat ./f\n"
                       "p0 user 1s\np0 stat ./f\n")));
}

}  // namespace
}  // namespace walksim::workload
