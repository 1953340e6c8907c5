// trace-replay: processes replay the system calls a trace file lists for them (docs/traces.md),
// on the tree the trace declares. One line per call, "NAME CALL ARGS..." in the syscall
// mini-language of `walksim trace`; declarations of processes, directories, files and symlinks
// come first.
#include "models/workload/trace_replay.hpp"

#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "models/config/limits.hpp"
#include "models/config/strict_yaml.hpp"
#include "models/config/units.hpp"
#include "models/workload/workload_registry.hpp"

namespace walksim::workload {

namespace {

struct Token {
  std::string text;
  int column = 0;  // 1-based
};

std::vector<Token> tokenize(const std::string& line) {
  std::vector<Token> out;
  std::size_t i = 0;
  while (i < line.size()) {
    if (line[i] == ' ' || line[i] == '\t' || line[i] == '\r') {
      ++i;
      continue;
    }
    if (line[i] == '#') break;
    const std::size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t' && line[i] != '\r') ++i;
    out.push_back({line.substr(start, i - start), static_cast<int>(start) + 1});
  }
  return out;
}

bool is_keyword(const std::string& s) { return s == "process" || s == "dir" || s == "file" || s == "symlink"; }

bool valid_name(const std::string& s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  for (char c : s) {
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.')) return false;
  }
  return true;
}

class Parser {
 public:
  explicit Parser(std::string file) { trace_.file = std::move(file); }

  [[noreturn]] void fail(int line, int column, const std::string& msg) const {
    throw config::ConfigError({trace_.file, line, column}, "", msg);
  }

  void line(int n, const std::string& text) {
    const auto tok = tokenize(text);
    if (tok.empty()) return;
    const std::string& head = tok[0].text;
    if (is_keyword(head)) {
      if (calls_seen_) {
        fail(n, tok[0].column,
             "'" + head + "' declarations must come before the first call (line " + std::to_string(first_call_line_) +
                 ")");
      }
      if (head == "process") return process(n, tok);
      return entry(n, tok);
    }
    const auto it = by_name_.find(head);
    if (it == by_name_.end()) {
      std::vector<std::string> names;
      for (const auto& p : trace_.processes) names.push_back(p.name);
      fail(n, tok[0].column,
           "'" + head + "' is neither a declaration (process, dir, file, symlink) nor a declared process" +
               config::did_you_mean(head, names) + (names.empty() ? "" : "; processes: " + config::quoted_list(names)));
    }
    if (!calls_seen_) first_call_line_ = n;
    calls_seen_ = true;
    State& st = state_[it->second];
    TraceProcess& p = trace_.processes[it->second];
    if (tok.size() < 2)
      fail(n, tok[0].column + static_cast<int>(head.size()),
           "expected a call, 'user TIME' or 'op' after '" + head + "'");
    const Token& what = tok[1];
    if (what.text == "user") {
      if (tok.size() != 3) fail(n, what.column, "expected 'user TIME' (e.g. 'user 200ns')");
      try {
        const sim::Picos t = config::parse_time(tok[2].text);
        // The user time before one call, summed over its lines, is capped like a workload's user_time.
        if (t > config::kMaxOperationTime - st.user) {
          fail(n, tok[2].column,
               "user time before one call adds up to more than " + config::format_time(config::kMaxOperationTime) +
                   ", the limit " + config::kOperationTimeWhy);
        }
        st.user += t;
      } catch (const config::UnitError& e) {
        fail(n, tok[2].column, e.what());
      }
      st.user_line = n;
      st.user_column = what.column;
      return;
    }
    if (what.text == "op") {
      if (tok.size() != 2) fail(n, tok[2].column, "unexpected '" + tok[2].text + "' after 'op'");
      if (p.calls.empty())
        fail(n, what.column,
             "'op' before any call of '" + head + "': it marks the previous call as ending an operation");
      p.calls.back().ends_op = true;
      st.marked = true;
      return;
    }
    try {
      kernel::Syscall s = kernel::parse_syscall(text.substr(
          static_cast<std::size_t>(what.column - 1), comment_start(text) - static_cast<std::size_t>(what.column - 1)));
      s.user_before = st.user;
      st.user = 0;
      st.user_line = 0;
      p.calls.push_back(std::move(s));
    } catch (const std::invalid_argument& e) {
      fail(n, what.column, e.what());
    }
  }

