// The results-directory protocol: check first, write under a temporary name, move into place.
#include "tools/experiment/output_dir.hpp"

#include <fcntl.h>
#include <fmt/core.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <set>

namespace walksim::experiment {
namespace fs = std::filesystem;

namespace {

// What walksim 0.1 wrote, before directories carried a marker.
const std::set<std::string> kLegacyFiles{
    "results.json",   "results.csv",    "hotlines.csv", "meta.json",   "plot.gp",       "plot.dat",     "gnuplot.log",
    "throughput.svg", "throughput.png", "scaling.svg",  "scaling.png", "ns_per_op.svg", "ns_per_op.png"};

std::string this_host() {
  char h[256] = "";
  gethostname(h, sizeof h - 1);
  std::string s;
  for (const char* c = h; *c; ++c) s += std::isalnum(static_cast<unsigned char>(*c)) || *c == '-' ? *c : '_';
  return s.empty() ? "host" : s;
}

bool pid_alive(long pid) { return pid > 0 && (kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM); }

std::vector<std::string> entries_of(const fs::path& dir) {
  std::vector<std::string> out;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    out.push_back(it->path().filename().string());
  }
  if (ec) throw OutputError("cannot list " + dir.string() + ": " + ec.message());
  std::sort(out.begin(), out.end());
  return out;
}

// Flushes a file or directory to disk, so that a results directory that is in place is complete.
void sync_path(const fs::path& p, bool directory) {
  const int fd = open(p.c_str(), directory ? O_RDONLY | O_DIRECTORY : O_RDONLY);
  if (fd < 0) throw OutputError("cannot open " + p.string() + " to flush it: " + std::strerror(errno));
  const int rc = fsync(fd);
  const int err = errno;
  close(fd);
  // Some file systems (e.g. under a container's overlay) do not sync directories; data is what matters.
  if (rc != 0 && !(directory && (err == EINVAL || err == ENOTSUP))) {
    throw OutputError("cannot flush " + p.string() + " to disk: " + std::strerror(err));
  }
}

// The temporary and old-copy names of one target: ".BASE.walksim-KIND-HOST-PID-RANDOM", so that a
// later run can tell whether the process that made one is gone (then it is swept away).
std::string scratch_prefix(const std::string& base, const char* kind, const std::string& host) {
  return "." + base + ".walksim-" + kind + "-" + host + "-";
}

void sweep_stale(const fs::path& parent, const std::string& base, const std::string& host) {
  std::error_code ec;
  for (const char* kind : {"tmp", "old"}) {
    const std::string prefix = scratch_prefix(base, kind, host);
    for (fs::directory_iterator it(parent, ec), end; !ec && it != end; it.increment(ec)) {
      const std::string name = it->path().filename().string();
      if (name.rfind(prefix, 0) != 0) continue;
      const std::string rest = name.substr(prefix.size());
      const auto dash = rest.find('-');
      if (dash == std::string::npos || dash == 0) continue;
      long pid = 0;
      try {
        pid = std::stol(rest.substr(0, dash));
      } catch (const std::exception&) {
        continue;
      }
      std::error_code rm;
      if (!pid_alive(pid) && fs::is_directory(fs::symlink_status(it->path(), rm))) fs::remove_all(it->path(), rm);
    }
  }
}

std::string list_for_message(const std::vector<std::string>& names) {
  std::string s;
  for (std::size_t i = 0; i < names.size() && i < 5; ++i) s += (i ? ", " : "") + names[i];
  if (names.size() > 5) s += fmt::format(" and {} more", names.size() - 5);
  return s;
}

}  // namespace

std::vector<std::string> files_walksim_wrote(const std::string& dir, bool& is_walksim) {
  is_walksim = false;
  const fs::path marker = fs::path(dir) / OutputDir::kMarker;
  std::error_code ec;
  if (fs::is_regular_file(marker, ec)) {
    std::ifstream in(marker);
    const auto j = nlohmann::json::parse(in, nullptr, false);
    if (j.is_object() && j.value("written_by", "") == "walksim" && j.contains("files") && j["files"].is_array()) {
      std::vector<std::string> files;
      for (const auto& f : j["files"]) {
        if (f.is_string()) files.push_back(f.get<std::string>());
      }
      is_walksim = true;
      return files;
    }
    return {};
  }
  const fs::path meta = fs::path(dir) / "meta.json";
  if (!fs::is_regular_file(meta, ec)) return {};
  std::ifstream in(meta);
  const auto j = nlohmann::json::parse(in, nullptr, false);
  if (!j.is_object() || !j.contains("walksim_version")) return {};
  auto names = entries_of(dir);
  for (const auto& n : names) {
    if (!kLegacyFiles.count(n)) return {};
  }
  is_walksim = true;
  return names;
}

