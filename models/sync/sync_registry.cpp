// The table of primitives: one line each.
#include "models/sync/sync_registry.hpp"

#include <stdexcept>
#include <string>

#include "models/sync/atomic_counter.hpp"
#include "models/sync/clh_lock.hpp"
#include "models/sync/futex_mutex.hpp"
#include "models/sync/lglock.hpp"
#include "models/sync/lockref.hpp"
#include "models/sync/mcs_lock.hpp"
#include "models/sync/percpu_counter.hpp"
#include "models/sync/queued_spinlock.hpp"
#include "models/sync/rcu.hpp"
#include "models/sync/rwlock.hpp"
#include "models/sync/seqcount.hpp"
#include "models/sync/seqlock.hpp"
#include "models/sync/sleeping_mutex.hpp"
#include "models/sync/tas_spinlock.hpp"
#include "models/sync/tas_xchg_lock.hpp"
#include "models/sync/ticket_backoff_lock.hpp"
#include "models/sync/ticket_spinlock.hpp"
#include "models/sync/ttas_lock.hpp"

namespace walksim::sync {

namespace {

using Ptr = std::unique_ptr<SyncPrimitive>;
std::span<const LineId> per_cpu(const SyncConfig& c, std::size_t first) { return c.lines.subspan(first); }
SyncWord first(const SyncConfig& c) { return {c.lines[0], c.word}; }

const SyncKind kKinds[] = {
    {"ticket",
     "x86 ticket spinlock: xadd, spin on the shared word, plain-store release",
     SyncRole::kSpinlock,
     {1, PerCpuLines::kNone},
     [](const SyncConfig& c) -> Ptr { return std::make_unique<TicketSpinlock>(first(c)); }},
    {"ticket-backoff",
     "ticket lock of the SSYNC study (libslock, x86-64): xadd, then re-read the head after a wait proportional to the "
     "distance",
     SyncRole::kSpinlock,
     {1, PerCpuLines::kNone},
     [](const SyncConfig& c) -> Ptr { return std::make_unique<TicketBackoffLock>(first(c), c.cycle); }},
    {"decb",
     "x86 spinlock before 2.6.25: lock decb, spin reading until free, retry; plain-store release (unfair)",
     SyncRole::kSpinlock,
     {1, PerCpuLines::kNone},
     [](const SyncConfig& c) -> Ptr { return std::make_unique<TasSpinlock>(first(c)); }},
    {"tas",
     "test-and-set lock of the SSYNC study: xchg retried after a PAUSE until it returns 0; plain-store release",
     SyncRole::kSpinlock,
     {1, PerCpuLines::kNone},
     [](const SyncConfig& c) -> Ptr {
       return std::make_unique<TasXchgLock>(first(c), TasXchgLock::kPauseCycles * c.cycle);
     }},
    {"ttas",
     "test-and-test-and-set lock of the SSYNC study: read until free, cmpxchg, exponential back-off",
     SyncRole::kSpinlock,
     {1, PerCpuLines::kNone},
     [](const SyncConfig& c) -> Ptr { return std::make_unique<TtasLock>(first(c), c.cpus, c.cycle); }},
    {"mcs",
     "MCS queue lock: swap into the tail, spin on the own node; hand-off by a store to the successor's node",
     SyncRole::kSpinlock,
     {1, PerCpuLines::kOwn},
     [](const SyncConfig& c) -> Ptr { return std::make_unique<McsLock>(first(c), per_cpu(c, 1)); }},
    {"clh",
     "CLH queue lock: swap the own node in, spin on the predecessor's node, adopt it at release",
     SyncRole::kSpinlock,
     {2, PerCpuLines::kOwn, "initial node"},
     [](const SyncConfig& c) -> Ptr { return std::make_unique<ClhLock>(first(c), c.lines[1], per_cpu(c, 2)); }},
    {"queued",
     "qspinlock (MCS): cmpxchg fast path, waiters spin on their own CPU's node",
     SyncRole::kSpinlock,
     {1, PerCpuLines::kCpuQnodes},
     [](const SyncConfig& c) -> Ptr { return std::make_unique<QueuedSpinlock>(first(c), per_cpu(c, 1)); }},
    {"rwlock",
     "2.6.35 x86 rwlock: one RMW per read lock and per read unlock",
     SyncRole::kKernel,
     {1, PerCpuLines::kNone},
     [](const SyncConfig& c) -> Ptr { return std::make_unique<RwLock>(first(c)); }},
    {"seqcount",
     "seqcount_t: loads-only readers, two stores per write section",
     SyncRole::kReference,
     {1, PerCpuLines::kNone},
     [](const SyncConfig& c) -> Ptr { return std::make_unique<Seqcount>(first(c)); }},
    {"seqlock",
     "seqlock_t: a seqcount whose writers take a spinlock in the same word",
     SyncRole::kReference,
     {1, PerCpuLines::kNone},
     [](const SyncConfig& c) -> Ptr { return std::make_unique<Seqlock>(first(c)); }},
    {"atomic",
     "atomic_t counter: inc, dec, dec_and_test, add_unless, dec_and_lock",
     SyncRole::kReference,
     {1, PerCpuLines::kNone},
     [](const SyncConfig& c) -> Ptr { return std::make_unique<AtomicCounter>(first(c), c.lock); }},
    {"percpu",
     "per-CPU counter: non-atomic add on the CPU's own line",
     SyncRole::kReference,
     {0, PerCpuLines::kOwn},
     [](const SyncConfig& c) -> Ptr { return std::make_unique<PercpuCounter>(per_cpu(c, 0)); }},
    {"lglock",
     "lglock: a ticket lock per CPU; local takes one, global takes all",
     SyncRole::kReference,
     {0, PerCpuLines::kOwn},
     [](const SyncConfig& c) -> Ptr { return std::make_unique<LgLock>(per_cpu(c, 0)); }},
    {"brlock",
     "brlock: the lglock under its 2.6.36 name (read = local, write = global)",
     SyncRole::kReference,
     {0, PerCpuLines::kOwn},
     [](const SyncConfig& c) -> Ptr { return std::make_unique<LgLock>(per_cpu(c, 0)); }},
    {"mutex",
     "2.6.16-2.6.29 sleeping mutex: one RMW fast paths, contended waiters sleep at once",
     SyncRole::kSleeping,
     {1, PerCpuLines::kNone},
     [](const SyncConfig& c) -> Ptr {
       if (!c.scheduler) throw std::invalid_argument("a sleeping mutex needs the scheduler it sleeps through");
       return std::make_unique<SleepingMutex>(first(c), *c.scheduler);
     }},
    {"mutex-spin",
     "2.6.30+ sleeping mutex: spins while the owner runs (CONFIG_MUTEX_SPIN_ON_OWNER), then sleeps",
     SyncRole::kSleeping,
     {1, PerCpuLines::kNone},
     [](const SyncConfig& c) -> Ptr {
       if (!c.scheduler) throw std::invalid_argument("a sleeping mutex needs the scheduler it sleeps through");
       return std::make_unique<SleepingMutex>(first(c), *c.scheduler, /*spin_on_owner=*/true);
     }},
    {"pthread-mutex",
     "glibc pthread mutex (default type) on futexes: cmpxchg fast path, FUTEX_WAIT/FUTEX_WAKE system calls, no "
     "spinning",
     SyncRole::kSleeping,
     {2, PerCpuLines::kOwn, "futex hash bucket"},
     [](const SyncConfig& c) -> Ptr {
       if (!c.scheduler) throw std::invalid_argument("a futex mutex needs the scheduler it sleeps through");
       return std::make_unique<FutexMutex>(first(c), c.lines[1], per_cpu(c, 2), *c.scheduler, c.futex);
     },
     /*in_kernel=*/false},
    {"rcu",
     "RCU read side (no ops) and call_rcu (private cost, deferred free)",
     SyncRole::kReference,
     {0, PerCpuLines::kNone},
     [](const SyncConfig& c) -> Ptr { return std::make_unique<Rcu>(c.callback_cost); }},
    {"lockref",
     "lockref: count and spinlock in one word, cmpxchg loop with spinlock fallback",
     SyncRole::kKernel,
     {1, PerCpuLines::kNone},
     [](const SyncConfig& c) -> Ptr { return std::make_unique<Lockref>(first(c)); }},
};

}  // namespace

std::span<const SyncKind> sync_kinds() { return kKinds; }

const SyncKind& find_sync_kind(std::string_view name) {
  for (const auto& k : kKinds) {
    if (k.name == name) return k;
  }
  std::string valid;
  for (const auto& k : kKinds) valid += (valid.empty() ? "" : ", ") + std::string(k.name);
  throw std::invalid_argument("unknown synchronisation primitive '" + std::string(name) +
                              "'. Valid values are: " + valid);
}

std::uint8_t sync_kind_index(std::string_view name) {
  return static_cast<std::uint8_t>(&find_sync_kind(name) - kKinds);
}

std::vector<std::string> sync_kind_names(SyncRole role, bool kernel_only) {
  std::vector<std::string> out;
  for (const auto& k : kKinds) {
    if (k.role == role && (k.in_kernel || !kernel_only)) out.emplace_back(k.name);
  }
  return out;
}

std::unique_ptr<SyncPrimitive> make_sync(std::string_view name, const SyncConfig& config) {
  return make_sync(find_sync_kind(name), config);
}

std::unique_ptr<SyncPrimitive> make_sync(const SyncKind& k, const SyncConfig& config) {
  const std::uint32_t want = k.lines.count(config.cpus);
  if (config.lines.size() != want) {
    throw std::invalid_argument(std::string(k.name) + " on " + std::to_string(config.cpus) + " CPUs needs " +
                                std::to_string(want) + " lines, got " + std::to_string(config.lines.size()));
  }
  return k.make(config);
}

std::vector<LineId> add_sync_lines(coherence::MemorySystem& mem, std::string_view name,
                                   std::optional<machine::NodeId> home) {
  const SyncKind& k = find_sync_kind(name);
  const auto& m = mem.machine();
  std::vector<LineId> lines;
  lines.reserve(k.lines.count(m.cpus()));
  for (std::uint32_t i = 0; i < k.lines.shared; ++i) lines.push_back(mem.add_line(home));
  if (k.lines.per_cpu != PerCpuLines::kNone) {
    for (CpuId c = 0; c < m.cpus(); ++c) lines.push_back(mem.add_line(m.node_of(m.core_of(c))));
  }
  return lines;
}

}  // namespace walksim::sync
