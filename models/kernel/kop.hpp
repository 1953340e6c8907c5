// A syscall expanded into kernel operations: memory accesses on named fields of VFS objects and
// synchronisation calls on the locks and counters embedded in them. The process program turns
// each into executor operations; `walksim trace` prints them with their objects and fields.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "models/exec/op.hpp"
#include "models/kernel/bench_args.hpp"
#include "sim/time.hpp"

namespace walksim::sync {
class SyncPrimitive;
}

namespace walksim::kernel {

using machine::LineId;
using sim::Picos;

enum class KOpKind : std::uint8_t {
  kLoad,
  kStore,
  kAtomic,     // one locked RMW on a counter (atomic_inc/dec, lock incl/subl): xadd
  kAtomicCas,  // atomic_add_unless / cmpxchg loop: a load then a cmpxchg (1 RMW uncontended)
  kPrefetch,
  kCompute,  // private work of `ps`
  kFence,
  kSpinLock,          // spin_lock on the lock word of (line, word): 1 RMW, spin while held
  kSpinUnlock,        // plain store
  kReadLock,          // rwlock read side: 1 RMW (lock subl), wait while a writer holds it
  kReadUnlock,        // 1 RMW (lock incl)
  kMutexLock,         // sleeping mutex: 1 RMW fast path; contended waiters sleep
  kMutexUnlock,       // 1 RMW, wakes a sleeper
  kSeqBegin,          // seqcount read begin: load (and wait while odd); remembers the value
  kSeqCheck,          // seqcount read retry: load; a changed value aborts rcu-walk (restart in ref-walk)
  kSeqWriteBegin,     // store seq+1 (odd)
  kSeqWriteEnd,       // store seq+1 (even)
  kPercpuAdd,         // non-atomic add on this CPU's line (load + store)
  kLockrefGet,        // lockref_get: cmpxchg of count+lock while unlocked, else under the lock
  kLockrefPut,        // lockref_put_or_lock: likewise; at count 1 it decrements under the lock
  kLockrefPutReturn,  // fast_dput: lockref_put_return's cmpxchg, the lock only if it is held
  kLockedCountAdd,    // a lockref's count changed while its lock is held (load + masked store)
  // The atomic-stress operations (bench_args.hpp AtomicOp); `delta` is the value written.
  kXchg,        // one xchg of `delta`
  kCasOnce,     // one cmpxchg from 1 - delta to delta, which may fail (SSYNC's CAS test)
  kTestAndSet,  // xchg of 1, then a store of 0 when it returned 0 (SSYNC's TAS test)
  kCasLoop,     // a load, then cmpxchg(v, v + delta), re-reading after each failure (SSYNC's CAS-based FAI)
};

// What a line belongs to, for traces and the hot-line report.
struct LineLabel {
  std::string object;       // "cwd dentry", "vfsmount", "dcache_lock", "fs_struct (pid 3)"
  std::uint32_t index = 0;  // line index within the object
  std::string fields;       // "d_count d_flags d_lock ..." (the fields on that line)
  bool shared = false;      // writable by CPUs running different processes
};

struct KOp {
  KOpKind kind = KOpKind::kCompute;
  SyncKindIndex lock = kVariantSpinlock;  // lock KOps: the sync kind (kVariantSpinlock: the variant's spinlock)
  LineId line = 0;
  std::uint32_t word = exec::kLineWord;  // the field's word (several fields share a line)
  std::string_view field;                // for traces; points into the layout's storage
  Picos ps = 0;
  std::int64_t delta = 0;  // for kAtomic / kPercpuAdd: +1 / -1
  // The lock primitive of a lock KOp, looked up on first use and remembered (expansions are
  // reused while the tree is unchanged, so the lookup is not repeated per call).
  mutable sync::SyncPrimitive* prim = nullptr;
};

}  // namespace walksim::kernel