void write_checked(const std::string& path, const std::string& text) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  if (!f) throw OutputError("cannot create " + path + ": " + std::strerror(errno));
  f.write(text.data(), static_cast<std::streamsize>(text.size()));
  f.close();  // the last buffer reaches the file system here: a full disk shows now
  if (!f) throw OutputError("cannot write " + path + " (disk full?)");
}

void replace_file(const std::string& path, const std::string& text, const std::string& flag) {
  std::error_code ec;
  const auto st = fs::symlink_status(path, ec);
  if (fs::exists(st) && !fs::is_regular_file(st)) {
    throw OutputError(flag + " " + path + ": exists and is not a regular file; give the path of a file");
  }
  const std::string tmp = fmt::format("{}.walksim-tmp-{}", path, getpid());
  try {
    write_checked(tmp, text);
    sync_path(tmp, false);
  } catch (...) {
    fs::remove(tmp, ec);
    throw;
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    const int err = errno;
    fs::remove(tmp, ec);
    throw OutputError(flag + " " + path + ": cannot replace it: " + std::strerror(err));
  }
}

OutputDir::OutputDir(const std::string& target, bool force, const std::string& flag) : shown_(target), flag_(flag) {
  if (target.empty()) throw OutputError(flag + ": the path is empty");
  fs::path p = fs::absolute(fs::path(target)).lexically_normal();
  if (!p.has_filename() && p != p.root_path()) p = p.parent_path();  // "new/" is "new"
  const std::string what = flag + " " + target;
  if (p == p.root_path()) throw OutputError(what + ": refusing to write results into the root directory");
  final_ = p.string();
  const std::string base = p.filename().string();
  const std::string host = this_host();

  std::error_code ec;
  const auto st = fs::symlink_status(p, ec);
  fs::path scratch_dir = p.parent_path();  // where the temporary directory goes
  std::string scratch_base = base;
  if (fs::exists(st)) {
    if (fs::is_symlink(st)) {
      throw OutputError(what +
                        ": is a symbolic link; give the directory it points to (walksim replaces the link "
                        "otherwise)");
    }
    if (!fs::is_directory(st)) {
      throw OutputError(what +
                        ": exists and is not a directory; walksim writes a directory of results and never "
                        "replaces a file");
    }
    sweep_stale(p, "", host);  // what a killed run left inside it is not someone else's file
    bool ours = false;
    const auto listed = files_walksim_wrote(final_, ours);
    std::vector<std::string> foreign;
    for (const auto& e : entries_of(p)) {
      if (e != kMarker && std::find(listed.begin(), listed.end(), e) == listed.end()) foreign.push_back(e);
    }
    if (!foreign.empty() && !force) {
      throw OutputError(fmt::format(
          "{}: the directory holds files walksim did not write ({}); walksim never deletes them. Give a new or "
          "empty directory, or add --force to write the results beside them",
          what, list_for_message(foreign)));
    }
    // The working directory (or a parent of it) is never renamed away from under the shell.
    const fs::path cwd = fs::weakly_canonical(fs::current_path(), ec);
    const fs::path real = fs::weakly_canonical(p, ec);
    const std::string c = cwd.string(), r = real.string();
    const bool holds_cwd = c == r || c.rfind(r + "/", 0) == 0;
    mode_ = foreign.empty() && !holds_cwd ? Mode::kReplace : Mode::kMerge;
    if (mode_ == Mode::kMerge) {
      scratch_dir = p;  // a parent of the working directory may not be writable
      scratch_base = "";
    }
  } else if (st.type() == fs::file_type::not_found) {
    mode_ = Mode::kCreate;
    std::vector<fs::path> missing;
    for (fs::path q = p.parent_path(); !fs::exists(q, ec) && q != q.root_path(); q = q.parent_path())
      missing.push_back(q);
    for (auto it = missing.rbegin(); it != missing.rend(); ++it) {
      if (!fs::create_directory(*it, ec) && ec) {
        for (const auto& made : made_parents_) fs::remove(made, ec);
        throw OutputError(what + ": cannot create directory " + it->string() + ": " + ec.message());
      }
      made_parents_.insert(made_parents_.begin(), it->string());
    }
  } else {
    throw OutputError(what + ": cannot use it: " + ec.message());
  }

  sweep_stale(p.parent_path(), base, host);
  std::random_device rd;
  const std::string prefix = scratch_prefix(scratch_base, "tmp", host);
  for (int attempt = 0; attempt < 100; ++attempt) {
    const fs::path t = scratch_dir / fmt::format("{}{}-{:08x}", prefix, getpid(), rd());
    if (fs::create_directory(t, ec)) {
      tmp_ = t.string();
      return;
    }
    if (ec && ec != std::errc::file_exists) break;
  }
  for (const auto& made : made_parents_) fs::remove(made, ec);
  throw OutputError(what + ": cannot create a temporary directory in " + scratch_dir.string() + ": " +
                    (ec ? ec.message() : "name clashes"));
}

