// Expands every syscall, through every fallback, on a two-core machine built in code.
#include "models/kernel/kernel_check.hpp"

#include <stdexcept>

#include "models/coherence/memory_system.hpp"
#include "models/kernel/emitter.hpp"
#include "models/kernel/syscalls.hpp"

namespace walksim::kernel {

namespace {
machine::MachineSpec tiny_machine() {
  machine::MachineSpec m;
  m.name = "kernel-check";
  m.nodes = 1;
  m.sockets_per_node = 1;
  m.cores_per_socket = 2;
  m.threads_per_core = 1;
  m.clock_hz = 1e9;
  m.line_size = 64;
  m.caches = {{"L1D", 1, 4096, 4, 1000, machine::Inclusion::kNonInclusive}};
  m.dram_access = 50000;
  m.protocol = machine::ProtocolKind::kDirectory;
  return m;
}

// Every syscall, through every fallback; `used`, when given, collects the fields touched.
void expand_every_call(const KernelSpec& spec, FieldsUsed* used) {
  machine::Machine m(tiny_machine());
  coherence::MemorySystem mem(m, false);
  Vfs vfs(mem, spec);
  if (used) vfs.record_fields_used(&used->required, &used->optional);
  const DentryId cwd = vfs.mkpath("/w", true, 0u);
  const DentryId d = vfs.add_dentry(cwd, "dir", true, true, 0u);
  vfs.add_dentry(d, "file", false, false, 0u);
  vfs.add_dentry(d, "empty", true, false, 0u);
  const DentryId link = vfs.add_dentry(cwd, "link", false, true, 0u);
  vfs.dentry(link).symlink = true;
  vfs.dentry(link).link_target = "dir";
  vfs.dentry(d).has_acl = true;
  vfs.dentry(d).revalidate = true;
  Process& p = vfs.new_process(0, cwd);
  KernelOptions opts;
  opts.posix_acl = spec.inode_caches_acl();
  opts.caller_is_owner = false;
  SyscallExpander ex(vfs, opts);
  Expansion exp;
  WalkStats stats;
  const char* calls[] = {"stat ./dir/file",        "lstat ./link/file",
                         "stat ./missing",         "open ./dir/new O_WRONLY|O_CREAT",
                         "open ./dir/file O_RDWR", "write ./dir/file 3",
                         "read ./dir/file 3",      "fsync ./dir/file",
                         "fcntl-lock ./dir/file",  "fstat ./dir/file",
                         "close ./dir/file",       "close ./dir/new",
                         "readdir ./dir",          "statfs .",
                         "utime ./dir/file",       "mkdir ./dir/sub",
                         "rmdir ./dir/empty",      "rename ./dir/file ./dir/moved",
                         "unlink ./dir/moved"};
  for (bool force_ref : {false, true}) {
    for (const char* c : calls) ex.expand(parse_syscall(c), p, force_ref, exp, stats);
    vfs.add_dentry(d, "file", false, false, 0u);
    vfs.add_dentry(d, "empty", true, false, 0u);
  }
}
}  // namespace

std::optional<KernelProblem> check_kernel_fields(const KernelSpec& spec) {
  try {
    expand_every_call(spec, nullptr);
  } catch (const MissingCost& e) {
    return KernelProblem{e.what(), e.step()};
  } catch (const std::invalid_argument& e) {
    return KernelProblem{e.what(), {}};
  }
  return std::nullopt;
}

FieldsUsed fields_used(const KernelSpec& spec) {
  FieldsUsed used;
  expand_every_call(spec, &used);
  for (const auto& f : used.required) used.optional.erase(f);
  return used;
}

}  // namespace walksim::kernel
