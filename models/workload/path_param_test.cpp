// The directory parameters of the workloads are absolute paths without '.' or '..' components, as
// trace files require: a relative one used to be taken as if it started at '/', and '..' made a
// directory named '..'.
#include "models/workload/path_param.hpp"

#include <gtest/gtest.h>

#include "models/workload/test_support.hpp"

namespace walksim::workload {
namespace {

const WorkloadKind& kind(const std::string& name) {
  for (const auto& k : workload_kinds()) {
    if (k.name == name) return k;
  }
  throw std::invalid_argument("no workload " + name);
}

// The message for `key: value` in `workload`'s parameters, or "accepted".
std::string message(const std::string& workload, const std::string& key, const std::string& value) {
  try {
    testing::make(kind(workload), key + ": \"" + value + "\"");
  } catch (const config::ConfigError& e) {
    EXPECT_EQ(e.key_path(), key) << e.what();
    return e.message();
  }
  return "accepted";
}

TEST(PathParam, EveryWorkloadDirectoryMustBeAbsoluteWithoutDotOrDotDot) {
  const std::vector<std::pair<std::string, std::string>> params{{"stat-loop", "cwd"},    {"open-close", "cwd"},
                                                                {"creat-unlink", "cwd"}, {"dbench", "cwd"},
                                                                {"openbench", "dir"},    {"kbuild", "src"}};
  for (const auto& [workload, key] : params) {
    EXPECT_NE(message(workload, key, "relative/dir").find(key + " must be an absolute path such as '/"),
              std::string::npos)
        << workload;
    EXPECT_NE(message(workload, key, "relative/dir").find("not 'relative/dir'"), std::string::npos) << workload;
    EXPECT_NE(message(workload, key, "").find("must be an absolute path"), std::string::npos) << workload;
    EXPECT_EQ(message(workload, key, "/a/../b"), key + " '/a/../b' has a '..' component; write it without '.' or '..'")
        << workload;
    EXPECT_NE(message(workload, key, "/a/./b").find("has a '.' component"), std::string::npos) << workload;
    EXPECT_EQ(message(workload, key, "/srv/x"), "accepted") << workload;
  }
  EXPECT_NE(message("kbuild", "src", "/").find("a directory below '/'"), std::string::npos);
  EXPECT_EQ(message("stat-loop", "cwd", "/"), "accepted");
}

}  // namespace
}  // namespace walksim::workload