  Trace finish() {
    if (trace_.processes.empty()) fail(0, 0, "the trace declares no process (e.g. 'process p0 cwd=/mnt/ram')");
    for (std::size_t i = 0; i < trace_.processes.size(); ++i) {
      const State& st = state_[i];
      if (st.user_line) {
        fail(st.user_line, st.user_column, "user time with no call after it for '" + trace_.processes[i].name + "'");
      }
      if (!st.marked) {
        for (auto& c : trace_.processes[i].calls) c.ends_op = true;  // no 'op' lines: every call is an operation
      }
      // build() makes a missing cwd as directories; one inside a file or symlink cannot be made.
      std::string prefix;
      for (const auto& part : st.cwd_parts) {
        prefix += "/" + part;
        const auto it = tree_.find(prefix);
        if (it != tree_.end() && it->second.kind != TraceEntry::Kind::kDir) {
          fail(st.cwd_line, st.cwd_column,
               "cwd '" + trace_.processes[i].cwd + "' of '" + trace_.processes[i].name + "' is not a directory: '" +
                   prefix + "' is declared as a " + kind_name(it->second.kind) + " on line " +
                   std::to_string(it->second.line));
        }
      }
    }
    return std::move(trace_);
  }

 private:
  struct State {
    Picos user = 0;
    int user_line = 0, user_column = 0;
    bool marked = false;
    int cwd_line = 0, cwd_column = 0;
    std::vector<std::string> cwd_parts;
  };
  // What build() will have made at a path: declared, or made as the parent of a declaration.
  struct Made {
    TraceEntry::Kind kind;
    int line;  // of the declaration that made it (0: the root)
    bool declared;
  };

  static std::size_t comment_start(const std::string& text) {
    const auto hash = text.find('#');
    return hash == std::string::npos ? text.size() : hash;
  }

  // The components of an absolute declared path; '.' and '..' are refused (the tree is made from
  // the names as written, so '/a/../b' would make a directory named '..').
  std::vector<std::string> absolute(int n, const Token& t, const char* what) const {
    if (t.text.empty() || t.text[0] != '/')
      fail(n, t.column, std::string(what) + " must be an absolute path, not '" + t.text + "'");
    std::vector<std::string> parts;
    for (std::size_t pos = 0; pos <= t.text.size();) {
      std::size_t slash = t.text.find('/', pos);
      if (slash == std::string::npos) slash = t.text.size();
      if (slash > pos) parts.push_back(t.text.substr(pos, slash - pos));
      pos = slash + 1;
    }
    for (const auto& part : parts) {
      if (part == "." || part == "..")
        fail(n, t.column,
             std::string(what) + " '" + t.text + "' has a '" + part + "' component; write it without '.' or '..'");
    }
    return parts;
  }

  static std::string joined(const std::vector<std::string>& parts) {
    std::string out;
    for (const auto& part : parts) out += "/" + part;
    return out.empty() ? "/" : out;
  }

  static const char* kind_name(TraceEntry::Kind k) {
    return k == TraceEntry::Kind::kDir ? "directory" : k == TraceEntry::Kind::kFile ? "file" : "symlink";
  }

  // Checks that `e` fits the tree declared so far as build() will make it (parents made as
  // directories, nothing inside a file or symlink, no name twice) and adds it.
  void place(int n, int column, const std::vector<std::string>& parts, const TraceEntry& e) {
    std::string prefix;
    for (std::size_t k = 0; k + 1 < parts.size(); ++k) {
      prefix += "/" + parts[k];
      const auto it = tree_.find(prefix);
      if (it == tree_.end()) {
        tree_.emplace(prefix, Made{TraceEntry::Kind::kDir, n, false});
      } else if (it->second.kind != TraceEntry::Kind::kDir) {
        fail(n, column,
             "'" + prefix + "' is declared as a " + kind_name(it->second.kind) + " on line " +
                 std::to_string(it->second.line) + ", so '" + e.path + "' cannot be below it");
      }
    }
    const auto it = tree_.find(e.path);
    if (it == tree_.end()) {
      tree_.emplace(e.path, Made{e.kind, n, true});
      return;
    }
    if (it->second.declared) {
      fail(n, column, "'" + e.path + "' is declared twice (first on line " + std::to_string(it->second.line) + ")");
    }
    const std::string made = it->second.line == 0
                                 ? "'/' always exists"
                                 : "'" + e.path + "' is already made as a directory (the parent of line " +
                                       std::to_string(it->second.line) + ")";
    if (e.kind != TraceEntry::Kind::kDir) fail(n, column, made + ", so it cannot be a " + kind_name(e.kind));
    if (e.shared || e.node) {
      fail(n, column,
           made +
               ", so 'shared' and 'node=' cannot apply to it; declare it, with its options, before the entries "
               "below it");
    }
    it->second.declared = true;
    it->second.line = n;
  }

