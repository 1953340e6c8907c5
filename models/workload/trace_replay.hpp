// trace-replay: the parsed form of a user-written trace file (docs/traces.md) and its parser.
// Every error names the file, line and column (config::ConfigError, exit code 2 in the CLI).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "models/config/config_error.hpp"
#include "models/kernel/syscall.hpp"
#include "models/workload/workload.hpp"

namespace walksim::workload {

struct TraceEntry {
  enum class Kind : std::uint8_t { kDir, kFile, kSymlink };
  Kind kind = Kind::kFile;
  std::string path;    // absolute
  std::string target;  // symlinks
  bool shared = false;
  bool acl = false;                   // directories: a cached POSIX ACL
  std::optional<std::uint32_t> node;  // home node; first touch when absent
  config::SourceMark at;
  config::SourceMark node_at;  // the node= option
};

struct TraceProcess {
  std::string name;
  std::string cwd;
  std::string fs_group;  // processes with the same non-empty group share one fs_struct (threads)
  std::vector<kernel::Syscall> calls;
  config::SourceMark at;
};

struct Trace {
  std::string file;
  std::vector<TraceEntry> entries;
  std::vector<TraceProcess> processes;
};

// The largest trace file read (64 MiB): far above any hand-written or converted trace, and a bound
// on the memory its parsed form takes.
inline constexpr std::size_t kMaxTraceBytes = std::size_t{64} << 20;

// Parses trace text; `file` names it in errors. Throws config::ConfigError.
Trace parse_trace(const std::string& text, const std::string& file);
// Reads and parses a trace file. Throws config::ConfigError when it cannot be read, is not a regular
// file (after following symlinks: a FIFO would block, a device never end), is larger than
// kMaxTraceBytes, or does not parse.
Trace load_trace(const std::string& path);

}  // namespace walksim::workload
