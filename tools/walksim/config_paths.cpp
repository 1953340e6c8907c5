#include "tools/walksim/config_paths.hpp"

#include <cstdlib>
#include <filesystem>

#include "models/config/config_error.hpp"

namespace walksim::cli {

namespace {
// A configuration root holds machines/ or kernels/; anything else is a mistake worth naming
// (a wrong --configs used to list nothing, silently).
std::string checked(const std::string& dir, const std::string& from) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    throw config::ConfigError({}, from,
                              "'" + dir + "' is not a directory (give the directory holding machines/ and kernels/)");
  }
  if (!fs::is_directory(fs::path(dir) / "machines", ec) && !fs::is_directory(fs::path(dir) / "kernels", ec)) {
    throw config::ConfigError({}, from, "'" + dir + "' holds neither machines/ nor kernels/");
  }
  return dir;
}
}  // namespace

std::string resolve_config_root(const std::string& flag) {
  if (!flag.empty()) return checked(flag, "--configs");
  if (const char* env = std::getenv("WALKSIM_CONFIGS"); env && *env) return checked(env, "WALKSIM_CONFIGS");
#ifdef WALKSIM_SOURCE_DIR
  const std::filesystem::path built_from = std::filesystem::path(WALKSIM_SOURCE_DIR) / "configs";
  if (std::filesystem::is_directory(built_from)) return built_from.string();
#endif
  return "configs";
}

std::vector<std::string> machine_dirs(const std::string& root) {
  return {(std::filesystem::path(root) / "machines").string()};
}

}  // namespace walksim::cli