  void process(int n, const std::vector<Token>& tok) {
    if (tok.size() < 2) fail(n, tok[0].column, "expected 'process NAME cwd=PATH [fs=GROUP]'");
    const Token& name = tok[1];
    if (!valid_name(name.text) || is_keyword(name.text)) {
      fail(n, name.column,
           "'" + name.text + "' is not a valid process name (letters, digits, '_', '-', '.'; not a keyword)");
    }
    if (by_name_.count(name.text)) fail(n, name.column, "process '" + name.text + "' is declared twice");
    TraceProcess p;
    p.name = name.text;
    p.at = {trace_.file, n, tok[0].column};
    int cwd_column = 0;
    std::vector<std::string> cwd_parts;
    for (std::size_t i = 2; i < tok.size(); ++i) {
      const auto eq = tok[i].text.find('=');
      const std::string key = tok[i].text.substr(0, eq),
                        value = eq == std::string::npos ? "" : tok[i].text.substr(eq + 1);
      if (eq == std::string::npos || value.empty())
        fail(n, tok[i].column, "expected KEY=VALUE (cwd=PATH or fs=GROUP), not '" + tok[i].text + "'");
      if (key == "cwd") {
        cwd_column = tok[i].column + 4;
        cwd_parts = absolute(n, {value, cwd_column}, "cwd");
        p.cwd = joined(cwd_parts);
      } else if (key == "fs") {
        p.fs_group = value;
      } else {
        fail(n, tok[i].column,
             "unknown process option '" + key + "'" + config::did_you_mean(key, {"cwd", "fs"}) +
                 "; valid options: 'cwd', 'fs'");
      }
    }
    if (p.cwd.empty()) fail(n, name.column, "process '" + p.name + "' needs cwd=PATH");
    by_name_.emplace(p.name, trace_.processes.size());
    trace_.processes.push_back(std::move(p));
    state_.emplace_back();
    state_.back().cwd_line = n;
    state_.back().cwd_column = cwd_column;
    state_.back().cwd_parts = std::move(cwd_parts);
  }

  void entry(int n, const std::vector<Token>& tok) {
    const std::string& kind = tok[0].text;
    TraceEntry e;
    e.kind = kind == "dir"    ? TraceEntry::Kind::kDir
             : kind == "file" ? TraceEntry::Kind::kFile
                              : TraceEntry::Kind::kSymlink;
    e.at = {trace_.file, n, tok[0].column};
    std::size_t i = 1;
    if (tok.size() < 2) fail(n, tok[0].column, "expected a path after '" + kind + "'");
    const Token& path = tok[i++];
    const std::vector<std::string> parts = absolute(n, path, "a declared path");
    if (e.kind != TraceEntry::Kind::kDir && (parts.empty() || path.text.back() == '/')) {
      fail(n, path.column,
           "a " + kind + " path names the " + kind + ", so it cannot end with '/' (not '" + path.text + "')");
    }
    e.path = joined(parts);
    if (e.kind == TraceEntry::Kind::kSymlink) {
      if (i < tok.size() && tok[i].text == "->") ++i;
      if (i >= tok.size()) fail(n, tok[0].column, "expected 'symlink PATH -> TARGET'");
      e.target = tok[i++].text;
    }
    for (; i < tok.size(); ++i) {
      const std::string& t = tok[i].text;
      if (t == "shared") {
        e.shared = true;
      } else if (t == "acl" && e.kind == TraceEntry::Kind::kDir) {
        e.acl = true;
      } else if (t.rfind("node=", 0) == 0) {
        try {
          std::size_t used = 0;
          const unsigned long v = std::stoul(t.substr(5), &used);
          if (used != t.size() - 5 || v > 1024 || !std::isdigit(static_cast<unsigned char>(t[5])))
            throw std::invalid_argument("");
          e.node = static_cast<std::uint32_t>(v);
          e.node_at = {trace_.file, n, tok[i].column};
        } catch (const std::exception&) {
          fail(n, tok[i].column, "'" + t + "': node= takes a node number (e.g. node=1)");
        }
      } else {
        fail(n, tok[i].column,
             "unknown option '" + t + "' for '" + kind + "'; valid: shared" +
                 std::string(e.kind == TraceEntry::Kind::kDir ? ", acl" : "") + ", node=N");
      }
    }
    place(n, path.column, parts, e);
    trace_.entries.push_back(std::move(e));
  }

