// Runs a microbenchmark workload the way simulate() does, but keeps the machine state, so a test
// can read the final value of a line the workload made (a counter every operation incremented).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "models/exec/executor.hpp"
#include "models/kernel/process_program.hpp"
#include "models/workload/test_support.hpp"
#include "sim/simulation.hpp"

namespace walksim::workload::testing {

struct BenchRun {
  BenchRun(const std::string& machine, Workload& w, std::uint32_t threads, std::uint64_t ops_per_process,
           Placement placement = Placement::kCoresFirst)
      : b(machine, "linux-2.6.35"), rt(init(w, threads, ops_per_process, placement), {}), ex(sim, b.mem) {
    for (std::size_t i = 0; i < w.process_count(); ++i) {
      programs.push_back(std::make_unique<kernel::ProcessProgram>(rt, w.process(i), w.source(i)));
      ex.start(w.process(i).cpu, *programs.back());
    }
    ex.run();
  }

  // The line whose label's object is `object` (the first one), or kernel::kNoLine.
  machine::LineId line(const std::string& object) const {
    for (machine::LineId l = 0; l < b.mem.line_count(); ++l) {
      if (b.vfs.label(l).object == object) return l;
    }
    return kernel::kNoLine;
  }

  Built b;
  std::vector<CpuId> cpus;
  sim::Simulation sim{1};
  kernel::KernelRuntime rt;
  exec::Executor ex;
  std::vector<std::unique_ptr<kernel::ProcessProgram>> programs;

 private:
  kernel::Vfs& init(Workload& w, std::uint32_t threads, std::uint64_t ops_per_process, Placement placement) {
    b.control.ops_per_process = ops_per_process;
    cpus = place(b.m, threads, placement);
    w.build(b.vfs, cpus, b.control, b.rng);
    return b.vfs;
  }
};

}  // namespace walksim::workload::testing
