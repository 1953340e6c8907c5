// Issue 18: a system call the model has seen before is expanded and run without allocating host
// memory. Every operator new of this test binary is counted (a replacement of the global
// allocation functions, which is why this is a binary of its own), and two runs of a workload
// that differ only in their length are compared: what the longer run allocates beyond the shorter
// one is what its extra calls allocated. Set-up (machine state, trees, the first expansion of each
// call, lock records) is the same in both and cancels out.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <new>

#include "models/workload/test_support.hpp"
#include "models/workload/workload_registry.hpp"

namespace {
// Test-only global state: the allocation functions cannot be given a context.
std::atomic<std::uint64_t> g_allocations{0};

void* counted(std::size_t n) {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(n == 0 ? 1 : n)) return p;
  throw std::bad_alloc();
}
void* counted_aligned(std::size_t n, std::align_val_t a) {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  const auto align = static_cast<std::size_t>(a);
  if (void* p = std::aligned_alloc(align, (n + align - 1) / align * align)) return p;
  throw std::bad_alloc();
}
}  // namespace

void* operator new(std::size_t n) { return counted(n); }
void* operator new[](std::size_t n) { return counted(n); }
void* operator new(std::size_t n, std::align_val_t a) { return counted_aligned(n, a); }
void* operator new[](std::size_t n, std::align_val_t a) { return counted_aligned(n, a); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }

namespace walksim::workload {
namespace {

struct Counted {
  std::uint64_t allocations = 0;
  std::uint64_t calls = 0;
};

Counted run_counted(const WorkloadKind& kind, const std::string& params, const std::string& kernel,
                    const std::string& machine, std::uint32_t threads, std::uint64_t ops) {
  auto w = testing::make(kind, params);
  testing::RunArgs a;
  a.machine = machine;
  a.kernel = kernel;
  a.threads = threads;
  a.control.ops_per_process = ops;
  const std::uint64_t before = g_allocations.load();
  const RunResult r = testing::run(a, *w);
  return {g_allocations.load() - before, r.calls};
}

struct Case {
  const WorkloadKind& kind;
  const char* params;
  const char* kernel;
  std::uint32_t threads;
  std::uint64_t ops;
  // Allocations allowed per extra call: 0 for calls that make no kernel object.
  double per_call;
  // And in all, whatever the run's length: the vectors that grow with the run (a run's samples
  // and records double now and then: 25 for 1,600 more calls of stat-loop), not a per-call cost.
  std::uint64_t slack;
};

void expect_allocation_free(const Case& c) {
  const std::string machine = "barcelona-2s8c";
  const Counted shorter = run_counted(c.kind, c.params, c.kernel, machine, c.threads, c.ops);
  const Counted longer = run_counted(c.kind, c.params, c.kernel, machine, c.threads, 3 * c.ops);
  ASSERT_GT(longer.calls, shorter.calls);
  const std::uint64_t extra_calls = longer.calls - shorter.calls;
  const double per_call = (static_cast<double>(longer.allocations) - static_cast<double>(shorter.allocations)) /
                          static_cast<double>(extra_calls);
  std::printf("%.*s %s x%u: %llu calls, %llu allocations; %llu calls, %llu allocations: %.4f per extra call\n",
              static_cast<int>(c.kind.name.size()), c.kind.name.data(), c.kernel, c.threads,
              static_cast<unsigned long long>(shorter.calls), static_cast<unsigned long long>(shorter.allocations),
              static_cast<unsigned long long>(longer.calls), static_cast<unsigned long long>(longer.allocations),
              per_call);
  EXPECT_LE(static_cast<double>(longer.allocations), static_cast<double>(shorter.allocations) +
                                                         c.per_call * static_cast<double>(extra_calls) +
                                                         static_cast<double>(c.slack))
      << c.kind.name << " on " << c.kernel << " with " << c.threads << " processes";
}

TEST(AllocationFree, TheCountingSeesAnAllocation) {
  const std::uint64_t before = g_allocations.load();
  auto* p = new int(1);
  EXPECT_EQ(g_allocations.load(), before + 1);
  delete p;
}

TEST(AllocationFree, AStatLoopAllocatesNothingPerCall) {
  for (const char* kernel : {"linux-2.6.35", "linux-2.6.38", "vfs-scale-2010"}) {
    expect_allocation_free({kStatLoopKind, "{path_components: 4}", kernel, 4, 200, 0.0, 64});
  }
}

TEST(AllocationFree, OpenReadWriteCloseAllocateNothingPerCall) {
  for (const char* kernel : {"linux-2.6.35", "linux-2.6.38"}) {
    expect_allocation_free({kOpenCloseKind, "", kernel, 4, 200, 0.0, 64});
  }
}

// dbench creates and removes files: a new dentry and inode are model objects (names, lock records),
// so its calls are not free of allocations; what the expansion and the calls' own strings cost is.
TEST(AllocationFree, DbenchAllocatesOnlyForTheObjectsItCreates) {
  for (const char* kernel : {"linux-2.6.35", "vfs-scale-2010"}) {
    expect_allocation_free({kDbenchKind, "{statfs: false}", kernel, 4, 300, 1.0, 0});
  }
}

}  // namespace
}  // namespace walksim::workload
