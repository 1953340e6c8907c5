// The coherent memory of one simulated machine: every cacheline's global state, the caches that
// hold it, and the transactions that move it. An access returns when its data (or write
// permission) arrives; a line serves one transaction at a time, so concurrent requesters queue
// at the line and contention emerges from the simulation rather than from a formula.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <unordered_map>
#include <vector>

#include "models/coherence/growing_array.hpp"
#include "models/coherence/home_agents.hpp"
#include "models/coherence/line_state.hpp"
#include "models/coherence/plan_inputs.hpp"
#include "models/coherence/protocol_timing.hpp"
#include "models/machine/cache.hpp"
#include "models/machine/machine.hpp"

namespace walksim::coherence {

using machine::CoreId;
using machine::CpuId;
using machine::LineId;

enum class AccessKind : std::uint8_t {
  kLoad,
  kStore,
  kRmw,                // locked read-modify-write (xadd, cmpxchg, xchg): exclusive ownership + atomic_overhead
  kPrefetch,           // like a load; the caller does not wait for it
  kPrefetchExclusive,  // like a store without writing (prefetchw)
};

enum class ServedBy : std::uint8_t {
  kPrivate,      // a hit in the core's own caches
  kSharedCache,  // the domain's shared cache, without a snoop
  kOnChip,       // another core of the same domain, found by the shared cache's presence bits
  kRemote,       // a protocol transaction through the home agent / probes
};

// Where an access's data (or permission) came from, finer than ServedBy: the per-operation memory
// breakdown of a run (mem_*_per_op metrics) counts accesses by it.
enum class Source : std::uint8_t {
  kL1,            // the core's first private level
  kL2,            // its second
  kL3,            // its third or beyond (Itanium 2's private L3)
  kSharedCache,   // the domain's shared cache, without a snoop
  kOnChip,        // a sibling core of the same domain, found by the shared cache's presence bits
  kCache,         // another core's cache, through the home (a forwarded or probed copy)
  kLocalMemory,   // DRAM of the requester's own node
  kRemoteMemory,  // DRAM of another node
  kPermission,    // ownership or invalidations without data (an upgrade of a shared copy)
};
inline constexpr std::size_t kSources = 9;
// Short names, in Source order (metric names: mem_<name>_per_op).
inline constexpr const char* kSourceNames[kSources] = {"l1",    "l2",         "l3",          "llc",    "onchip",
                                                       "cache", "local_dram", "remote_dram", "upgrade"};

struct AccessResult {
  Picos start = 0;  // when this access began to be served (after queueing at the line)
  Picos done = 0;   // when its data or permission arrived
  ServedBy served = ServedBy::kPrivate;
  Source source = Source::kL1;
  std::size_t level = 0;    // the cache level index that hit (kPrivate)
  bool transfer = false;    // data or ownership moved from another core
  std::uint64_t value = 0;  // the value the requester's copy holds afterwards (value checking only)
  Picos visible = 0;        // when a write reached the other copies (their invalidation): spinners wake then
  // A demand access that waited for its own core's hint (prefetch) on the line: the hint took effect
  // first and the access was then served, a hit on what the hint brought; hint_source is where the
  // hint's data or permission came from.
  bool after_hint = false;
  Source hint_source = Source::kL1;
};

// The request at the head of a line's queue and the earliest time it may take effect.
struct Grant {
  CpuId cpu;
  Picos at;
  AccessKind kind;  // a hint's (kPrefetch, kPrefetchExclusive) is granted by nobody waiting for it
};

inline bool is_hint(AccessKind k) { return k == AccessKind::kPrefetch || k == AccessKind::kPrefetchExclusive; }

class MemorySystem {
 public:
  // With `check` on, every access also tracks data values per copy and verifies the line's
  // invariants afterwards (single writer, directory agrees with caches, every copy current).
  MemorySystem(const machine::Machine& m, bool check);

  // The generation floor of `walksim bench`: every access costs one nanosecond and no state is
  // kept, so a run measures what producing the operation streams costs without timing them. Every
  // line counts as every core's own (a private hit, a store performed at once), so the executor
  // runs ahead over every access, as the simulation does over its hits.
  void set_floor_mode(bool on) { floor_ = on; }
  bool floor_mode() const { return floor_; }
  // The floor's access: served at once in a fixed 1 ns, nothing kept.
  static void floor_access(Picos now, AccessResult& out) {
    out = AccessResult{};
    out.start = now;
    out.done = now + 1000;
    out.visible = out.done;
  }

  // Simulator memory per line: the line record and its presence sets (heap included).
  std::size_t bytes_per_line() const;

