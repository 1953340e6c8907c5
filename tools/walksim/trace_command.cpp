// Prints a trace as a numbered table (default) or JSON (--json).
#include "tools/walksim/trace_command.hpp"

#include <fmt/core.h>

#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>

#include "models/config/config_error.hpp"
#include "models/kernel/kernel_loader.hpp"
#include "models/kernel/trace.hpp"
#include "models/machine/machine_loader.hpp"
#include "tools/walksim/config_paths.hpp"
#include "tools/walksim/global_options.hpp"

namespace walksim::cli {
namespace {

nlohmann::json to_json(const kernel::TraceResult& t) {
  nlohmann::json j;
  j["kernel"] = t.kernel;
  j["machine"] = t.machine;
  j["syscall"] = t.syscall;
  j["cwd"] = t.cwd;
  j["failed"] = t.failed;
  j["ops"] = nlohmann::json::array();
  for (const auto& o : t.ops) {
    nlohmann::json op{{"kernel_op", o.kop}, {"kind", o.op}, {"object", o.object}, {"field", o.field}};
    if (t.contention) {
      op["cpu"] = o.cpu;
      op["at_ns"] = sim::to_ns(o.at);
    }
    if (o.op == "compute" || o.op == "idle") {
      op["ns"] = sim::to_ns(o.compute);
    } else {
      op["cacheline"] = o.line;
      op["line_fields"] = o.line_fields;
      op["shared"] = o.shared;
    }
    j["ops"].push_back(op);
  }
  const auto& s = t.totals;
  j["totals"] = {{"atomic_rmw", s.atomic_rmw},
                 {"load", s.load},
                 {"store", s.store},
                 {"lock_acquire", s.lock_acquire},
                 {"prefetch", s.prefetch},
                 {"fence", s.fence},
                 {"shared_atomic_rmw", s.shared_rmw},
                 {"shared_store", s.shared_store},
                 {"restarts", s.restarts},
                 {"compute_ns", sim::to_ns(s.compute)},
                 {"elapsed_ns", sim::to_ns(s.elapsed)}};
  if (const auto& c = t.contention) {
    j["totals"]["asleep_ns"] = sim::to_ns(s.asleep);
    j["contention"] = {{"object", c->object},
                       {"field", c->field},
                       {"kernel_op", c->kop},
                       {"holder_cpu", c->holder_cpu},
                       {"held_from_ns", sim::to_ns(c->held_from)},
                       {"hold_ns", sim::to_ns(c->hold)}};
  }
  return j;
}

// One row: `#`, then (contended) the CPU and issue time, then the operation.
void print_row(int n, const kernel::TraceOp& o, bool contended) {
  std::string head = fmt::format("{:>4}  ", n);
  if (contended) head += fmt::format("{:>3} {:>10.1f}  ", o.cpu, sim::to_ns(o.at));
  if (o.op == "compute" || o.op == "idle") {
    fmt::print("{}{:<16} {:<12} {:<30} {:>4}  {:<16} {:.1f} ns\n", head, o.kop, o.op, o.object, "", o.field,
               sim::to_ns(o.compute));
  } else {
    // An operation of a lock's slow path on another line (a runqueue, a queue node) names the line's fields.
    const std::string field = o.field.empty() && !o.line_fields.empty() ? "[" + o.line_fields + "]" : o.field;
    fmt::print("{}{:<16} {:<12} {:<30} {:>4}  {:<16} {:<7}\n", head, o.kop, o.op, o.object, o.line, field,
               o.shared ? "SHARED" : "private");
  }
}

void print_table(const kernel::TraceResult& t) {
  fmt::print("{} on {} ({}), cwd {}{}\n", t.syscall, t.kernel, t.machine, t.cwd,
             t.failed ? "  [returns an error]" : "");
  const auto& c = t.contention;
  if (c) {
    fmt::print(
        "contended: cpu {} takes {} of {} ({}) {:.0f} ns before the call starts on cpu 0 and holds it {:.0f} ns; "
        "both CPUs' operations in issue order, times from the call's start\n",
        c->holder_cpu, c->field, c->object, c->kop, -sim::to_ns(c->held_from), sim::to_ns(c->hold));
  }
  std::string head = fmt::format("{:>4}  ", "#");
  if (c) head += fmt::format("{:>3} {:>10}  ", "cpu", "at ns");
  fmt::print("{}{:<16} {:<12} {:<30} {:>4}  {:<16} {:<7}\n", head, "kernel op", "executes", "object", "line", "field",
             "");
  int n = 0;
  for (const auto& o : t.ops) print_row(++n, o, c.has_value());
  const auto& s = t.totals;
  fmt::print(
      "totals{}: {} atomic RMW ({} on shared lines), {} loads, {} stores ({} shared), {} lock acquisitions, "
      "{} prefetches, {} fences, {} restarts; private work {:.1f} ns; {:.1f} ns elapsed {}\n",
      c ? " of the call (cpu 0)" : "", s.atomic_rmw, s.shared_rmw, s.load, s.store, s.shared_store, s.lock_acquire,
      s.prefetch, s.fence, s.restarts, sim::to_ns(s.compute), sim::to_ns(s.elapsed),
      c ? fmt::format("with the lock held elsewhere, {:.1f} ns of it asleep", sim::to_ns(s.asleep))
        : std::string("on an idle machine"));
}

struct TraceOpts {
  std::string machine = "barcelona-2s8c";
  std::string kernel;
  std::string cwd = "/home/user";
  std::string syscall;
  bool json = false;
  bool no_prefetch = false, acl = false, not_owner = false, disk = false;
  std::string contend;
  double hold_ns = 20000;
  std::optional<std::uint32_t> holder_cpu;
};

// The request the flags describe, each checked: an error names its flag.
kernel::TraceRequest trace_request(const TraceOpts& o, const kernel::KernelSpec& k, bool hold_given) {
  // As in trace files: the process's cwd is made from the names as written, from the root.
  if (o.cwd.empty() || o.cwd[0] != '/') {
    throw config::ConfigError({}, "--cwd", "must be an absolute path such as '/home/user', not '" + o.cwd + "'");
  }
  if (("/" + o.cwd + "/").find("/../") != std::string::npos || ("/" + o.cwd + "/").find("/./") != std::string::npos) {
    throw config::ConfigError({}, "--cwd", "'" + o.cwd + "' has a '.' or '..' component; write it without them");
  }
  if (o.acl && !k.inode_caches_acl()) {
    throw config::ConfigError(
        {}, "--acl", "kernel '" + k.name + "' has no ACL pointer in its struct inode (i_acl arrived in 2.6.30)");
  }
  if (o.contend.empty() && (o.holder_cpu || hold_given)) {
    throw config::ConfigError({}, o.holder_cpu ? "--holder-cpu" : "--hold", "applies only with --contend LOCK");
  }
  if (!(o.hold_ns >= 1 && o.hold_ns <= 1e9)) {
    throw config::ConfigError({}, "--hold", fmt::format("must be 1 ns to 1 s, not {}", o.hold_ns));
  }
  kernel::TraceRequest req;
  req.syscall = o.syscall;
  req.cwd = o.cwd;
  req.options.prefetch = !o.no_prefetch;
  req.options.posix_acl = o.acl;
  req.options.caller_is_owner = !o.not_owner;
  req.acl_on_dirs = o.acl;
  req.disk = o.disk;
  req.contend = o.contend;
  req.hold = sim::from_ns(o.hold_ns);
  req.holder_cpu = o.holder_cpu;
  return req;
}

}  // namespace

void add_trace_command(CLI::App& app, const GlobalOptions& global) {
  auto* cmd = app.add_subcommand("trace",
                                 "The ordered memory and lock operations of one system call, by object, "
                                 "field and cacheline, with totals");
  auto o = std::make_shared<TraceOpts>();
  cmd->add_option("--machine,-m", o->machine, "Machine name or YAML path")->capture_default_str();
  cmd->add_option("--kernel,-k", o->kernel, "Kernel variant name (configs/kernels) or YAML path")->required();
  cmd->add_option("--cwd", o->cwd, "The process's working directory")->capture_default_str();
  cmd->add_option("--syscall,-s", o->syscall, "The call, e.g. \"stat ./file\", \"open ./f O_WRONLY|O_CREAT\"")
      ->required();
  cmd->add_flag("--no-prefetch", o->no_prefetch, "Turn off the name/inode prefetch of __d_lookup_rcu");
  cmd->add_flag("--acl", o->acl, "Directories carry POSIX ACLs");
  cmd->add_flag("--disk", o->disk,
                "The tree is on a disk filesystem: no dentry pinned, so the stat's last dput takes dput's slow path "
                "(stat and lstat only)");
  cmd->add_flag("--not-owner", o->not_owner, "The caller does not own the directories (ACLs are consulted)");
  cmd->add_option("--contend", o->contend,
                  "A lock the call takes (e.g. i_mutex, files_lock, d_lock) that another CPU holds when the call "
                  "reaches it: shows the call's slow path and the holder's release (wake-up) beside it");
  cmd->add_option("--hold", o->hold_ns, "With --contend: how long the other CPU holds the lock, in ns")
      ->capture_default_str();
  cmd->add_option("--holder-cpu", o->holder_cpu, "With --contend: the CPU that holds it (default: the last CPU)");
  cmd->add_flag("--json", o->json, "Print JSON");
  cmd->callback([o, cmd, &global] {
    const std::string root = resolve_config_root(global.configs);
    machine::Machine m(machine::load_machine(o->machine, machine_dirs(root)));
    const kernel::KernelSpec k = kernel::load_kernel(o->kernel, {root + "/kernels"});
    const kernel::TraceRequest req = trace_request(*o, k, cmd->count("--hold") > 0);
    kernel::TraceResult t;
    try {
      t = kernel::trace_syscall(m, k, req);
    } catch (const kernel::TraceRequestError& e) {
      const std::string what = e.what();
      const char* key = what.find("(--disk)") != std::string::npos                      ? "--disk"
                        : o->holder_cpu && what.find("holder CPU") != std::string::npos ? "--holder-cpu"
                                                                                        : "--contend";
      throw config::ConfigError({}, key, what);
    } catch (const std::invalid_argument& e) {
      throw config::ConfigError({}, "--syscall", e.what());
    }
    if (o->json) {
      std::cout << to_json(t).dump(2) << "\n";
    } else {
      print_table(t);
    }
  });
}

void add_kernels_command(CLI::App& app, const GlobalOptions& global) {
  auto* cmd = app.add_subcommand("kernels", "List the kernel variants in configs/kernels");
  cmd->callback([&global] {
    const std::string dir = resolve_config_root(global.configs) + "/kernels";
    for (const auto& name : kernel::list_kernels({dir})) {
      const auto k = kernel::load_kernel(name, {dir});
      fmt::print("{:<30} {}\n", name, k.description);
    }
  });
}

}  // namespace walksim::cli
