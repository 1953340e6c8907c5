// The birth-death chain of ticket_markov.hpp and its stationary distribution.
#include "models/sync/ticket_markov.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <stdexcept>

namespace walksim::sync {

namespace {

struct Rates {
  double a, s, c;  // in ns, so that rates are near 1 and the solve is well scaled
  double arrival(std::uint32_t n, std::uint32_t k) const { return static_cast<double>(n - k) / a; }
  double service(std::uint32_t k) const { return k == 0 ? 0.0 : 1.0 / (s + c * static_cast<double>(k) / 2.0); }
};

// Throughput (per ns) and the distribution, without the speed-up.
TicketModelResult solve_raw(std::uint32_t n, const Rates& r) {
  const auto size = static_cast<Eigen::Index>(n) + 1;
  Eigen::MatrixXd qt = Eigen::MatrixXd::Zero(size, size);  // Q transposed: pi Q = 0 <=> Q^T pi^T = 0
  for (std::uint32_t k = 0; k <= n; ++k) {
    const auto i = static_cast<Eigen::Index>(k);
    const double up = k < n ? r.arrival(n, k) : 0.0;
    const double down = r.service(k);
    if (k < n) qt(i + 1, i) = up;
    if (k > 0) qt(i - 1, i) = down;
    qt(i, i) = -(up + down);
  }
  qt.row(size - 1).setOnes();  // one balance equation is redundant; normalise instead
  Eigen::VectorXd rhs = Eigen::VectorXd::Zero(size);
  rhs(size - 1) = 1.0;
  Eigen::VectorXd pi = qt.colPivHouseholderQr().solve(rhs);
  // Tail states far out of reach come back as tiny negatives from rounding.
  pi = pi.cwiseMax(0.0);
  pi /= pi.sum();

  TicketModelResult out;
  out.cores = n;
  out.distribution.assign(pi.data(), pi.data() + pi.size());
  double per_ns = 0;
  for (std::uint32_t k = 0; k <= n; ++k) {
    const double p = pi(static_cast<Eigen::Index>(k));
    per_ns += p * r.service(k);
    out.mean_queue += p * k;
    out.mean_waiting += p * (k > 0 ? k - 1 : 0);
  }
  out.throughput = per_ns * 1e9;
  out.useful_cores = per_ns * r.a;
  return out;
}

Rates rates_of(const TicketModelParams& p) {
  if (p.cores < 1) throw std::invalid_argument("ticket model: cores must be at least 1");
  if (p.think <= 0) throw std::invalid_argument("ticket model: think time must be positive");
  if (p.hold < 0 || p.handoff < 0) throw std::invalid_argument("ticket model: hold and handoff must not be negative");
  if (p.hold + p.handoff <= 0) throw std::invalid_argument("ticket model: hold + handoff must be positive");
  return {sim::to_ns(p.think), sim::to_ns(p.hold), sim::to_ns(p.handoff)};
}

}  // namespace

TicketModelResult solve_ticket_model(const TicketModelParams& p) {
  const Rates r = rates_of(p);
  TicketModelResult out = solve_raw(p.cores, r);
  const TicketModelResult one = solve_raw(1, r);
  out.speedup = out.throughput / one.throughput;
  return out;
}

std::vector<TicketModelResult> ticket_model_sweep(std::uint32_t max_cores, sim::Picos think, sim::Picos hold,
                                                  sim::Picos handoff) {
  std::vector<TicketModelResult> all;
  for (std::uint32_t n = 1; n <= max_cores; ++n) all.push_back(solve_ticket_model({n, think, hold, handoff}));
  return all;
}

}  // namespace walksim::sync
