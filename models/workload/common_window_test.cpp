// The common window counted as the run goes equals the one computed from every completion time
// kept (as walksim did before), and holds back only what the slowest process has not caught up on.
#include "models/workload/common_window.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>
#include <vector>

#include "sim/rng.hpp"

namespace walksim::workload {
namespace {

using sim::Picos;

struct Completion {
  Picos t;
  std::size_t p;
};

// The estimator as it was: lo = latest window start, hi = earliest last op, count in (lo, hi].
CommonWindow::Result brute_force(const std::vector<Completion>& all, const std::vector<Picos>& first, std::size_t n) {
  CommonWindow::Result r;
  Picos lo = 0, hi = sim::kNever;
  std::vector<Picos> last(n, -1);
  for (const auto& c : all) last[c.p] = c.t;
  bool any = false;
  for (std::size_t p = 0; p < n; ++p) {
    if (last[p] < 0) continue;
    any = true;
    lo = std::max(lo, first[p]);
    hi = std::min(hi, last[p]);
  }
  if (!any || hi <= lo) return r;
  r.common = true;
  r.lo = lo;
  r.hi = hi;
  for (const auto& c : all) r.in += c.t > lo && c.t <= hi;
  return r;
}

// Processes with their own speeds and warm-ups, finishing in any order; completions merged in
// time order with ties, as the executor reports them.
void check_random_run(std::uint64_t seed) {
  sim::Rng rng(seed);
  const std::size_t n = 1 + rng.below(12);
  std::vector<Picos> first(n);
  std::vector<std::vector<Picos>> own(n);
  for (std::size_t p = 0; p < n; ++p) {
    first[p] = static_cast<Picos>(rng.below(5000));
    const std::size_t ops = rng.below(4) == 0 ? 0 : 1 + rng.below(3000);
    Picos t = first[p] + static_cast<Picos>(rng.below(50));
    const Picos step = 1 + static_cast<Picos>(rng.below(40));
    for (std::size_t i = 0; i < ops; ++i) {
      own[p].push_back(t);
      t += static_cast<Picos>(rng.below(static_cast<std::uint64_t>(2 * step)));  // ties happen
    }
  }
  std::vector<Completion> all;
  for (std::size_t p = 0; p < n; ++p) {
    for (Picos t : own[p]) all.push_back({t, p});
  }
  std::stable_sort(all.begin(), all.end(), [](const Completion& a, const Completion& b) { return a.t < b.t; });
  CommonWindow w(n);
  std::vector<std::size_t> left(n);
  for (std::size_t p = 0; p < n; ++p) {
    left[p] = own[p].size();
    if (left[p] == 0) w.finished(p);
  }
  for (const auto& c : all) {
    w.op(c.p, c.t, first[c.p]);
    if (--left[c.p] == 0) w.finished(c.p);
  }
  const auto want = brute_force(all, first, n);
  const auto got = w.result();
  EXPECT_EQ(got.common, want.common) << "seed " << seed;
  EXPECT_EQ(got.lo, want.lo) << "seed " << seed;
  EXPECT_EQ(got.hi, want.hi) << "seed " << seed;
  EXPECT_EQ(got.in, want.in) << "seed " << seed;
}

TEST(CommonWindow, CountsExactlyWhatKeepingEveryCompletionTimeCounted) {
  for (std::uint64_t seed = 1; seed <= 300; ++seed) check_random_run(seed);
}

TEST(CommonWindow, HoldsBackOnlyAFewCompletionsWhenProcessesKeepPace) {
  // 64 processes, 100,000 operations each, interleaved: memory must not grow with the run.
  const std::size_t n = 64;
  CommonWindow w(n);
  std::size_t most = 0;
  for (Picos t = 1; t <= 100000; ++t) {
    for (std::size_t p = 0; p < n; ++p) {
      w.op(p, t * 100 + static_cast<Picos>(p), 0);
      most = std::max(most, w.buffered());
    }
  }
  for (std::size_t p = 0; p < n; ++p) w.finished(p);
  EXPECT_LE(most, 2048u);
  EXPECT_EQ(w.result().in, 100000u * n - (n - 1));  // the window ends at process 0's last op
}

TEST(CommonWindow, AReportOutOfTimeOrderIsAnInternalError) {
  CommonWindow w(2);
  w.op(0, 100, 0);
  EXPECT_THROW(w.op(1, 99, 0), std::logic_error);
}

}  // namespace
}  // namespace walksim::workload