  Trace trace_;
  std::map<std::string, std::size_t> by_name_;
  std::vector<State> state_;
  std::map<std::string, Made> tree_{{"/", Made{TraceEntry::Kind::kDir, 0, false}}};
  bool calls_seen_ = false;
  int first_call_line_ = 0;
};

class TraceSource final : public CountingSource {
 public:
  TraceSource(const RunControl& c, const std::vector<Syscall>& calls, std::uint64_t loops)
      : CountingSource(c), calls_(calls), loops_(loops) {}

 protected:
  bool produce(Syscall& out) override {
    if (calls_.empty()) return false;
    if (next_ == calls_.size()) {
      ++loop_;
      if (loops_ && loop_ >= loops_) return false;
      next_ = 0;
    }
    out = calls_[next_++];
    return true;
  }

 private:
  const std::vector<Syscall>& calls_;
  std::uint64_t loops_;
  std::uint64_t loop_ = 0;
  std::size_t next_ = 0;
};

}  // namespace

Trace parse_trace(const std::string& text, const std::string& file) {
  Parser p(file);
  std::istringstream in(text);
  int n = 0;
  for (std::string line; std::getline(in, line);) p.line(++n, line);
  return p.finish();
}

Trace load_trace(const std::string& path) {
  namespace fs = std::filesystem;
  auto refuse = [&](const std::string& why) -> Trace { throw config::ConfigError({path, 0, 0}, "", why); };
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);  // follows symlinks
  if (st.type() == fs::file_type::not_found) return refuse("trace file not found");
  if (ec) return refuse("cannot read the trace file (" + ec.message() + ")");
  // A FIFO would block open() until a writer comes, /dev/zero would never end.
  if (st.type() != fs::file_type::regular) {
    const char* what = st.type() == fs::file_type::directory                                        ? "a directory"
                       : st.type() == fs::file_type::fifo                                           ? "a FIFO"
                       : st.type() == fs::file_type::character || st.type() == fs::file_type::block ? "a device"
                       : st.type() == fs::file_type::socket                                         ? "a socket"
                                                                                                    : "not a file";
    return refuse(std::string("not a regular file (") + what + "): give the path of a trace file");
  }
  const std::uintmax_t size = fs::file_size(path, ec);
  if (!ec && size > kMaxTraceBytes) {
    return refuse("the trace file is " + std::to_string(size) + " bytes, over the limit of " +
                  std::to_string(kMaxTraceBytes) + " (64 MiB); shorten it ('loops' replays a trace several times)");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return refuse("cannot read the trace file");
  // Read in pieces, stopping past the limit in case the file grew since it was measured.
  std::string text;
  if (!ec) text.reserve(static_cast<std::size_t>(size));
  std::vector<char> piece(1 << 16);
  while (in.read(piece.data(), static_cast<std::streamsize>(piece.size())) || in.gcount() > 0) {
    text.append(piece.data(), static_cast<std::size_t>(in.gcount()));
    if (text.size() > kMaxTraceBytes) {
      return refuse("the trace file is over the limit of " + std::to_string(kMaxTraceBytes) +
                    " bytes (64 MiB); shorten it ('loops' replays a trace several times)");
    }
  }
  if (in.bad()) return refuse("cannot read the trace file");
  return parse_trace(text, path);
}

namespace trace {

struct TraceReplayParams {
  std::string file;  // as written
  std::string path;  // where it is read: relative to the experiment file's directory
  std::uint64_t loops = 1;
};

constexpr Param<TraceReplayParams> kParams[] = {
    {"file", "the trace to replay (docs/traces.md); relative to the experiment file's directory",
     [](const config::Node& n, TraceReplayParams& p) {
       p.file = n.as_string();
       std::filesystem::path path(p.file);
       if (path.is_relative() && !n.file().empty()) path = std::filesystem::path(n.file()).parent_path() / path;
       p.path = path.string();
     },
     [](const TraceReplayParams& p) -> ParamValue { return p.file; }, /*required=*/true},
    {"loops", "times each process replays its calls (0: until the run ends)",
     [](const config::Node& n, TraceReplayParams& p) { p.loops = n.as_uint(); },
     [](const TraceReplayParams& p) -> ParamValue { return p.loops; }},
};

class TraceReplay final : public PerProcessWorkload {
 public:
  TraceReplay(Trace t, TraceReplayParams p) : t_(std::move(t)), p_(std::move(p)) {}

