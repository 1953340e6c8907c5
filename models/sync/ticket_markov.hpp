// The Markov model of ticket-lock collapse from Boyd-Wickizer, Kaashoek, Morris and Zeldovich,
// "Non-scalable locks are dangerous" (Linux Symposium 2012), solved numerically with Eigen as an
// analytic cross-check of the simulator. State k = number of cores holding or waiting for the
// lock (0..n). From k, a new core arrives at rate (n - k) / a; the lock is handed off and held at
// rate 1 / (s + c k / 2): the next holder's copy of the line arrives, on average, after half of
// the k waiters' re-reads, each taking the directory one transfer time c.
#pragma once

#include <cstdint>
#include <vector>

#include "sim/time.hpp"

namespace walksim::sync {

struct TicketModelParams {
  std::uint32_t cores = 1;  // n
  sim::Picos think = 0;     // a: mean time from a release to the same core's next acquire attempt (> 0)
  sim::Picos hold = 0;      // s: time in the critical section
  sim::Picos handoff = 0;   // c: time to move the lock's line to one waiter
};

struct TicketModelResult {
  std::uint32_t cores = 0;
  double throughput = 0;             // lock acquisitions per second
  double speedup = 0;                // throughput / the same model's throughput with one core
  double useful_cores = 0;           // the paper's "speedup": expected cores not at the lock, = throughput * a
  double mean_queue = 0;             // expected cores holding or waiting, E[k]
  double mean_waiting = 0;           // expected cores waiting, E[max(k - 1, 0)]
  std::vector<double> distribution;  // stationary P(k), k = 0..cores
};

// Builds the generator Q, replaces one balance equation by sum(pi) = 1 and solves pi Q = 0 with a
// dense QR. Throws std::invalid_argument unless cores >= 1, think > 0, hold >= 0, handoff >= 0
// and hold + handoff > 0.
TicketModelResult solve_ticket_model(const TicketModelParams& p);

// The model for 1..max_cores cores with the same a, s and c.
std::vector<TicketModelResult> ticket_model_sweep(std::uint32_t max_cores, sim::Picos think, sim::Picos hold,
                                                  sim::Picos handoff);

}  // namespace walksim::sync
