// What the two microbenchmark "calls" work on. lock-hold (lock-loop) takes a lock of a chosen
// algorithm and reads and writes the lines it protects; atomic-op (atomic-stress) is one atomic
// operation on one shared line. Neither is a system call: the workload makes the lines and names
// them here by id, and the expansion is the operations themselves, with no syscall entry cost.
#pragma once

#include <cstdint>
#include <string_view>

#include "models/exec/op.hpp"
#include "models/machine/cache.hpp"

namespace walksim::kernel {

// The lock a lock-hold takes: an index into sync::sync_kinds(), or kVariantSpinlock for the kernel
// variant's own spinlock (its locking.spinlock), as lock-hold always did.
using SyncKindIndex = std::uint8_t;
inline constexpr SyncKindIndex kVariantSpinlock = UINT8_MAX;

// One operation of SSYNC's atomic stress test (libslock bmarks/atomic_bench.c, its throughput mode).
enum class AtomicOp : std::uint8_t {
  kFai,     // lock xadd +1
  kCas,     // one lock cmpxchg from 1 - value to value; it may fail
  kSwap,    // xchg of value
  kTas,     // xchg of 1; when it returned 0 (the "lock" was taken), a plain store of 0 after it
  kCasFai,  // read, then cmpxchg(read, read + 1), re-reading after each failure until one succeeds
};

constexpr std::string_view atomic_op_name(AtomicOp op) {
  switch (op) {
    case AtomicOp::kFai:
      return "fai";
    case AtomicOp::kCas:
      return "cas";
    case AtomicOp::kSwap:
      return "swap";
    case AtomicOp::kTas:
      return "tas";
    case AtomicOp::kCasFai:
      return "cas-fai";
  }
  return "?";
}

inline constexpr machine::LineId kNoLine = UINT32_MAX;

struct BenchArgs {
  SyncKindIndex lock = kVariantSpinlock;
  AtomicOp atomic = AtomicOp::kFai;
  std::uint8_t value = 1;          // atomic-op cas and swap: the value written (SSYNC alternates 1 and 0)
  machine::LineId line = kNoLine;  // lock-hold: the lock's line (kNoLine: the kernel's test_lock); atomic-op: the line
  std::uint32_t word = exec::kLineWord;  // lock-hold: the lock's word on its line (several locks may share one)
  machine::LineId data = 0;              // lock-hold: the first of `data_lines` consecutive protected lines
  std::uint32_t data_lines = 0;          // lock-hold: each read (unless data_write_only), then written, in the section
  bool data_write_only = false;          // lock-hold: each only written (libslock's stress_test -w 0)
};

}  // namespace walksim::kernel
