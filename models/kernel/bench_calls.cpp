// lock-hold and atomic-op as kernel operations; see bench_calls.hpp.
#include "models/kernel/bench_calls.hpp"

#include <stdexcept>

namespace walksim::kernel {

void expand_lock_hold(Emitter& e, const Syscall& s) {
  const BenchArgs& b = s.bench;
  const auto lock = [&](KOpKind k) {
    if (b.line == kNoLine) {
      k == KOpKind::kSpinLock ? e.lock(e.vfs().globals(), "test_lock") : e.unlock(e.vfs().globals(), "test_lock");
      e.ops().back().lock = b.lock;
    } else {
      e.on_line(k, b.line, "lock", 0, b.lock);
      e.ops().back().word = b.word;
    }
  };
  lock(KOpKind::kSpinLock);
  e.compute_ps(static_cast<Picos>(s.bytes) * 1000);
  // SSYNC's stress test: the critical section reads and writes its lock's protected data (libslock's
  // `-w 1`, `data += id`), or only writes it (`-w 0`, `data = id`).
  for (std::uint32_t i = 0; i < b.data_lines; ++i) {
    if (!b.data_write_only) e.on_line(KOpKind::kLoad, b.data + i, "data");
    e.on_line(KOpKind::kStore, b.data + i, "data");
  }
  lock(KOpKind::kSpinUnlock);
}

void expand_atomic_op(Emitter& e, const Syscall& s) {
  const BenchArgs& b = s.bench;
  if (b.line == kNoLine) throw std::logic_error("atomic-op without a line");
  switch (b.atomic) {
    case AtomicOp::kFai:
      return e.on_line(KOpKind::kAtomic, b.line, "counter", 1);
    case AtomicOp::kCas:
      return e.on_line(KOpKind::kCasOnce, b.line, "counter", b.value);
    case AtomicOp::kSwap:
      return e.on_line(KOpKind::kXchg, b.line, "counter", b.value);
    case AtomicOp::kTas:
      return e.on_line(KOpKind::kTestAndSet, b.line, "counter");
    case AtomicOp::kCasFai:
      return e.on_line(KOpKind::kCasLoop, b.line, "counter", 1);
  }
}

}  // namespace walksim::kernel