OutputDir::~OutputDir() {
  if (committed_) return;
  std::error_code ec;
  fs::remove_all(tmp_, ec);
  for (const auto& made : made_parents_) {
    if (!fs::remove(made, ec)) break;  // not empty (someone else's) or gone: stop there
  }
}

void OutputDir::commit() {
  if (committed_) throw std::logic_error("OutputDir committed twice");
  // Every file reaches the disk before the directory is moved into place, and the marker lists them.
  nlohmann::json marker{{"written_by", "walksim"}, {"files", nlohmann::json::array()}};
  for (const auto& name : entries_of(tmp_)) {
    sync_path(fs::path(tmp_) / name, false);
    marker["files"].push_back(name);
  }
  write_checked(file(kMarker), marker.dump(2) + "\n");
  sync_path(file(kMarker), false);
  if (mode_ == Mode::kMerge) {
    commit_file_by_file();
  } else {
    commit_whole();
  }
  committed_ = true;
  std::error_code ec;
  try {
    sync_path(fs::path(final_).parent_path(), true);
  } catch (const OutputError&) {
    // The results are in place; a parent that cannot be flushed is not worth failing the run for.
  }
}

void OutputDir::commit_whole() {
  sync_path(tmp_, true);
  const std::string what = flag_ + " " + shown_;
  if (mode_ == Mode::kCreate) {
    if (std::rename(tmp_.c_str(), final_.c_str()) != 0) {
      throw OutputError(what + ": cannot move the results into place: " + std::strerror(errno) +
                        " (did something else create it while walksim ran?)");
    }
    return;
  }
  // Replace: only if it still holds nothing but walksim's files (checked again: time has passed).
  bool ours = false;
  const auto listed = files_walksim_wrote(final_, ours);
  for (const auto& e : entries_of(final_)) {
    if (e != kMarker && std::find(listed.begin(), listed.end(), e) == listed.end()) {
      throw OutputError(what + ": '" + e + "' appeared in it while walksim ran; nothing was replaced");
    }
  }
  if (std::rename(tmp_.c_str(), final_.c_str()) == 0) return;  // it was empty: replaced in one step
  if (errno != ENOTEMPTY && errno != EEXIST) {
    throw OutputError(what + ": cannot move the results into place: " + std::strerror(errno));
  }
  const fs::path parent = fs::path(final_).parent_path();
  const fs::path old =
      parent / fmt::format("{}{}-{:08x}", scratch_prefix(fs::path(final_).filename().string(), "old", this_host()),
                           getpid(), std::random_device{}());
  if (std::rename(final_.c_str(), old.c_str()) != 0) {
    throw OutputError(what + ": cannot move the previous results aside: " + std::strerror(errno));
  }
  if (std::rename(tmp_.c_str(), final_.c_str()) != 0) {
    const int err = errno;
    std::rename(old.c_str(), final_.c_str());  // put the previous results back
    throw OutputError(what + ": cannot move the results into place: " + std::strerror(err));
  }
  std::error_code ec;
  fs::remove_all(old, ec);
}

void OutputDir::commit_file_by_file() {
  const std::string what = flag_ + " " + shown_;
  bool ours = false;
  const auto previous = files_walksim_wrote(final_, ours);
  const auto now = entries_of(tmp_);
  for (const auto& name : now) {
    if (name == kMarker) continue;
    const fs::path dest = fs::path(final_) / name;
    std::error_code ec;
    if (fs::is_directory(fs::symlink_status(dest, ec))) {
      throw OutputError(what + ": '" + name + "' in it is a directory; walksim will not replace it");
    }
    if (std::rename((fs::path(tmp_) / name).c_str(), dest.c_str()) != 0) {
      throw OutputError(what + ": cannot move " + name + " into place: " + std::strerror(errno));
    }
  }
  // Files an earlier run of walksim wrote and this one did not (a plot no longer made) go; nothing else.
  std::error_code ec;
  for (const auto& name : previous) {
    if (std::find(now.begin(), now.end(), name) != now.end()) continue;
    const fs::path p = fs::path(final_) / name;
    if (fs::is_regular_file(fs::symlink_status(p, ec))) fs::remove(p, ec);
  }
  if (std::rename(file(kMarker).c_str(), (fs::path(final_) / kMarker).c_str()) != 0) {
    throw OutputError(what + ": cannot write its " + kMarker + ": " + std::strerror(errno));
  }
  fs::remove(tmp_, ec);
  sync_path(final_, true);
}

}  // namespace walksim::experiment
