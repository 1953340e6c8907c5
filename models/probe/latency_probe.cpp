// Holder placement, state set-up and timing for the probe table, and the two-thread ping-pong.
#include "models/probe/latency_probe.hpp"

#include <new>
#include <optional>
#include <stdexcept>
#include <string>

#include "models/coherence/memory_system.hpp"
#include "models/exec/executor.hpp"
#include "sim/simulation.hpp"

namespace walksim::probe {
namespace {

using coherence::AccessKind;
using coherence::MemorySystem;
using machine::CpuId;
using machine::Machine;
using sim::Picos;

struct Holder {
  std::string name;
  CpuId cpu;
};

// One representative CPU for each distance from CPU 0 that the machine has.
std::vector<Holder> holders(const Machine& m) {
  std::vector<Holder> out{{"own", 0}};
  const auto& s = m.spec();
  if (s.threads_per_core > 1) out.push_back({"smt-sibling", 1});
  if (s.cores_per_socket > 1) out.push_back({"same-socket", m.first_cpu_of(1)});
  if (m.shared_level() && m.cores_per_domain() < s.cores_per_socket) {
    out.push_back({"other-l3-same-socket", m.first_cpu_of(m.cores_per_domain())});
  }
  if (s.sockets_per_node > 1) out.push_back({"same-node", m.first_cpu_of(s.cores_per_socket)});
  const auto& topo = m.topology();
  const std::uint32_t cores_per_node = s.sockets_per_node * s.cores_per_socket;
  for (std::uint32_t h = 1; h <= topo.max_hops(); ++h) {
    const auto node = topo.node_at_hops(0, h);
    if (node >= 0)
      out.push_back({std::to_string(h) + "-hop", m.first_cpu_of(static_cast<std::uint32_t>(node) * cores_per_node)});
  }
  return out;
}

// A CPU other than the requester and the holder, as close to the holder as possible, to make a
// second sharer for the S state.
CpuId third_party(const Machine& m, CpuId holder) {
  const auto hc = m.core_of(holder);
  for (std::uint32_t k = 0; k < m.cores(); ++k) {
    const CpuId c = m.first_cpu_of(k);
    if (k == 0 || k == hc) continue;
    if (m.node_of(k) == m.node_of(hc)) return c;
  }
  for (std::uint32_t k = 1; k < m.cores(); ++k) {
    if (k != hc) return m.first_cpu_of(k);
  }
  return holder;
}

std::optional<std::uint32_t> remote_home(const Machine& m, CpuId holder) {
  if (m.nodes() < 2) return std::nullopt;
  const auto hn = m.node_of(m.core_of(holder));
  if (hn != 0) return hn;
  return static_cast<std::uint32_t>(m.topology().node_at_hops(0, 1));
}

Picos measure(const Machine& m, const std::string& state, CpuId holder, std::uint32_t home, AccessKind op) {
  MemorySystem mem(m, false);
  const auto line = mem.add_line(home);
  Picos t = 0;
  // 1 us between set-up steps, or longer when a step takes longer (components may be up to 1 s
  // each): the timed access must find every set-up transaction finished, or it would measure
  // the wait for them.
  constexpr Picos kGap = 1'000'000;
  const auto after = [&](const coherence::AccessResult& step) {
    t += kGap;
    if (step.done > t) t = step.done + kGap;
  };
  if (state == "M") {
    after(mem.access(t, holder, line, AccessKind::kStore, 1));
  } else if (state == "E") {
    after(mem.access(t, holder, line, AccessKind::kLoad));
  } else if (state == "S") {
    after(mem.access(t, third_party(m, holder), line, AccessKind::kLoad));
    after(mem.access(t, holder, line, AccessKind::kLoad));
  } else {
    t += kGap;
  }
  const auto r = mem.access(t, 0, line, op, 2);
  return r.done - t;
}

// Two threads hand a flag back and forth: A writes odd values and waits for the next even one.
class PingPong : public exec::Program {
 public:
  PingPong(machine::LineId flag, bool first, int rounds) : flag_(flag), first_(first), rounds_(rounds) {}
  bool next(std::uint64_t, exec::Op& op) override {
    if (round_ >= rounds_) return false;
    const std::uint64_t mine = 2 * static_cast<std::uint64_t>(round_) + (first_ ? 1 : 2);
    if (!waited_ && !first_) {
      op = exec::Op::spin_until(flag_, mine - 1);
      waited_ = true;
    } else if (!stored_) {
      op = exec::Op::store(flag_, mine);
      stored_ = true;
      if (!first_) next_round();
    } else {
      op = exec::Op::spin_until(flag_, mine + 1);
      next_round();
    }
    return true;
  }

 private:
  void next_round() {
    ++round_;
    waited_ = stored_ = false;
  }
  machine::LineId flag_;
  bool first_;
  int rounds_;
  int round_ = 0;
  bool waited_ = false, stored_ = false;
};

Picos pingpong_finish(const Machine& m, CpuId partner, int rounds) {
  sim::Simulation sim(1);
  MemorySystem mem(m, false);
  exec::Executor ex(sim, mem);
  const auto flag = mem.add_line(0);
  PingPong a(flag, true, rounds), b(flag, false, rounds);
  ex.start(0, a);
  ex.start(partner, b);
  ex.run();
  return ex.stats(0).finished;
}

ProbeReport run_probe(const Machine& m) {
  ProbeReport rep;
  rep.machine = m.spec().name;
  const auto hs = holders(m);
  const std::pair<const char*, AccessKind> ops[] = {
      {"load", AccessKind::kLoad}, {"store", AccessKind::kStore}, {"cas", AccessKind::kRmw}};
  const double cycle_ps = 1e12 / m.spec().clock_hz;
  for (const auto& [op_name, kind] : ops) {
    for (const char* state : {"M", "E", "S", "I"}) {
      const bool invalid = std::string(state) == "I";
      for (const auto& h : hs) {
        if (invalid && h.name != "own") continue;
        for (const bool remote : {false, true}) {
          std::uint32_t home = 0;
          if (remote) {
            const auto rh = remote_home(m, h.cpu);
            if (!rh) continue;
            home = *rh;
          }
          ProbeEntry e;
          e.op = op_name;
          e.state = state;
          e.holder = invalid ? "none" : h.name;
          e.home = remote ? "remote" : "local";
          e.home_node = home;
          e.holder_cpu = h.cpu;
          e.latency = measure(m, state, invalid ? 0 : h.cpu, home, kind);
          if (invalid) e.latency = measure(m, "I", 0, home, kind);
          e.cycles = static_cast<double>(e.latency) / cycle_ps;
          rep.entries.push_back(e);
        }
      }
    }
  }
  constexpr int kWarm = 10, kMeasured = 100;
  for (const auto& h : hs) {
    if (h.name == "own") continue;
    const Picos t = pingpong_finish(m, h.cpu, kWarm + kMeasured) - pingpong_finish(m, h.cpu, kWarm);
    rep.pingpong.push_back({h.name, h.cpu, t / kMeasured});
  }
  return rep;
}

}  // namespace

ProbeReport run_latency_probe(const Machine& m) {
  try {
    return run_probe(m);
  } catch (const std::bad_alloc&) {
    // The machine loader's size limits should prevent this; if not, say what was being built.
    throw std::runtime_error("out of memory building the memory system of machine '" + m.spec().name + "' (" +
                             std::to_string(m.cpus()) + " CPUs) for the latency probe");
  }
}

}  // namespace walksim::probe
