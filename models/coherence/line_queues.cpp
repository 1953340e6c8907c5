// The lines' queues of waiting requests: a request's place in its line's queue, which one the
// home takes next, the request at the head and when it may take effect, and the queues' storage.
// MemorySystem::request (memory_system.cpp) puts requests in and takes them out.
#include <algorithm>
#include <stdexcept>

#include "models/coherence/memory_system.hpp"

namespace walksim::coherence {

std::size_t MemorySystem::queue_index(const std::vector<Waiting>& queue, CpuId cpu, LineId id) const {
  // At most one of a CPU's requests waits on a line: asking again for a line it waits on is
  // taken as that request asked again (request()).
  const auto& mine = queued_[cpu];
  const auto rec = std::find_if(mine.begin(), mine.end(), [&](const Queued& q) { return q.line == id; });
  if (rec == mine.end()) return SIZE_MAX;
  // Among the requests with its arrival (the queue is in order of arrival).
  auto i = std::lower_bound(queue.begin(), queue.end(), rec->arrival,
                            [](const Waiting& w, Picos t) { return w.arrival < t; });
  while (i != queue.end() && i->cpu != cpu) ++i;
  if (i == queue.end()) throw std::logic_error("a CPU's queued request is not in its line's queue");
  return static_cast<std::size_t>(i - queue.begin());
}

std::size_t MemorySystem::next_in_queue(const LineState& s, const std::vector<Waiting>& queue) const {
  if (m_.spec().service_order == machine::ServiceOrder::kArrival || s.pending_core < 0) return 0;
  // Node round robin: among the requests that have reached the home by the time it is free (the
  // queue is in order of arrival), the first from the node nearest after the last served one's
  // (the line's latest requester) in cyclic node order; that node's own only if no other's.
  const std::uint32_t nodes = m_.nodes();
  const std::uint32_t last = m_.node_of(static_cast<CoreId>(s.pending_core));
  std::size_t best = 0;
  std::uint32_t best_step = nodes + 1;
  for (std::size_t i = 0; i < queue.size() && (i == 0 || queue[i].arrival <= s.home_free); ++i) {
    const std::uint32_t node = m_.node_of(m_.core_of(queue[i].cpu));
    const std::uint32_t step = node == last ? nodes : (node + nodes - last) % nodes;
    if (step < best_step) {
      best_step = step;
      best = i;
    }
  }
  return best;
}

std::vector<MemorySystem::Waiting>& MemorySystem::acquire_queue(LineId id) {
  if (spare_queues_.empty()) return queues_[id];
  // A queue's map node, emptied, is reused with the new line's key: no allocation per queued
  // request, and the map holds only the lines that have waiters now.
  auto node = std::move(spare_queues_.back());
  spare_queues_.pop_back();
  node.key() = id;
  return queues_.insert(std::move(node)).position->second;
}

void MemorySystem::release_queue(LineId id) {
  auto node = queues_.extract(id);
  node.mapped().clear();  // keeps its storage for the next line's queue
  spare_queues_.push_back(std::move(node));
}

std::optional<Grant> MemorySystem::head(LineId id) {
  if (!lines_[id].has_waiters) return std::nullopt;
  std::vector<Waiting>& queue = queues_.at(id);
  Waiting& w = queue[next_in_queue(lines_[id], queue)];
  const CoreId c = m_.core_of(w.cpu);
  // A request that became a hit while it waited is told to come now; a read the domain's shared
  // cache answers, once what is in flight on the line is done; otherwise its legs in the line's
  // current state say when it may take effect.
  const LineState& s = lines_[id];
  const bool write = is_write(w.kind);
  const bool exclusive = s.owner == static_cast<std::int32_t>(c) &&
                         (s.owner_state == OwnerState::kExclusive || s.owner_state == OwnerState::kModified);
  if (s.holders.contains(c) && (!write || exclusive)) return Grant{w.cpu, w.issued, w.kind};
  const Plan p = plan(c, id, w.kind);
  if (agents_.modelled() && !p.local_read && w.agent_slot == Waiting::kNoSlot) {
    // Booked now, while it is the head, at the agent's first free time from when the home could
    // take it (docs/model.md, "Grants": a busy agent serves in turn, no request is passed for ever).
    w.agent_slot = agent_takes(s, c, w);  // no booking yet: the agent's first free time
    agents_.take(s.home, w.agent_slot);
  }
  return Grant{w.cpu, turn_time(s, c, w, p), w.kind};
}

}  // namespace walksim::coherence
