// The three protocol families of the modelled machines. Each latency is a max over messages that
// travel in parallel, each message a sum of one-way path latencies from the topology graph and
// the machine's lookup costs, so every composite can be traced back to cited components.
#include "models/coherence/protocol_timing.hpp"

#include <algorithm>

namespace walksim::coherence {
namespace {

using machine::Inclusion;
using machine::Machine;
using machine::ProbeOrigin;

// A sibling core's copy snooped on chip: the inclusive L3's own clean or dirty snoop cost where the
// family has them, else the probe (or directory) lookup.
Picos family_onchip_snoop(const Machine& m, const machine::ProtocolFamily& family, bool dirty) {
  const auto& costs = m.spec().costs;
  if (family.onchip_snoop_costs) {
    return dirty ? costs.onchip_snoop_dirty : costs.onchip_snoop_clean;
  }
  return costs.probe_lookup;
}

bool shared_level_tracks_cores(const Machine& m) {
  const auto lvl = m.shared_level();
  return lvl && m.spec().caches[*lvl].inclusion == Inclusion::kInclusive;
}

// Broadcast snooping. Probes go to every cache domain; the requester waits for all responses and,
// when no cache supplies the line, for the DRAM read at the home node. With probe origin "home"
// (AMD) the probes leave from the home agent after the request arrives; with "requester" (Intel
// source snoop) they leave from the requester in parallel with the request to home.
class BroadcastTiming final : public ProtocolTiming {
 public:
  explicit BroadcastTiming(const Machine& m) : m_(m) {}

  Legs legs(const Transaction& t) const override {
    const auto& c = m_.spec().costs;
    const Picos detect = m_.miss_detect();
    Picos worst = 0;
    Legs l;
    if (m_.spec().probe_origin == ProbeOrigin::kHome) {
      const Picos at_home = m_.domain_to_node(t.requester, t.home);
      if (t.needs_data && !t.supplier) worst = m_.spec().dram_access + m_.node_to_domain(t.home, t.requester);
      for (DomainId d = 0; d < m_.domains(); ++d) {
        worst = std::max(worst, m_.node_to_domain(t.home, d) + c.probe_lookup + m_.domain_to_domain(d, t.requester));
      }
      l.req = m_.miss_departure() + at_home;
      // The supplier gives up the line when the home's probe reaches its cache; the lookup and the
      // answer (probe_lookup) come after, in the data leg.
      if (t.supplier) l.fwd = m_.node_to_domain(t.home, *t.supplier);
      l.data = m_.fill_return() + worst - l.fwd;
      return l;
    }
    // Source snoop: the home is always told (it orders the request), memory answers only when no
    // cache will.
    const Picos to_home = m_.domain_to_node(t.requester, t.home);
    worst = to_home + m_.node_to_domain(t.home, t.requester);
    if (t.needs_data && !t.supplier) worst += m_.spec().dram_access;
    for (DomainId d = 0; d < m_.domains(); ++d) {
      if (d == t.requester) continue;
      worst =
          std::max(worst, m_.domain_to_domain(t.requester, d) + c.probe_lookup + m_.domain_to_domain(d, t.requester));
    }
    l.req = m_.miss_departure() + to_home;
    // The requester's own snoop reaches the supplier in parallel with the request to home; the
    // part of its trip left after the home has the request is the forward leg (the supplier's
    // lookup and answer are in the data leg).
    if (t.supplier) {
      const Picos snooped = m_.domain_to_domain(t.requester, *t.supplier);
      l.fwd = snooped > to_home ? snooped - to_home : 0;
    }
    l.data = detect + worst - l.req - l.fwd;
    return l;
  }

  bool tracks_core_copies() const override { return shared_level_tracks_cores(m_); }
  bool keeps_dirty_sharing() const override { return family_.owned_state; }
  bool has_forward_state() const override { return family_.forward_state; }
  Picos onchip_snoop(bool dirty) const override { return family_onchip_snoop(m_, family_, dirty); }

