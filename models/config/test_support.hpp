// Shared by the configuration tests: the ConfigError a call throws, and substring checks.
#pragma once

#include <gtest/gtest.h>

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

}  // namespace walksim::config::testing
