// The shared part of every primitive: op accounting, nested calls, and naming actions in errors.
#include "models/sync/sync_primitive.hpp"

#include <array>
#include <stdexcept>
#include <string>

namespace walksim::sync {

std::string_view action_name(SyncAction a) {
  static constexpr std::array<std::string_view, kSyncActionCount> kNames = {"acquire",
                                                                            "release",
                                                                            "read_acquire",
                                                                            "read_release",
                                                                            "inc",
                                                                            "dec",
                                                                            "dec_and_test",
                                                                            "add_unless",
                                                                            "dec_and_lock",
                                                                            "read",
                                                                            "seq_read_begin",
                                                                            "seq_read_retry",
                                                                            "write_begin",
                                                                            "write_end",
                                                                            "percpu_add",
                                                                            "local_lock",
                                                                            "local_unlock",
                                                                            "local_lock_cpu",
                                                                            "local_unlock_cpu",
                                                                            "global_lock",
                                                                            "global_unlock",
                                                                            "lockref_get",
                                                                            "lockref_put",
                                                                            "lockref_put_return",
                                                                            "call_rcu"};
  const auto i = static_cast<std::size_t>(a);
  return i < kNames.size() ? kNames[i] : std::string_view("?");
}

bool SyncPrimitive::step(SyncAction action, CpuId cpu, SyncCall& call, std::uint64_t last_result, Op& out) {
  // Every action makes progress on each step that returns true, so all-zero progress means a
  // fresh call: clear the previous action's result.
  if (call.step == 0 && call.inner_step == 0 && call.scratch == 0) call.result = 0;
  if (!do_step(action, cpu, call, last_result, out)) {
    call.step = 0;
    call.inner_step = 0;
    call.scratch = 0;
    call.inner_scratch = 0;
    return false;
  }
  switch (out.kind) {
    case exec::OpKind::kRmwAdd:
    case exec::OpKind::kRmwXchg:
    case exec::OpKind::kCas:
      ++stats_.rmws;
      break;
    case exec::OpKind::kLoad:
    case exec::OpKind::kSpinUntil:
    case exec::OpKind::kSleepUntil:
      ++stats_.loads;
      break;
    case exec::OpKind::kStore:
      ++stats_.stores;
      break;
    default:
      break;
  }
  return true;
}

bool SyncPrimitive::step_nested(SyncPrimitive& inner, SyncAction action, CpuId cpu, SyncCall& call,
                                std::uint64_t last_result, Op& out, std::uint64_t* result) {
  SyncCall sub;
  sub.arg = call.arg;
  sub.step = call.inner_step;
  sub.scratch = call.inner_scratch;
  const bool more = inner.step(action, cpu, sub, last_result, out);
  call.inner_step = sub.step;
  call.inner_scratch = sub.scratch;
  if (!more && result) *result = sub.result;
  return more;
}

void SyncPrimitive::unsupported(SyncAction action) const {
  throw std::logic_error(std::string(kind()) + " does not support " + std::string(action_name(action)));
}

}  // namespace walksim::sync
