// The expansions of the two microbenchmark calls (lock-hold, atomic-op): the operations
// themselves, without a system call's entry cost or any VFS object but the kernel's test_lock.
#pragma once

#include "models/kernel/emitter.hpp"
#include "models/kernel/syscall.hpp"

namespace walksim::kernel {

// lock-hold: acquire, `bytes` ns of work, a load and a store of each protected line, release.
void expand_lock_hold(Emitter& e, const Syscall& s);
// atomic-op: the one operation bench.atomic names on bench.line.
void expand_atomic_op(Emitter& e, const Syscall& s);

}  // namespace walksim::kernel
