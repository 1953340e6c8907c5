// The Markov model of ticket-lock collapse: the one-core closed form, the birth-death product
// form, no collapse without a hand-off cost, collapse with one, and its input checks.
#include "models/sync/ticket_markov.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

namespace walksim::sync {
namespace {

using sim::from_ns;

TEST(TicketMarkov, OneCoreMatchesTheClosedForm) {
  // n = 1: P(1)/P(0) = (1/a) / (1/(s + c/2)), so throughput = 1 / (a + s + c/2).
  const double a = 2000, s = 300, c = 80;
  const auto r = solve_ticket_model({1, from_ns(a), from_ns(s), from_ns(c)});
  EXPECT_NEAR(r.throughput, 1e9 / (a + s + c / 2), 1e-6 * r.throughput);
  ASSERT_EQ(r.distribution.size(), 2u);
  EXPECT_NEAR(r.distribution[0], a / (a + s + c / 2), 1e-12);
  EXPECT_NEAR(r.mean_queue, (s + c / 2) / (a + s + c / 2), 1e-12);
  EXPECT_DOUBLE_EQ(r.mean_waiting, 0.0);
  EXPECT_NEAR(r.speedup, 1.0, 1e-12);
}

TEST(TicketMarkov, AnyCoreCountMatchesTheBirthDeathProductForm) {
  const std::uint32_t n = 7;
  const double a = 1500, s = 200, c = 60;
  const auto r = solve_ticket_model({n, from_ns(a), from_ns(s), from_ns(c)});
  // P(k) is proportional to prod_{i<k} lambda_i / mu_{i+1}.
  std::vector<double> w(n + 1, 1.0);
  for (std::uint32_t k = 1; k <= n; ++k) w[k] = w[k - 1] * ((n - (k - 1)) / a) * (s + c * k / 2.0);
  const double sum = std::accumulate(w.begin(), w.end(), 0.0);
  double throughput = 0;
  for (std::uint32_t k = 0; k <= n; ++k) {
    EXPECT_NEAR(r.distribution[k], w[k] / sum, 1e-10) << "k = " << k;
    if (k > 0) throughput += w[k] / sum / (s + c * k / 2.0);
  }
  EXPECT_NEAR(r.throughput, throughput * 1e9, 1e-8 * r.throughput);
  // Flow balance: what arrives is served, so throughput = E[n - k] / a (the paper's speed-up).
  EXPECT_NEAR(r.useful_cores, r.throughput * a * 1e-9, 1e-9);
  double thinking = 0;
  for (std::uint32_t k = 0; k <= n; ++k) thinking += r.distribution[k] * (n - k);
  EXPECT_NEAR(r.useful_cores, thinking, 1e-9);
}

TEST(TicketMarkov, WithoutAHandOffCostThroughputNeverFalls) {
  const auto rows = ticket_model_sweep(64, from_ns(2000), from_ns(100), 0);
  for (std::size_t i = 1; i < rows.size(); ++i) EXPECT_GE(rows[i].throughput, rows[i - 1].throughput * (1 - 1e-12));
  EXPECT_NEAR(rows.back().throughput, 1e9 / 100, 1e9 / 100 * 1e-3);  // saturates at 1/s
}

TEST(TicketMarkov, AHandOffCostThatGrowsWithTheWaitersMakesThroughputCollapse) {
  // Parameters of the order of the paper's 48-core AMD experiments.
  const auto rows = ticket_model_sweep(48, from_ns(10000), from_ns(400), from_ns(200));
  const auto peak = std::max_element(rows.begin(), rows.end(),
                                     [](const auto& x, const auto& y) { return x.throughput < y.throughput; });
  EXPECT_GT(peak->cores, 1u);
  EXPECT_LT(peak->cores, 48u);
  EXPECT_LT(rows.back().throughput, 0.6 * peak->throughput);
  EXPECT_GT(rows.back().mean_waiting, 40.0);  // nearly every core waits
  EXPECT_NEAR(std::accumulate(rows.back().distribution.begin(), rows.back().distribution.end(), 0.0), 1.0, 1e-12);
}

TEST(TicketMarkov, ManyCoresSolveWithoutNegativeProbabilities) {
  const auto r = solve_ticket_model({1024, from_ns(1000), from_ns(50), from_ns(100)});
  EXPECT_TRUE(std::all_of(r.distribution.begin(), r.distribution.end(), [](double p) { return p >= 0; }));
  EXPECT_NEAR(r.throughput, 1e9 / (50 + 100 * 1024 / 2.0), 0.01 * r.throughput);  // saturated: k = n
}

TEST(TicketMarkov, NonsenseInputsAreRefused) {
  EXPECT_THROW(solve_ticket_model({0, from_ns(1), from_ns(1), from_ns(1)}), std::invalid_argument);
  EXPECT_THROW(solve_ticket_model({4, 0, from_ns(1), from_ns(1)}), std::invalid_argument);
  EXPECT_THROW(solve_ticket_model({4, from_ns(1), -1, from_ns(1)}), std::invalid_argument);
  EXPECT_THROW(solve_ticket_model({4, from_ns(1), 0, 0}), std::invalid_argument);
}

}  // namespace
}  // namespace walksim::sync
