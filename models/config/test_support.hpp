// Shared by the tests: the ConfigError a call throws, substring checks, and a scratch directory.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
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
// it when the test ends, so that no run leaves files behind. Made by mkdtemp (the tag and a random
// suffix, mode 0700), as the layout command's scratch directory is: concurrent test runs (two
// checkouts, ctest -j) never share one, and no one can have made it in advance.
class ScratchDir {
 public:
  explicit ScratchDir(const std::string& tag) {
    std::string name = (std::filesystem::temp_directory_path() / ("walksim-" + tag + "-XXXXXX")).string();
    if (!mkdtemp(name.data())) throw std::runtime_error("cannot make a scratch directory from " + name);
    path_ = name;
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