  // A new line homed on `home`, or on the node of the first core that touches it.
  LineId add_line(std::optional<machine::NodeId> home = std::nullopt);
  std::size_t line_count() const { return lines_.size(); }
  const LineState& line(LineId id) const { return lines_[id]; }
  const LineStats& line_stats(LineId id) const { return stats_[id]; }
  const machine::Machine& machine() const { return m_; }

  // Effect at grant (docs/model.md, "Grants"). The access of `cpu` to `line` issued at `now`
  // takes effect at once when it is a hit or a read served inside the requester's own domain; the
  // result is returned.
  // Any other transaction through the home, contended or not, changes nothing yet: the request
  // joins the line's queue, ordered by its arrival at the home, and nullopt is returned. The caller
  // asks again, with the same arguments, when head() names it; the access then takes effect at that
  // `now` (state and value) and its data arrives one data leg later. Until a grant takes effect the
  // holders' accesses are hits: the window real homes give an owner. `value` is what a write
  // stores, read at the time the access takes effect.
  std::optional<AccessResult> request(Picos now, CpuId cpu, LineId line, AccessKind kind, std::uint64_t value = 0);
  // The same into `out` (the executor's form): true when served, false when queued. A hit writes its
  // fields straight into the caller's result; returned by value, the result was copied twice more
  // through the stack, each copy a 16-byte load of fields just stored in narrower pieces, which the
  // host cannot forward (docs/performance.md, "Twelfth step").
  // A private hit on a line nobody waits for (most accesses) is served here, inline; the rest out of
  // line, whose queue handling would cost every hit a large stack frame.
  bool request(Picos now, CpuId cpu, LineId line, AccessKind kind, std::uint64_t value, AccessResult& out) {
    if (floor_) {
      floor_access(now, out);
      return true;
    }
    const LineState& s = lines_[line];
    if (s.home_assigned && !s.has_waiters && private_hit(now, m_.core_of(cpu), line, kind, value, out)) return true;
    return request_beyond_hit(now, cpu, line, kind, value, out);
  }
  // True when `cpu`'s core holds `line` exclusively (E or M): a store to it is a private hit.
  bool owns_exclusively(CpuId cpu, LineId line) const;
  // True when a load (`write` false) or a store (`write` true) of `cpu` on
  // `line` at `at` would be a private hit that no queued request stands before: it changes no other
  // core's copy and the line's timing state, and no read of a sibling core takes its value from
  // elsewhere at its issue (the executor's run-ahead asks this).
  bool hits_privately(Picos at, CpuId cpu, LineId line, bool write) const;
  // A hint (prefetch, prefetchw, the store buffer's ownership prefetch): the core does not wait for
  // it. Like a demand request it takes effect at its grant, not at issue (a hit or a read its own
  // domain serves is served at once: true, with `out` filled). Otherwise it joins the line's queue
  // and false is returned; whoever drives the run grants it by calling request() with the same kind
  // when head() names it. A hint for a line on which the CPU already has a request queued adds
  // nothing (false; that request is in flight). A demand request of the core that finds its own
  // hint queued on the line waits for the hint's grant and is then served after it
  // (AccessResult::after_hint).
  bool hint(Picos now, CpuId cpu, LineId line, AccessKind kind, AccessResult& out);
  // True when a hint for this access at `now` would find nobody queued and the home free or busy
  // only with the core's own transaction (or be a hit, or a read its own domain serves): the store
  // buffer sends its ownership prefetch only then.
  bool served_at_once(Picos now, CpuId cpu, LineId line, AccessKind kind);
  // The request at the head of `line`'s queue, or nullopt when none waits.
  // With `coherence.home_occupancy`, the first time a request is the head it books the home agent's
  // next free time from when the home could take it (Waiting::agent_slot).
  std::optional<Grant> head(LineId line);
  // Requests still queued on any line (none may be left when a run ends).
  std::size_t waiting() const { return waiting_; }

  // The same access for callers that cannot wait for a grant (latency probes, tests):
  // it takes effect at `now`, served after the transactions the line already serialised, in the
  // order of issue. `value` is what a store writes.
  AccessResult access(Picos now, CpuId cpu, LineId line, AccessKind kind, std::uint64_t value = 0);

  // Throws std::logic_error describing the first broken invariant of the line (or of all lines).
  void check_line(LineId id) const;
  void check_all() const;