  std::string check_run(std::uint32_t threads, std::uint32_t nodes, std::uint32_t cpus) const override {
    for (const auto& e : t_.entries) {
      if (e.node && *e.node >= nodes) {
        throw config::ConfigError(
            e.node_at, "",
            "node=" + std::to_string(*e.node) + " but the machine has " + std::to_string(nodes) +
                (nodes == 1 ? " node (node=0)" : " nodes (node=0.." + std::to_string(nodes - 1) + ")"));
      }
    }
    const std::size_t n = t_.processes.size();
    if (n > cpus) {
      // One process per CPU: no thread count can run this trace on this machine.
      throw config::ConfigError(
          t_.processes[cpus].at, "",
          "the trace declares " + std::to_string(n) + " processes but the machine has " + std::to_string(cpus) +
              " CPUs, and trace-replay runs each process on a CPU of its own; declare at most " + std::to_string(cpus) +
              " processes or use a machine with " + std::to_string(n) + " CPUs");
    }
    if (n != threads) {
      return "the trace '" + t_.file + "' declares " + std::to_string(n) + " process" + (n == 1 ? "" : "es") +
             ", one per CPU, so the run needs threads = " + std::to_string(n) + " (not " + std::to_string(threads) +
             ")";
    }
    return {};
  }

  void build(kernel::Vfs& vfs, const std::vector<CpuId>& cpus, const RunControl& control, sim::Rng&) override {
    const std::string wrong =
        check_run(static_cast<std::uint32_t>(cpus.size()), vfs.machine().nodes(), vfs.machine().cpus());
    if (!wrong.empty()) throw config::ConfigError({}, "", wrong);  // the message names the trace
    for (const auto& e : t_.entries) {
      const auto slash = e.path.rfind('/');
      const std::string parent = e.path.substr(0, slash), name = e.path.substr(slash + 1);
      if (e.kind == TraceEntry::Kind::kDir) {
        const kernel::DentryId d = vfs.mkpath(e.path, e.shared, e.node);
        if (e.acl) vfs.dentry(d).has_acl = true;
        continue;
      }
      const kernel::DentryId dir = vfs.mkpath(parent, e.shared, e.node);
      if (!vfs.dentry(dir).dir) throw config::ConfigError(e.at, "", "'" + parent + "' is a file, not a directory");
      if (name.empty() || vfs.child(dir, name)) {
        throw config::ConfigError(e.at, "", "'" + e.path + "' already exists (declared as a directory or below one)");
      }
      const kernel::DentryId d = vfs.add_dentry(dir, name, false, e.shared, e.node);
      if (e.kind == TraceEntry::Kind::kSymlink) {
        vfs.dentry(d).symlink = true;
        vfs.dentry(d).link_target = e.target;
      }
    }
    std::map<std::string, kernel::ObjId> groups;
    for (std::size_t i = 0; i < cpus.size(); ++i) {
      const TraceProcess& p = t_.processes[i];
      std::optional<kernel::ObjId> fs;
      if (!p.fs_group.empty()) {
        auto it = groups.find(p.fs_group);
        if (it == groups.end()) {
          const auto node = vfs.machine().node_of(vfs.machine().core_of(cpus[i]));
          it = groups
                   .emplace(p.fs_group, vfs.new_object("fs_struct", "fs_struct (group " + p.fs_group + ")", true, node))
                   .first;
        }
        fs = it->second;
      }
      add(vfs.new_process(cpus[i], vfs.mkpath(p.cwd, true, std::nullopt), fs),
          std::make_unique<TraceSource>(control, p.calls, p_.loops));
    }
  }
  std::string op_unit() const override { return "trace operation"; }
  ResolvedParams params() const override { return resolve_params<TraceReplayParams>(kParams, p_); }

 private:
  Trace t_;
  TraceReplayParams p_;
};

std::unique_ptr<Workload> make(const config::Node* params) {
  TraceReplayParams p = read_params<TraceReplayParams>(kParams, params, "trace-replay");
  Trace t = load_trace(p.path);
  return std::make_unique<TraceReplay>(std::move(t), std::move(p));
}
std::vector<ParamDoc> describe() { return describe_params<TraceReplayParams>(kParams); }

}  // namespace trace

const WorkloadKind kTraceReplayKind{"trace-replay", "replays the system calls of a trace file (docs/traces.md)",
                                    trace::make, trace::describe};

}  // namespace walksim::workload
