#include "tools/experiment/journal.hpp"

#include <fcntl.h>
#include <fmt/core.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <vector>

#include "tools/experiment/output_dir.hpp"
#include "tools/experiment/point_codec.hpp"

namespace walksim::experiment {
namespace fs = std::filesystem;

namespace {

std::string read_all(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::uint64_t fnv(std::uint64_t h, const std::string& s) {
  for (unsigned char c : s) h = (h ^ c) * 0x100000001b3ULL;
  return h;
}

}  // namespace

std::string run_fingerprint(const std::string& experiment_file, const std::string& config_root,
                            const std::string& version) {
  std::uint64_t h = fnv(0xcbf29ce484222325ULL, version);
  h = fnv(h, read_all(experiment_file));
  std::vector<fs::path> files;
  for (const char* sub : {"machines", "kernels"}) {
    std::error_code ec;
    for (fs::directory_iterator it(fs::path(config_root) / sub, ec), end; !ec && it != end; it.increment(ec)) {
      if (it->path().extension() == ".yaml") files.push_back(it->path());
    }
  }
  std::sort(files.begin(), files.end());
  for (const auto& f : files) h = fnv(fnv(h, f.filename().string()), read_all(f));
  return fmt::format("{:016x}", h);
}

Journal::Journal(const std::string& dir, const std::string& fingerprint) : dir_(dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (!fs::is_directory(dir)) throw OutputError("--resume " + dir + ": cannot make or use this directory");
  const fs::path meta = fs::path(dir) / "experiment.json";
  if (fs::exists(meta)) {
    nlohmann::json m;
    try {
      m = nlohmann::json::parse(read_all(meta));
    } catch (const std::exception&) {
      throw OutputError("--resume " + dir + ": experiment.json is not a walksim journal's");
    }
    if (!m.is_object() || m.value("fingerprint", "") != fingerprint) {
      throw OutputError("--resume " + dir +
                        ": its points belong to another experiment, or to this one before a change of the experiment "
                        "file, a machine or kernel file, or walksim; give a new directory (or remove this one)");
    }
  } else {
    if (fs::exists(fs::path(dir) / "points.jsonl")) {
      throw OutputError("--resume " + dir + ": has points.jsonl but no experiment.json; not a walksim journal");
    }
    write_checked(meta.string(), nlohmann::json{{"fingerprint", fingerprint}}.dump() + "\n");
  }
  const fs::path points = fs::path(dir) / "points.jsonl";
  {
    std::ifstream in(points);
    std::string line;
    while (std::getline(in, line)) {
      // The last line of a journal killed while writing it may be cut: it is skipped, and its point runs again.
      try {
        const auto j = nlohmann::json::parse(line);
        points_[j.at("key").get<std::string>()] = j.at("run").dump();
      } catch (const std::exception&) {
        continue;
      }
    }
  }
  out_ = std::fopen(points.string().c_str(), "a");
  if (!out_) throw OutputError("--resume " + dir + ": cannot append to points.jsonl");
}

Journal::~Journal() {
  if (out_) std::fclose(out_);
}

std::optional<workload::RunResult> Journal::find(const std::string& key) const {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto it = points_.find(key);
  if (it == points_.end()) return std::nullopt;
  return point_from_json(nlohmann::json::parse(it->second));
}

void Journal::record(const std::string& key, const workload::RunResult& r) {
  const std::string run = point_to_json(r).dump();
  const std::string line = nlohmann::json{{"key", key}, {"run", nlohmann::json::parse(run)}}.dump() + "\n";
  std::lock_guard<std::mutex> lock(mutex_);
  if (std::fwrite(line.data(), 1, line.size(), out_) != line.size() || std::fflush(out_) != 0 ||
      fsync(fileno(out_)) != 0) {
    throw OutputError("--resume " + dir_ + ": cannot write points.jsonl (disk full?)");
  }
  points_[key] = run;
}

}  // namespace walksim::experiment
