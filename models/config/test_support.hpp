// Shared by the tests: the ConfigError a call throws, substring checks, and a scratch directory.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "models/config/config_error.hpp"

namespace walksim::config::testing {

// The ConfigError `f` throws; a test failure (and an empty error) when it throws none.
inline ConfigError config_error(auto&& f) {
  try {
    f();
  } catch (const ConfigError& e) {
    return e;
  }
  ADD_FAILURE() << "no ConfigError thrown";
  return ConfigError({}, "", "<none>");
}

inline bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// A directory of the test's own under the system's temporary directory, removed with everything in
// it when the test ends, so that no run leaves files behind. Named by the test's `tag` and the
// process id: concurrent test runs (two checkouts, ctest -j) never share one.
class ScratchDir {
 public:
  explicit ScratchDir(const std::string& tag)
      : path_(std::filesystem::temp_directory_path() / ("walksim-" + tag + "-" + std::to_string(::getpid()))) {
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~ScratchDir() {
    std::error_code ignored;  // a destructor must not throw; a leftover is not a test failure
    std::filesystem::remove_all(path_, ignored);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;

  const std::filesystem::path& path() const { return path_; }
  std::string file(const std::string& name) const { return (path_ / name).string(); }
  // Writes `bytes` to `name` in the directory and returns its path.
  std::string write(const std::string& name, const std::string& bytes) const {
    std::ofstream(path_ / name, std::ios::binary) << bytes;
    return file(name);
  }

 private:
  std::filesystem::path path_;
};

}  // namespace walksim::config::testing