 private:
  // How a non-hit access would be served in the line's current state.
  struct Plan {
    Legs legs;
    ServedBy served = ServedBy::kRemote;
    bool local_read = false;  // served in the requester's own domain without the home, occupying nothing
    std::optional<machine::DomainId> supplier;
    bool sibling_copy = false;
  };
  struct Waiting {
    Picos arrival;  // at the home: issue + request leg
    Picos issued;
    CpuId cpu;
    AccessKind kind;
    bool own = false;  // issued when the home was busy only with this core's own transaction
    // With `coherence.home_occupancy`: the home agent's time this request booked when it first came
    // to the head of its line's queue (head()), or kNoSlot. Booked then, so that what other lines
    // book later cannot take it: without it a request had to find a free slot again each time it
    // was asked, and lines that kept the agent busy starved it for ever.
    Picos agent_slot = kNoSlot;
    static constexpr Picos kNoSlot = -1;
  };
  // When the home takes the queued request `w` with the agent's time it may have booked.
  Picos agent_takes(const LineState& s, CoreId c, const Waiting& w) const;
  // The queue of `id`'s waiting requests, empty, from the spare entries when there are some.
  std::vector<Waiting>& acquire_queue(LineId id);
  // Takes the drained queue of `id` out of the map and keeps its entry for acquire_queue.
  void release_queue(LineId id);
  // A hit in the core's own caches, served and returned; nullopt when the access needs more.
  bool private_hit(Picos now, CoreId c, LineId id, AccessKind kind, std::uint64_t value, AccessResult& out);
  // request() past its inline floor and hit: a line first used, a queue, a miss.
  bool request_beyond_hit(Picos now, CpuId cpu, LineId id, AccessKind kind, std::uint64_t value, AccessResult& out);
  Plan plan(CoreId c, LineId id, AccessKind kind);
  // Fills `p` for an access its own domain serves (a read its shared cache or a sibling answers, a
  // write the domain has permission for); false when the home must be asked.
  bool plan_in_domain(const LineState& s, CoreId c, bool write, Plan& p) const;
  // The transaction the home sees for an access it must serve; sets p.supplier.
  Transaction remote_transaction(const LineState& s, CoreId c, bool write, Plan& p);
  // The on-die snoop of the sibling of `c` that holds the line, dirty or not.
  Picos sibling_snoop(const LineState& s, CoreId c) const;
  // The same with the home agent's other work left out (`coherence.home_occupancy`): whether a
  // request is served at once or waits in the line's queue depends on the line only, and a busy
  // agent delays a request served at once.
  Picos line_ready_time(const LineState& s, CoreId c, Picos arrival, const Legs& l) const;
  // When the home takes the queued request `w` of core `c`: at its arrival, after what the line
  // serialised before it; one issued behind only its own core's transaction in flight (Waiting::own)
  // as soon as that one's data is in and a request leg later, since that transaction's completion
  // travels ahead of it.
  Picos home_takes(const LineState& s, CoreId c, const Waiting& w) const;
  // When a queued request planned as `p` may take effect: once the home has taken it (home_takes,
  // and the home agent is free) and looked it up and forwarded it; or, for a read the requester's
  // shared cache answers (it takes no home agent), line_ready_time.
  Picos turn_time(const LineState& s, CoreId c, const Waiting& w, const Plan& p) const;
  // When a request that reaches the home at `arrival` is taken: then, or, on a busy-on-forward home
  // whose line is busy, at its first retry after the busy state ends (each NACK goes back to the
  // requester, which sends the request again).
  Picos arrival_at_home(const LineState& s, CoreId c, Picos arrival) const;
  // Applies the state change of a planned access at `effect` (the caller chose it) and fills in the
  // result: data at `effect + after` (plus link queueing and the atomic's own cost).
  AccessResult apply(Picos effect, Picos after, Picos issued, Picos queued, CoreId c, LineId id, AccessKind kind,
                     std::uint64_t value, const Plan& p);
  // Where a planned access's data comes from, in the line's state before it takes effect.
  Source source_of(const LineState& s, CoreId c, const Plan& p) const;
  // A planned transaction served now, after what the line already serialised (issue order).
  AccessResult serve_in_issue_order(Picos now, CoreId c, LineId id, AccessKind kind, std::uint64_t value,
                                    const Plan& p);
  // The place in a line's queue (kept in order of arrival at the home) of the request the home takes
  // next: the first, or under node round robin (machine::ServiceOrder) the next node's in turn.
  std::size_t next_in_queue(const LineState& s, const std::vector<Waiting>& queue) const;
  // The home's bookkeeping after a transaction served from `service` (its start at the home) completed at `done`.
  void occupy_home(LineState& s, Picos service, Picos done, const Plan& p, bool write);
  bool is_write(AccessKind k) const {
    return k == AccessKind::kStore || k == AccessKind::kRmw || k == AccessKind::kPrefetchExclusive;
  }
  machine::DomainId dom(CoreId c) const { return m_.domain_of(c); }

