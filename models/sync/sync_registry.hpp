// Every primitive by name, with the lines it lives on, so that a kernel variant can say
// `spinlock: mcs` and one contract test can run against all of them. Adding a primitive is one
// class and one entry in sync_registry.cpp's table (name, summary, role, lines, factory).
#pragma once

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "models/coherence/memory_system.hpp"
#include "models/sync/futex_mutex.hpp"
#include "models/sync/sync_primitive.hpp"

namespace walksim::sync {

class Scheduler;

// Where a kind's per-CPU lines come from: one per CPU, each homed on its CPU's node.
enum class PerCpuLines : std::uint8_t {
  kNone,
  kOwn,        // the instance's own (an MCS or CLH lock's queue nodes, a per-CPU counter's slots)
  kCpuQnodes,  // the CPU's queue node, shared by every lock of the kind (qspinlock's per-CPU
               // mcs_nodes); add_sync_lines gives each instance its own
};

// The lines a primitive needs: `shared` lines first (the first holds its word; further ones are
// allocated with it and named `extra_label`), then, unless kNone, one line per CPU.
struct SyncLines {
  std::uint32_t shared = 0;
  PerCpuLines per_cpu = PerCpuLines::kNone;
  const char* extra_label = "";  // what a shared line after the first is ("initial node")
  std::uint32_t count(std::uint32_t cpus) const { return shared + (per_cpu != PerCpuLines::kNone ? cpus : 0); }
};

// What a kind is to a kernel variant: which `spinlock:` it may be, and whether its waiters sleep.
enum class SyncRole : std::uint8_t {
  kSpinlock,  // lock/unlock, waiters spin: a kernel variant's `spinlock:` or a lock-loop's `lock:`
  kSleeping,  // lock/unlock, waiters sleep and are woken through the scheduler (SyncConfig::scheduler)
  kKernel,    // used by the kernel model through this registry: the rwlock, lockref
  // A reference model the sync tests check, which the kernel model does not run: its expander
  // emits these operations itself (KOpKind::kSeqBegin/kSeqCheck/kSeqWriteBegin/kSeqWriteEnd,
  // kPercpuAdd, kAtomic; an lglock's halves as per-CPU spinlocks; call_rcu as a private cost).
  // They agree except in one place: the kernel's sequence write is a load then a store of
  // seq + 1, where Seqcount writes with one store (the writer is serialised, and x86's
  // `s->sequence++` is one non-locked add: one ownership request). Routing the kernel through
  // Seqcount would change results, so it is left for a model change, not this table.
  kReference,
};

struct SyncConfig {
  std::span<const LineId> lines;         // as many as the kind's SyncLines say for `cpus`
  std::uint32_t word = exec::kLineWord;  // the word of the first line that holds the value (Op::on_word)
  std::uint32_t cpus = 0;
  Scheduler* scheduler = nullptr;  // sleeping kinds: the runqueues they sleep and wake through
  Picos callback_cost = 0;         // rcu: CPU time of one call_rcu
  Picos cycle = 0;                 // one CPU cycle, for delays a lock's source gives in cycles (a TAS
                                   // loop's pause, TTAS back-off); 0: those delays are left out
  SyncPrimitive* lock = nullptr;   // atomic: the spinlock atomic_dec_and_lock takes (optional)
  FutexCosts futex;                // pthread-mutex: its system calls' private work
};

struct SyncKind {
  std::string_view name;
  std::string_view summary;
  SyncRole role;
  SyncLines lines;
  std::unique_ptr<SyncPrimitive> (*make)(const SyncConfig&);
  // A lock of the kernel, which a kernel YAML may name (locking.spinlock, locking.mutex); false: a
  // user-space lock (glibc's pthread mutex), which only a lock-loop's `lock` may name.
  bool in_kernel = true;
};

std::span<const SyncKind> sync_kinds();
// Throws std::invalid_argument naming the valid kinds when `name` is unknown.
// The names of the kinds with `role`, in table order; with `kernel_only`, only those a kernel may use.
std::vector<std::string> sync_kind_names(SyncRole role, bool kernel_only = false);
// The position of kind `name` in sync_kinds() (what a KOp stores); throws like find_sync_kind.
std::uint8_t sync_kind_index(std::string_view name);
const SyncKind& find_sync_kind(std::string_view name);
// Throws std::invalid_argument when the kind is unknown or config.lines has the wrong length.
std::unique_ptr<SyncPrimitive> make_sync(std::string_view name, const SyncConfig& config);
// The same for a kind already looked up.
std::unique_ptr<SyncPrimitive> make_sync(const SyncKind& kind, const SyncConfig& config);
// Adds the lines kind `name` needs to `mem`: shared lines homed on `home` (or on first touch), and
// each per-CPU line homed on its CPU's node.
std::vector<LineId> add_sync_lines(coherence::MemorySystem& mem, std::string_view name,
                                   std::optional<machine::NodeId> home = std::nullopt);

}  // namespace walksim::sync
