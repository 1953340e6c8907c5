// Access classification (private hit, shared-cache hit, on-chip snoop, protocol transaction), the
// home's serialisation of a line's transactions, and the state transitions shared by all
// protocols. The cache fills and evictions are in cache_fills.cpp, the lines' queues of waiting
// requests in line_queues.cpp, the states and values a granted access leaves in apply_access.cpp.
#include "models/coherence/memory_system.hpp"

#include <algorithm>
#include <stdexcept>

#include "sim/rng.hpp"

namespace walksim::coherence {

using machine::DomainId;
using machine::Inclusion;

MemorySystem::MemorySystem(const machine::Machine& m, bool check)
    : m_(m),
      timing_(make_protocol_timing(m)),
      owner_only_directory_(machine::protocol_family(m.spec().protocol).messaging == machine::Messaging::kDirectory &&
                            !m.spec().directory_tracks_sharers),
      tracks_core_copies_(timing_->tracks_core_copies()),
      keeps_dirty_sharing_(timing_->keeps_dirty_sharing()),
      has_forward_state_(timing_->has_forward_state()),
      check_(check) {
  const auto& spec = m.spec();
  const auto outer = m.outer_private_level();
  private_levels_ = outer ? *outer + 1 : 0;
  private_.resize(m.cores());
  plan_memo_.resize(m.cores());
  queued_.resize(m.cpus());
  for (CoreId c = 0; c < m.cores(); ++c) {
    for (std::size_t l = 0; l < private_levels_; ++l) {
      const auto& lvl = spec.caches[l];
      private_[c].emplace_back(lvl.size_bytes / spec.line_size, lvl.ways);
    }
  }
  link_busy_.assign(2 * spec.topology.links.size(), 0);
  agents_ = HomeAgents(m.nodes(), spec.home_occupancy);
  domain_mark_.assign(m.domains(), 0);
  if (const auto s = m.shared_level()) {
    const auto& lvl = spec.caches[*s];
    for (DomainId d = 0; d < m.domains(); ++d) llc_.emplace_back(lvl.size_bytes / spec.line_size, lvl.ways);
  }
}

LineId MemorySystem::add_line(std::optional<machine::NodeId> home) {
  LineState s;
  s.holders = IdSet(m_.cores());
  // Only a machine with a shared level marks domains (every use of llc is behind !llc_.empty()).
  if (!llc_.empty()) s.llc = SmallIdSet(m_.domains());
  if (home) {
    if (*home >= m_.nodes()) throw std::out_of_range("line home node out of range");
    s.home = static_cast<std::uint16_t>(*home);
    s.home_assigned = true;
  }
  lines_.push_back(std::move(s));
  stats_.emplace_back();
  if (check_) {
    memory_values_.push_back(0);
    latest_values_.push_back(0);
  }
  return static_cast<LineId>(lines_.size() - 1);
}

bool MemorySystem::other_core_in_domain(const LineState& s, CoreId c) const {
  const DomainId d = dom(c);
  const CoreId first = m_.first_core_of_domain(d);
  for (CoreId k = first; k < first + m_.cores_per_domain(); ++k) {
    if (k != c && s.holders.contains(k)) return true;
  }
  return false;
}

bool MemorySystem::domain_holds(const LineState& s, DomainId d) const {
  if (!llc_.empty() && s.llc.contains(d)) return true;
  const CoreId first = m_.first_core_of_domain(d);
  for (CoreId k = first; k < first + m_.cores_per_domain(); ++k) {
    if (s.holders.contains(k)) return true;
  }
  return false;
}

void MemorySystem::forget_domain_if_empty(LineState& s, DomainId d) {
  if (domain_holds(s, d)) return;
  if (s.excl_domain == static_cast<std::int32_t>(d)) s.excl_domain = kNone;
  if (s.dirty_domain == static_cast<std::int32_t>(d)) s.dirty_domain = kNone;
}

std::size_t MemorySystem::bytes_per_line() const {
  // The line record and its statistics; presence sets of machines beyond 127 cores or 63 shared-cache
  // domains add heap blocks (their length word included),
  // which malloc rounds up to 16 bytes with an 8-byte header (at least 32 bytes).
  const auto heap = [](std::size_t bytes) { return bytes ? std::max<std::size_t>(32, (bytes + 8 + 15) / 16 * 16) : 0; };
  const IdSet cores(m_.cores());
  const SmallIdSet domains(llc_.empty() ? 0 : m_.domains());
  return sizeof(LineState) + sizeof(LineStats) + heap(cores.heap_bytes()) + heap(domains.heap_bytes());
}

bool MemorySystem::private_hit(Picos now, CoreId c, LineId id, AccessKind kind, std::uint64_t value, AccessResult& r) {
  LineState& s = lines_[id];
  if (!s.holders.contains(c)) return false;
  const bool write = is_write(kind);
  const bool exclusive = s.owner == static_cast<std::int32_t>(c) &&
                         (s.owner_state == OwnerState::kExclusive || s.owner_state == OwnerState::kModified);
  if (write && !exclusive) return false;
  r = AccessResult{};
  r.level = private_hit_level(c, id);
  r.source = static_cast<Source>(std::min<std::size_t>(r.level, 2));
  // Data still in flight for this core's own earlier transaction (a prefetch) is waited for.
  r.start = (s.pending_core == static_cast<std::int32_t>(c) && s.busy_until > now) ? s.busy_until : now;
  r.done =
      r.start + m_.spec().caches[r.level].latency + (kind == AccessKind::kRmw ? m_.spec().costs.atomic_overhead : 0);
  r.visible = r.done;
  r.served = ServedBy::kPrivate;
  if (write && kind != AccessKind::kPrefetchExclusive) apply_write(id, c, value);
  if (check_) r.value = copy_value(id, c);
  return true;
}

MemorySystem::Plan MemorySystem::plan(CoreId c, LineId id, AccessKind kind) {
  const LineState& s = lines_[id];
  const bool write = is_write(kind);
  PlanMemo& memo = plan_memo_[c];
  if (memo.line == id && memo.write == write && memo.from.same_as(s)) return memo.plan;
  Plan p;
  p.sibling_copy = other_core_in_domain(s, c);
  if (!plan_in_domain(s, c, write, p)) {
    p.legs = timing_->legs(remote_transaction(s, c, write, p));
    p.served = ServedBy::kRemote;
  }
  memo.line = id;
  memo.write = write;
  memo.from.take(s);
  memo.plan = p;
  return p;
}

Picos MemorySystem::sibling_snoop(const LineState& s, CoreId c) const {
  const bool dirty = s.owner >= 0 && dom(static_cast<CoreId>(s.owner)) == dom(c) && static_cast<CoreId>(s.owner) != c &&
                     (s.owner_state == OwnerState::kModified || s.owner_state == OwnerState::kOwned);
  return timing_->onchip_snoop(dirty);
}

// Served inside the domain: a read its shared cache or a sibling answers (without the home), or
// a write the domain already has permission for (a transfer between its own cores, serialised
// at the line like any other: the request leg is the lookup; the snoop reaches the sibling at
// once, and its answer and the fill back into the core are the data leg).
bool MemorySystem::plan_in_domain(const LineState& s, CoreId c, bool write, Plan& p) const {
  const DomainId d = dom(c);
  const bool tracks = tracks_core_copies_;
  const bool in_llc = !llc_.empty() && s.llc.contains(d);
  if (!write && ((tracks && (in_llc || p.sibling_copy)) || (!tracks && in_llc))) {
    // A read the shared cache answers by itself is served in its own pipeline: it does not
    // occupy the line (it waits only for the requests that reached the line first: request()).
    // One that must snoop a sibling holding the line exclusively (E or M) changes that core's
    // state, and the cache slice that serves the line takes one such snoop at a time: it is
    // serialised at the line like any transaction.
    const bool sibling_owner =
        s.owner >= 0 && static_cast<CoreId>(s.owner) != c && dom(static_cast<CoreId>(s.owner)) == d;
    const bool owned_by_sibling =
        sibling_owner && (s.owner_state == OwnerState::kExclusive || s.owner_state == OwnerState::kModified);
    p.local_read = !(tracks && owned_by_sibling);
    // The shared cache answers a line its cores share clean out of its own copy: only a sibling
    // that may hold the line exclusively (and may have written it) or dirty must be snooped, or one
    // whose copy the shared cache does not hold (a victim cache with shadow tags). SSYNC Table 2:
    // Westmere-EX loads a Shared line from its own socket in 44 cycles, its L3's latency, an
    // Exclusive one in 92 and a Modified one in 109 (contention.md).
    const bool snoop = tracks && p.sibling_copy &&
                       (!in_llc || owned_by_sibling || (sibling_owner && s.owner_state == OwnerState::kOwned));
    p.legs.req = m_.miss_departure();
    p.legs.data = m_.fill_return() + (snoop ? sibling_snoop(s, c) : 0);
    p.served = snoop ? ServedBy::kOnChip : ServedBy::kSharedCache;
    return true;
  }
  if (write && s.excl_domain == static_cast<std::int32_t>(d) && (tracks || !p.sibling_copy)) {
    p.legs.req = m_.miss_departure();
    p.legs.data = m_.fill_return() + (p.sibling_copy ? sibling_snoop(s, c) : 0);
    p.served = p.sibling_copy ? ServedBy::kOnChip : ServedBy::kSharedCache;
    return true;
  }
  return false;
}

Transaction MemorySystem::remote_transaction(const LineState& s, CoreId c, bool write, Plan& p) {
  const DomainId d = dom(c);
  const bool tracks = tracks_core_copies_;
  const bool in_llc = !llc_.empty() && s.llc.contains(d);
  Transaction t;
  t.requester = d;
  t.home = s.home;
  t.exclusive = write;
  t.needs_data = !(s.holders.contains(c) || in_llc || (tracks && p.sibling_copy));
  // A cache supplies the data when another domain owns the line, or when a sibling core of this
  // domain owns it but the shared cache cannot see that (AMD's victim L3: the probe of the own
  // node finds it).
  if (s.excl_domain >= 0 && (s.excl_domain != static_cast<std::int32_t>(d) || p.sibling_copy)) {
    p.supplier = static_cast<DomainId>(s.excl_domain);
  } else if (keeps_dirty_sharing_ && s.dirty_domain >= 0 && s.dirty_domain != static_cast<std::int32_t>(d)) {
    p.supplier = static_cast<DomainId>(s.dirty_domain);
  } else if (has_forward_state_ && s.owner >= 0 && s.owner_state == OwnerState::kForward &&
             dom(static_cast<CoreId>(s.owner)) != d) {
    p.supplier = dom(static_cast<CoreId>(s.owner));
  }
  t.supplier = p.supplier;
  if (p.supplier && !write && !llc_.empty() && s.llc.contains(*p.supplier) &&
      m_.spec().caches[*m_.shared_level()].inclusion == Inclusion::kInclusive) {
    const bool core_owner_there =
        s.owner >= 0 && dom(static_cast<CoreId>(s.owner)) == *p.supplier && s.owner_state != OwnerState::kForward;
    t.supplier_shared_clean = !core_owner_there;
  }
  const bool lone_exclusive_owner = s.owner >= 0 && static_cast<CoreId>(s.owner) != c &&
                                    (s.owner_state == OwnerState::kExclusive || s.owner_state == OwnerState::kModified);
  // Only an owner-only directory needs to know (protocol_timing.cpp); the others skip the scan.
  if (owner_only_directory_ && write && !lone_exclusive_owner) {
    s.holders.for_each([&](std::uint32_t k) {
      if (k != c) t.shared = true;
    });
    s.llc.for_each([&](std::uint32_t x) {
      if (x != d) t.shared = true;
    });
  }
  // The other domains holding a copy, from the presence sets (no scan of every domain). Only a
  // write invalidates them (ProtocolTiming::legs reads them for an exclusive request only), so a
  // read skips the scan of a widely shared line's holders.
  holder_scratch_.clear();
  t.holders = {};
  if (!write) return t;
  auto note = [&](DomainId h) {
    if (h != d && !domain_mark_[h]) {
      domain_mark_[h] = 1;
      holder_scratch_.push_back(h);
    }
  };
  s.holders.for_each([&](std::uint32_t k) { note(dom(k)); });
  s.llc.for_each([&](std::uint32_t x) { note(x); });
  for (DomainId h : holder_scratch_) domain_mark_[h] = 0;
  t.holders = holder_scratch_;
  return t;
}

Picos MemorySystem::arrival_at_home(const LineState& s, CoreId c, Picos arrival) const {
  if (!s.home_busy || arrival >= s.home_free) return arrival;
  // Each NACK is decided by a directory lookup and travels back; the retry travels to the home again.
  const DomainId d = dom(c);
  const Picos retry = m_.node_to_domain(s.home, d) + m_.domain_to_node(d, s.home) + m_.spec().costs.directory_lookup;
  if (retry <= 0) return s.home_free;
  const Picos waits = (s.home_free - arrival + retry - 1) / retry;
  return arrival + waits * retry;
}

Picos MemorySystem::line_ready_time(const LineState& s, CoreId c, Picos arrival, const Legs& l) const {
  return std::max(std::max(arrival_at_home(s, c, arrival), s.home_free) + l.home + l.fwd, s.grant_free);
}

Picos MemorySystem::home_takes(const LineState& s, CoreId c, const Waiting& w) const {
  if (w.own && s.pending_core == static_cast<std::int32_t>(c))
    return std::max(w.issued, s.busy_until) + (w.arrival - w.issued);
  return std::max(arrival_at_home(s, c, w.arrival), s.home_free);
}

Picos MemorySystem::agent_takes(const LineState& s, CoreId c, const Waiting& w) const {
  const Picos takes = home_takes(s, c, w);
  // A booked slot is the agent's; if the line itself became ready later than that (it cannot while
  // the request is the head, but a request may have lost its place at the head since, to a node
  // round robin's pick), the request is taken when the line is ready, and the agent's time stays
  // booked where it was: an approximation of a rare case, which never leaves a request unserved.
  if (w.agent_slot != Waiting::kNoSlot) return std::max(w.agent_slot, takes);
  return agents_.earliest(s.home, takes);
}

Picos MemorySystem::turn_time(const LineState& s, CoreId c, const Waiting& w, const Plan& p) const {
  if (p.local_read) return line_ready_time(s, c, w.arrival, p.legs);
  return std::max(agent_takes(s, c, w) + p.legs.home + p.legs.fwd, s.grant_free);
}

void MemorySystem::occupy_home(LineState& s, Picos service, Picos done, const Plan& p, bool write) {
  const Legs& l = p.legs;
  switch (m_.spec().home_policy) {
    case machine::HomePolicy::kBlocking:
      // The next transaction is served when this one's completion message has reached the home.
      s.home_free = std::max(s.home_free, done + l.ack());
      return;
    case machine::HomePolicy::kBusyOnForward:
      if (p.supplier) {
        // Forwarded to the owner: the line is busy until the completion reaches the home, and a
        // request that arrives meanwhile is NACKed (arrival_at_home).
        s.home_free = std::max(s.home_free, done + l.ack());
        s.home_busy = true;
      } else {
        // Answered by the home itself: the next request is taken once the home has done its part.
        // A request forwarded to a new owner (after a write) waits at the owner until its data and
        // acknowledgements are in, and is then looked up there (the probe's lookup); a read leaves
        // the line shared, and the next read needs nothing from this reader.
        s.home_free = std::max(s.home_free, service + l.home);
        s.home_busy = false;
        if (write) s.grant_free = std::max(s.grant_free, done + m_.spec().costs.probe_lookup);
      }
      return;
    case machine::HomePolicy::kForwarding:
      // The home passes the next request on as soon as it has handled this one; the new owner keeps
      // the line for the retention time after its data arrived.
      s.home_free = std::max(s.home_free, service + l.home);
      s.grant_free = std::max(s.grant_free, done + m_.spec().home_retention);
      return;
  }
}

Source MemorySystem::source_of(const LineState& s, CoreId c, const Plan& p) const {
  if (p.served == ServedBy::kSharedCache) return Source::kSharedCache;
  if (p.served == ServedBy::kOnChip) return Source::kOnChip;
  if (p.supplier) return Source::kCache;
  const DomainId d = dom(c);
  const bool has_data =
      s.holders.contains(c) || (!llc_.empty() && s.llc.contains(d)) || (tracks_core_copies_ && p.sibling_copy);
  if (has_data) return Source::kPermission;
  return s.home == m_.node_of(c) ? Source::kLocalMemory : Source::kRemoteMemory;
}

AccessResult MemorySystem::apply(Picos effect, Picos after, Picos issued, Picos queued, CoreId c, LineId id,
                                 AccessKind kind, std::uint64_t value, const Plan& p) {
  LineState& s = lines_[id];
  const DomainId d = dom(c);
  const bool write = is_write(kind);
  AccessResult r;
  r.served = p.served;
  r.start = issued + queued;
  Picos latency = after;
  if (p.served == ServedBy::kRemote && m_.spec().topology.model_bandwidth) {
    const bool needs_data =
        !(s.holders.contains(c) || (!llc_.empty() && s.llc.contains(d)) || (tracks_core_copies_ && p.sibling_copy));
    if (needs_data) {
      const auto from = p.supplier ? m_.node_of_domain(*p.supplier) : s.home;
      latency += link_queueing(from, m_.node_of_domain(d), effect + after);
    }
  }
  r.done = effect + latency + (kind == AccessKind::kRmw ? m_.spec().costs.atomic_overhead : 0);
  r.source = source_of(s, c, p);
  const bool on_chip = p.served != ServedBy::kRemote;
  const bool moved = p.supplier.has_value() || (write && (s.holders.size() > (s.holders.contains(c) ? 1u : 0u))) ||
                     (on_chip && p.sibling_copy);
  r.transfer = moved;
  // The requester's data arrives at r.done: its own hits before then wait for it (a prefetch's).
  s.busy_until = r.done;
  s.pending_core = static_cast<std::int32_t>(c);
  LineStats& st = stats_[id];
  ++st.transactions;
  if (moved) ++st.transfers;
  st.stall += r.done - issued;
  st.queued += queued;

  if (write) {
    if (!s.holders.contains(c)) {
      if (check_) copy_value(id, c) = source_value(id, c, p.supplier);
      fill_private(c, id);
      if (!llc_.empty() && m_.spec().caches[*m_.shared_level()].inclusion == Inclusion::kInclusive) fill_llc(d, id);
    }
    if (kind == AccessKind::kPrefetchExclusive) {
      apply_write(id, c, check_ ? copy_value(id, c) : 0);
    } else {
      apply_write(id, c, value);
    }
  } else {
    apply_read(id, c, p.supplier);
  }
  if (check_) {
    r.value = copy_value(id, c);
    check_line(id);
  }
  return r;
}

AccessResult MemorySystem::access(Picos now, CpuId cpu, LineId id, AccessKind kind, std::uint64_t value) {
  AccessResult r;  // every path returns it: built in the caller's storage
  if (floor_) {
    floor_access(now, r);
    return r;
  }
  LineState& s = lines_[id];
  const CoreId c = m_.core_of(cpu);
  if (!s.home_assigned) {
    s.home = static_cast<std::uint16_t>(m_.node_of(c));
    s.home_assigned = true;
  }
  if (private_hit(now, c, id, kind, value, r)) return r;
  const Plan p = plan(c, id, kind);
  if (p.local_read) {
    r = apply(now, p.legs.total(), now, 0, c, id, kind, value, p);
    r.visible = r.done;
    return r;
  }
  r = serve_in_issue_order(now, c, id, kind, value, p);
  return r;
}

AccessResult MemorySystem::serve_in_issue_order(Picos now, CoreId c, LineId id, AccessKind kind, std::uint64_t value,
                                                const Plan& p) {
  LineState& s = lines_[id];
  // Served after what the line already serialised, in the order of issue; the state changes now.
  Picos service = std::max(arrival_at_home(s, c, now + p.legs.req), s.home_free);
  if (s.pending_core == static_cast<std::int32_t>(c)) service = std::max(now, s.busy_until) + p.legs.req;
  service = agents_.earliest(s.home, service);
  agents_.take(s.home, service);
  const Picos effect = std::max(service + p.legs.home + p.legs.fwd, s.grant_free);
  const Picos queued = service - (now + p.legs.req);
  AccessResult r = apply(now, effect + p.legs.data - now, now, queued, c, id, kind, value, p);
  r.visible = effect;
  occupy_home(s, service, r.done, p, is_write(kind));
  return r;
}

std::optional<AccessResult> MemorySystem::request(Picos now, CpuId cpu, LineId id, AccessKind kind,
                                                  std::uint64_t value) {
  std::optional<AccessResult> r(std::in_place);
  if (!request(now, cpu, id, kind, value, *r)) r.reset();
  return r;
}

bool MemorySystem::request_beyond_hit(Picos now, CpuId cpu, LineId id, AccessKind kind, std::uint64_t value,
                                      AccessResult& out) {
  LineState& s = lines_[id];
  const CoreId c = m_.core_of(cpu);
  if (!s.home_assigned) {
    s.home = static_cast<std::uint16_t>(m_.node_of(c));
    s.home_assigned = true;
  }
  std::vector<Waiting>* queue = nullptr;
  std::size_t mine = SIZE_MAX;  // this CPU's place in the line's queue, if it waits there
  if (s.has_waiters) {
    queue = &queues_.at(id);
    mine = queue_index(*queue, cpu, id);
  }
  auto leave_queue = [&]() -> Waiting {
    const Waiting w = (*queue)[mine];
    queue->erase(queue->begin() + static_cast<std::ptrdiff_t>(mine));
    auto& mine_queued = queued_[cpu];
    const auto rec =
        std::find_if(mine_queued.begin(), mine_queued.end(), [&](const Queued& q) { return q.line == id; });
    if (rec == mine_queued.end()) throw std::logic_error("a queued request without its per-CPU record");
    mine_queued.erase(rec);
    --waiting_;
    if (queue->empty()) {
      s.has_waiters = false;
      release_queue(id);
    }
    return w;
  };

  // A demand access of a core whose own hint waits on the line: it waits for the hint (an
  // outstanding miss the access merges into), which takes effect first.
  const AccessKind queued_kind = mine != SIZE_MAX ? (*queue)[mine].kind : kind;
  const bool behind_hint = is_hint(queued_kind) && queued_kind != kind;
  // A request that became a hit while it waited (it cannot, for now, but a sibling's fill could
  // make a read local) is served at once and leaves the queue; a hit beside the core's own queued
  // hint (a load of a line whose upgrade it prefetches) leaves the hint queued.
  if (private_hit(now, c, id, kind, value, out)) {
    if (mine != SIZE_MAX && !behind_hint) leave_queue();
    return true;
  }
  // Behind its own hint, the access is planned as the hint, which is what takes effect at the grant.
  const Plan p = plan(c, id, queued_kind);
  // A read the domain's shared cache answers is served in the cache's own pipeline and occupies
  // nothing, but in order with the requests for the line that reached it first (the cache slice
  // takes one request per line at a time): behind a queue or a transaction in flight, it waits.
  if (p.local_read && mine == SIZE_MAX && !s.has_waiters &&
      line_ready_time(s, c, now + p.legs.req, p.legs) <= now + p.legs.req) {
    out = apply(now, p.legs.total(), now, 0, c, id, kind, value, p);
    out.visible = out.done;
    return true;
  }

  if (mine != SIZE_MAX) {
    // Asked again at the time head() gave: the access takes effect now if it is still the next the
    // home takes and nothing (a state change since) made it later. Behind its own hint, the hint
    // takes effect and the access is then asked anew.
    if (mine != next_in_queue(s, *queue)) return false;
    if (turn_time(s, c, (*queue)[mine], p) > now) return false;
    const Waiting w = leave_queue();
    if (p.local_read) {
      out = apply(now, p.legs.data, w.issued, now - w.arrival, c, id, queued_kind, value, p);
      out.visible = out.done;
    } else {
      const Picos service = agent_takes(s, c, w);
      if (w.agent_slot == Waiting::kNoSlot) agents_.take(s.home, service);
      out = apply(now, p.legs.data, w.issued, service - w.arrival, c, id, queued_kind, value, p);
      out.visible = now;
      occupy_home(s, service, out.done, p, is_write(queued_kind));
    }
    if (!behind_hint) return true;
    const Source hint_source = out.source;
    if (!request(now, cpu, id, kind, value, out)) return false;
    out.after_hint = true;
    out.hint_source = hint_source;
    return true;
  }

  const Picos arrival = now + p.legs.req;
  // Every transaction through the home, contended or not, waits for its grant: the line's state and
  // value change only when the home has taken the request and its forward or invalidation has
  // reached the holders (docs/model.md, "Grants"), and until then the holders' own accesses are
  // hits. Alone on the line, it is granted at the time its legs give; behind only its own core's
  // transaction in flight, once that one's data is in (home_takes).
  const bool own =
      !p.local_read && !s.has_waiters && s.pending_core == static_cast<std::int32_t>(c) && s.grant_free <= now;
  if (!queue) queue = &acquire_queue(id);
  // Ordered by arrival at the home; equal arrivals by issue time, then in an order drawn from the
  // CPUs and the time (no CPU always first: real arbitration has no fixed priority), never in the
  // order the host happened to run the requesters (that depended on how many events had been
  // scheduled, and a thread that runs ahead would change it).
  auto before = [](const Waiting& a, const Waiting& w) {
    if (a.arrival != w.arrival) return a.arrival < w.arrival;
    if (a.issued != w.issued) return a.issued < w.issued;
    const auto rank = [](const Waiting& x) {
      return sim::mix64(static_cast<std::uint64_t>(x.arrival) ^ (std::uint64_t{x.cpu} << 48));
    };
    const std::uint64_t ra = rank(a), rw = rank(w);
    return ra != rw ? ra < rw : a.cpu < w.cpu;
  };
  auto at = std::upper_bound(queue->begin(), queue->end(), Waiting{arrival, now, cpu, kind, false}, before);
  queue->insert(at, Waiting{arrival, now, cpu, kind, own});
  queued_[cpu].push_back({id, arrival});
  s.has_waiters = true;
  ++waiting_;
  return false;
}

bool MemorySystem::owns_exclusively(CpuId cpu, LineId id) const {
  if (floor_) return true;  // the floor's lines are every core's own: a store is performed at once
  const LineState& s = lines_[id];
  const CoreId c = m_.core_of(cpu);
  return s.holders.contains(c) && s.owner == static_cast<std::int32_t>(c) &&
         (s.owner_state == OwnerState::kExclusive || s.owner_state == OwnerState::kModified);
}

bool MemorySystem::hits_privately(Picos at, CpuId cpu, LineId id, bool write) const {
  if (floor_) return true;  // the floor's every access is served at once, by nobody
  const LineState& s = lines_[id];
  if (s.has_waiters) return false;
  // A hit on data still in flight for the core's own transaction waits for it, as long as no other
  // core's transaction took the line's timing over since (private_hit): timing that an access of
  // another core issued earlier changes.
  const CoreId c = m_.core_of(cpu);
  if (s.pending_core == static_cast<std::int32_t>(c) && s.busy_until > at) return false;
  if (!write) return s.holders.contains(c);
  // A shared cache that does not track its cores' copies answers a sibling's read out of its own
  // copy at the read's issue, without asking the owner (plan_in_domain): a store run ahead of that
  // read's turn would be what it reads. Not a private hit for run-ahead, then.
  if (!tracks_core_copies_ && !llc_.empty() && s.llc.contains(dom(c))) return false;
  // A store to an Exclusive line makes it Modified, which another core's request plans for at its
  // issue (a dirty line comes from the owner, a clean one from the home): only a Modified line's.
  return owns_exclusively(cpu, id) && s.owner_state == OwnerState::kModified;
}

bool MemorySystem::served_at_once(Picos now, CpuId cpu, LineId id, AccessKind kind) {
  if (floor_) return true;  // the floor keeps no state: nobody waits, no home is busy, nothing to plan
  LineState& s = lines_[id];
  const CoreId c = m_.core_of(cpu);
  if (!s.home_assigned) return true;
  if (s.holders.contains(c) && (!is_write(kind) || owns_exclusively(cpu, id))) return true;
  if (s.has_waiters) return false;
  const Plan p = plan(c, id, kind);
  const Picos arrival = now + p.legs.req;
  if (p.local_read) return line_ready_time(s, c, arrival, p.legs) <= arrival;
  const bool own_in_flight = s.pending_core == static_cast<std::int32_t>(c) && s.grant_free <= now;
  return own_in_flight || line_ready_time(s, c, arrival, p.legs) == arrival + p.legs.home + p.legs.fwd;
}

bool MemorySystem::hint(Picos now, CpuId cpu, LineId id, AccessKind kind, AccessResult& out) {
  if (!is_hint(kind)) throw std::logic_error("MemorySystem::hint called with a demand access");
  if (!floor_ && lines_[id].has_waiters && queue_index(queues_.at(id), cpu, id) != SIZE_MAX) return false;
  return request(now, cpu, id, kind, 0, out);
}

Picos MemorySystem::link_queueing(machine::NodeId from, machine::NodeId to, Picos at) {
  const auto& links = m_.spec().topology.links;
  const auto& route = m_.topology().route(from, to);
  // The data is taken to arrive at `at` when nothing queues; each link it crosses serialises it
  // for line_size / bandwidth, and a busy link delays it until the earlier data has passed.
  Picos delay = 0;
  for (const auto& step : route) {
    const auto& link = links[step.link];
    Picos& busy = link_busy_[2 * step.link + (step.forward ? 0 : 1)];
    // Positive, so adding 0.5 and truncating rounds to nearest (and keeps results as they were).
    // NOLINTNEXTLINE(bugprone-incorrect-roundings)
    const Picos occupancy = static_cast<Picos>(m_.spec().line_size / link.bandwidth_bytes_per_s * 1e12 + 0.5);
    const Picos pass = at + delay;
    if (busy > pass) delay += busy - pass;
    busy = std::max(busy, pass) + occupancy;
  }
  return delay;
}

}  // namespace walksim::coherence