  std::size_t private_hit_level(CoreId c, LineId id) {
    auto& levels = private_[c];
    return levels[0].touch(id) ? 0 : private_hit_outer_level(levels, id);  // most hits are L1 hits
  }
  static std::size_t private_hit_outer_level(std::vector<machine::SetAssocCache>& levels, LineId id);
  void fill_private(CoreId c, LineId id);
  void fill_llc(machine::DomainId d, LineId id);
  void drop_private(CoreId c, LineId id);   // invalidation: no data kept
  void evict_private(CoreId c, LineId id);  // capacity eviction: data written back
  void evict_llc(machine::DomainId d, LineId id);
  void forget_domain_if_empty(LineState& s, machine::DomainId d);
  bool domain_holds(const LineState& s, machine::DomainId d) const;
  bool other_core_in_domain(const LineState& s, CoreId c) const;

  void apply_write(LineId id, CoreId c, std::uint64_t value);
  void apply_read(LineId id, CoreId c, std::optional<machine::DomainId> supplier);

  // Value tracking (check mode only).
  // With bandwidth modelling on: the extra delay of a line's data crossing the links from node
  // `from` to node `to`, leaving at `at`, behind the data already queued on those links.
  Picos link_queueing(machine::NodeId from, machine::NodeId to, Picos at);

  std::uint64_t& copy_value(LineId id, CoreId c) { return core_values_[std::uint64_t{id} * m_.cores() + c]; }
  std::uint64_t& llc_value(LineId id, machine::DomainId d) { return llc_values_[std::uint64_t{id} * m_.domains() + d]; }
  std::uint64_t source_value(LineId id, CoreId c, std::optional<machine::DomainId> supplier);

  const machine::Machine& m_;
  std::unique_ptr<ProtocolTiming> timing_;
  // A directory that records owners only (HT Assist) must know whether a written line is shared
  // anywhere; decided once here, not per transaction.
  bool owner_only_directory_;
  // The protocol's fixed traits, asked on every miss: read once here instead of through a virtual
  // call that recomputes them from the machine's spec each time.
  bool tracks_core_copies_;
  bool keeps_dirty_sharing_;
  bool has_forward_state_;
  bool check_;
  bool floor_ = false;
  GrowingArray<LineState> lines_;                             // huge pages: dense, large, read everywhere
  GrowingArray<LineStats> stats_;                             // beside lines_, one per line
  std::vector<std::vector<machine::SetAssocCache>> private_;  // [core][private level]
  std::vector<machine::SetAssocCache> llc_;                   // [domain], empty if no shared level
  std::size_t private_levels_ = 0;
  std::vector<Picos> link_busy_;  // per link and direction (2 * index + (a->b ? 0 : 1))
  HomeAgents agents_{0, 0};       // per node, with `coherence.home_occupancy` only
  // Per line with queued requests (LineState::has_waiters). Every transaction through the home
  // queues for its grant, so a line's entry is taken out when its queue drains and kept, emptied,
  // in spare_queues_ for the next line that queues (acquire_queue, release_queue): the map stays as
  // small as the number of lines with waiters, and a queued request allocates nothing.
  std::unordered_map<LineId, std::vector<Waiting>> queues_;
  std::vector<decltype(queues_)::node_type> spare_queues_;
  std::size_t waiting_ = 0;
  // Per CPU, its requests that wait in a line's queue (a thread's access, and its store buffer's
  // oldest store on another line, may both wait; at most one per line): the line and the
  // request's arrival, so that a request finds its place in the queue (in order of arrival) by a
  // binary search instead of a scan of the whole queue.
  struct Queued {
    LineId line;
    Picos arrival;
  };
  std::vector<std::vector<Queued>> queued_;  // [cpu]
  std::size_t queue_index(const std::vector<Waiting>& queue, CpuId cpu, LineId id) const;
  // The latest plan made for each core, and what it was made from (plan_inputs.hpp).
  struct PlanMemo {
    LineId line = UINT32_MAX;
    bool write = false;
    PlanInputs from;
    Plan plan;
  };
  std::vector<PlanMemo> plan_memo_;                // [core]
  std::vector<machine::DomainId> holder_scratch_;  // reused per transaction: no allocation per miss
  std::vector<std::uint8_t> domain_mark_;

  std::unordered_map<std::uint64_t, std::uint64_t> core_values_;
  std::unordered_map<std::uint64_t, std::uint64_t> llc_values_;
  std::vector<std::uint64_t> memory_values_;
  std::vector<std::uint64_t> latest_values_;
};

}  // namespace walksim::coherence
