#include "tools/walksim/config_paths.hpp"

#include <cstdlib>
#include <filesystem>

namespace walksim::cli {

std::string resolve_config_root(const std::string& flag) {
  if (!flag.empty()) return flag;
  if (const char* env = std::getenv("WALKSIM_CONFIGS"); env && *env) return env;
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