 private:
  const Machine& m_;
  const machine::ProtocolFamily& family_ = machine::protocol_family(m_.spec().protocol);
};

// Home directory: the request goes to the home; a line owned elsewhere is forwarded to its owner,
// which sends the data straight to the requester (3 hops); a write to a shared line sends
// invalidations from the home to every sharer, whose acknowledgements go to the requester.
class DirectoryTiming final : public ProtocolTiming {
 public:
  explicit DirectoryTiming(const Machine& m) : m_(m) {}

  Legs legs(const Transaction& t) const override {
    const auto& c = m_.spec().costs;
    Legs l;
    l.req = m_.miss_departure() + m_.domain_to_node(t.requester, t.home);
    const Picos fill = m_.fill_return();
    // The latest acknowledgement of an invalidation sent from the home to domain s.
    Picos worst = 0;
    auto invalidate = [&](DomainId s) {
      worst = std::max(worst, l.req + c.directory_lookup + m_.node_to_domain(t.home, s) + c.probe_lookup +
                                  m_.domain_to_domain(s, t.requester));
    };
    // An owner-only probe filter (HT Assist) knows that a line is shared but not where: a write to a
    // Shared or Owned line is sent to every domain, the requester's own included, and waits for all
    // of their answers, wherever the copies are (SSYNC Table 2: 246-296 cycles at every distance).
    const bool broadcast = t.exclusive && t.shared && !m_.spec().directory_tracks_sharers;
    if (broadcast) {
      for (DomainId s = 0; s < m_.domains(); ++s) invalidate(s);
    } else if (t.exclusive) {
      for (DomainId s : t.holders) invalidate(s);
    }
    if (t.supplier) {
      l.home = c.directory_lookup;
      const bool llc_answers = t.supplier_shared_clean && m_.spec().remote_shared_reads_from_llc;
      // The owner gives up the line when the forwarded request reaches its cache; its lookup and
      // answer (probe_lookup, unless the shared cache answers) come after, in the data leg.
      l.fwd = m_.node_to_domain(t.home, *t.supplier);
      const Picos answer = (llc_answers ? 0 : c.probe_lookup) + m_.domain_to_domain(*t.supplier, t.requester);
      l.data = fill + std::max(answer, worst - (l.req + l.home + l.fwd));
      return l;
    }
    l.home = t.needs_data ? std::max(c.directory_lookup, m_.spec().dram_access) : c.directory_lookup;
    worst = std::max(worst, l.req + l.home + m_.node_to_domain(t.home, t.requester));
    l.data = fill + worst - l.req - l.home;
    return l;
  }

  // A directory machine's shared cache (Zen's L3 with shadow tags of its cores' L2s) finds the
  // copies of its own cores; without a shared level the domain is the core itself.
  bool tracks_core_copies() const override { return shared_level_tracks_cores(m_) || has_shadow_tags(); }
  // HT Assist's probe filter, the one directory that records owners only, is MOESI's: a line read
  // while Modified stays Owned by its writer, which answers later reads (Conway et al., IEEE Micro
  // 2010: probe-filter states EM, O, S, S1). The sharer-tracking directories write dirty data back.
  bool keeps_dirty_sharing() const override { return family_.owned_state || !m_.spec().directory_tracks_sharers; }
  bool has_forward_state() const override { return family_.forward_state; }
  Picos onchip_snoop(bool dirty) const override { return family_onchip_snoop(m_, family_, dirty); }

 private:
  bool has_shadow_tags() const {
    const auto lvl = m_.shared_level();
    return lvl && m_.spec().caches[*lvl].inclusion == Inclusion::kVictim && m_.spec().victim_shadow_tags;
  }
  const Machine& m_;
  const machine::ProtocolFamily& family_ = machine::protocol_family(m_.spec().protocol);
};

}  // namespace

std::unique_ptr<ProtocolTiming> make_protocol_timing(const Machine& m) {
  switch (machine::protocol_family(m.spec().protocol).messaging) {
    case machine::Messaging::kBroadcast:
      return std::make_unique<BroadcastTiming>(m);
    case machine::Messaging::kDirectory:
      return std::make_unique<DirectoryTiming>(m);
  }
  return nullptr;
}

}  // namespace walksim::coherence
