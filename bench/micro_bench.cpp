// Google Benchmark microbenchmarks of the simulator's hot paths: the event queue, a cache lookup,
// a private-cache hit through the memory system, and a contended coherence transaction.
// Benchmarks, not tests: ctest does not run them (speed is never asserted on these machines).
#include <benchmark/benchmark.h>

#include "models/coherence/memory_system.hpp"
#include "models/exec/executor.hpp"
#include "models/machine/cache.hpp"
#include "models/machine/machine_loader.hpp"
#include "sim/event_queue.hpp"
#include "sim/rng.hpp"

namespace {

using namespace walksim;

machine::Machine load(const char* name) {
  return machine::Machine(machine::load_machine(name, {std::string(WALKSIM_SOURCE_DIR) + "/configs/machines"}));
}

void BM_EventQueuePushPop(benchmark::State& state) {
  sim::EventQueue q;
  sim::Rng rng(1);
  const auto depth = static_cast<std::size_t>(state.range(0));
  for (std::size_t i = 0; i < depth; ++i) q.push(static_cast<sim::Picos>(rng.below(1000000)), nullptr, i);
  sim::Picos t = 0;
  for (auto _ : state) {
    const auto e = q.pop();
    t = e.time;
    q.push(t + static_cast<sim::Picos>(rng.below(1000000)), nullptr, e.tag);
  }
  benchmark::DoNotOptimize(t);
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_EventQueuePushPop)->Arg(8)->Arg(64)->Arg(1024);

void BM_CacheLookupHit(benchmark::State& state) {
  machine::SetAssocCache c(32 * 1024 / 64, 8);
  for (machine::LineId l = 0; l < 256; ++l) c.insert(l);
  machine::LineId l = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(c.touch(l));
    l = (l + 1) & 255;
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_CacheLookupHit);

void BM_PrivateHitThroughMemorySystem(benchmark::State& state) {
  const auto m = load("nehalem-ep-2s8c");
  coherence::MemorySystem mem(m, false);
  std::vector<machine::LineId> lines;
  for (int i = 0; i < 64; ++i) lines.push_back(mem.add_line(0));
  sim::Picos now = 0;
  for (auto l : lines) now = mem.access(now, 0, l, coherence::AccessKind::kLoad).done;
  std::size_t i = 0;
  for (auto _ : state) {
    now = mem.access(now, 0, lines[i++ & 63], coherence::AccessKind::kLoad).done;
  }
  benchmark::DoNotOptimize(now);
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_PrivateHitThroughMemorySystem);

// An atomic that always has to take the line from another node: the full transaction path.
void BM_CoherenceTransactionPingPong(benchmark::State& state) {
  const auto m = load("altix-32n64c");
  coherence::MemorySystem mem(m, false);
  const auto l = mem.add_line(0);
  sim::Picos now = 0;
  machine::CpuId cpu = 0;
  for (auto _ : state) {
    now = mem.access(now, cpu, l, coherence::AccessKind::kRmw, 1).done;
    cpu = cpu == 0 ? 63 : 0;
  }
  benchmark::DoNotOptimize(now);
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_CoherenceTransactionPingPong);

// The executor's cost per operation when N threads interleave: each thread loads its own line
// (a private hit after the first) with a cycle of compute between, so the figure is the event
// queue and thread-switching overhead rather than coherence. Items are simulated memory ops.
class PrivateLoads final : public exec::Program {
 public:
  PrivateLoads(machine::LineId line, std::uint64_t n) : line_(line), left_(n) {}
  bool next(std::uint64_t, exec::Op& out) override {
    if (left_ == 0) return false;
    if (compute_) {
      out = exec::Op::compute(400);
    } else {
      out = exec::Op::load(line_);
      --left_;
    }
    compute_ = !compute_;
    return true;
  }

 private:
  machine::LineId line_;
  std::uint64_t left_;
  bool compute_ = false;
};

void BM_ExecutorInterleavedThreads(benchmark::State& state) {
  const auto m = load("altix-32n64c");
  const auto threads = static_cast<std::uint32_t>(state.range(0));
  const std::uint64_t per_thread = 200000 / threads;
  std::uint64_t ops = 0;
  for (auto _ : state) {
    state.PauseTiming();
    coherence::MemorySystem mem(m, false);
    sim::Simulation sim(1);
    exec::Executor ex(sim, mem);
    std::vector<std::unique_ptr<PrivateLoads>> programs;
    for (std::uint32_t t = 0; t < threads; ++t) {
      programs.push_back(std::make_unique<PrivateLoads>(mem.add_line(), per_thread));
      ex.start(t, *programs.back());
    }
    state.ResumeTiming();
    ex.run();
    ops += per_thread * threads;
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(ops));
}
BENCHMARK(BM_ExecutorInterleavedThreads)->Arg(1)->Arg(8)->Arg(64)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
