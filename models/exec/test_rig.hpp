// Shared by the executor's tests: a program written as a lambda, and an executor on a machine with
// its memory system and simulation.
#pragma once

#include <functional>

#include "models/coherence/memory_system.hpp"
#include "models/exec/executor.hpp"
#include "sim/simulation.hpp"

namespace walksim::exec::testing {

// A program given as a list of steps; each step may look at the previous result.
class Script : public Program {
 public:
  using Step = std::function<bool(std::uint64_t, Op&)>;
  explicit Script(Step s) : step_(std::move(s)) {}
  bool next(std::uint64_t last, Op& out) override { return step_(last, out); }

 private:
  Step step_;
};

// `check`: the memory system checks the coherence invariants after every access.
struct Rig {
  explicit Rig(machine::MachineSpec spec, bool check = true)
      : m(std::move(spec)), sim(1), mem(m, check), ex(sim, mem) {}
  machine::Machine m;
  sim::Simulation sim;
  coherence::MemorySystem mem;
  Executor ex;
};

}  // namespace walksim::exec::testing
