// SSYNC's test-and-test-and-set acquire and release as ops; see ttas_lock.hpp.
#include "models/sync/ttas_lock.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace walksim::sync {

namespace {
enum Step : std::uint32_t { kRead = 0, kSeen, kTry, kResult, kBackedOff };
}  // namespace

TtasLock::TtasLock(SyncWord word, std::uint32_t cpus, Picos cycle) : word_(word), cycle_(cycle), limit_(cpus, 1) {
  if (cpus == 0) throw std::invalid_argument("ttas lock needs the number of CPUs");
  rng_.reserve(cpus);
  for (std::uint32_t c = 0; c < cpus; ++c) rng_.emplace_back(0x7a5ULL * (c + 1));
}

bool TtasLock::do_step(SyncAction action, CpuId cpu, SyncCall& call, std::uint64_t last, Op& out) {
  if (cpu >= limit_.size()) throw std::out_of_range("ttas lock has no back-off state for cpu " + std::to_string(cpu));
  if (action == SyncAction::kRelease) {
    if (call.step == 0) {
      out = word_.store(0);
      call.step = 1;
      return true;
    }
    return false;
  }
  if (action != SyncAction::kAcquire) unsupported(action);
  switch (call.step) {
    case kRead:
    case kBackedOff:
      out = word_.load();  // while (*l == 1) {}: the first read
      call.step = kSeen;
      return true;
    case kSeen:
      if (last != 0) {  // held: wait reading until it looks free
        call.scratch = 1;
        out = word_.spin_until(0);
        call.step = kTry;
        return true;
      }
      [[fallthrough]];
    case kTry:
      out = word_.cas(0, 1);
      call.step = kResult;
      return true;
    default: {
      if (last == 0) {
        ++stats_.acquisitions;
        stats_.contended += call.scratch;
        call.result = call.scratch;
        return false;
      }
      ++stats_.retries;
      call.scratch = 1;
      // delay = rand() % limit; limit = min(2 * limit, MAX_DELAY); cdelay(delay)
      std::uint32_t& limit = limit_[cpu];
      const auto delay = static_cast<Picos>(rng_[cpu].below(limit)) * cycle_;
      limit = std::min(2 * limit, kMaxDelayCycles);
      if (delay > 0) {
        out = Op::compute(delay);
        call.step = kBackedOff;
        return true;
      }
      out = word_.load();
      call.step = kSeen;
      return true;
    }
  }
}

}  // namespace walksim::sync
