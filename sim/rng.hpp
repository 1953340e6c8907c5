// Deterministic random numbers: xoshiro256** seeded through splitmix64. Each simulation owns its
// generators, so runs are reproducible for a given seed and independent of each other.
#pragma once

#include <cstdint>

namespace walksim::sim {

// A stateless 64-bit mix (splitmix64's output for state x): equal inputs give equal outputs,
// near inputs unrelated ones. For orders that must look arbitrary yet not depend on how the host
// ran things.
inline std::uint64_t mix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

class Rng {
 public:
  explicit Rng(std::uint64_t seed) {
    for (auto& s : state_) s = splitmix(seed);
  }

  std::uint64_t next() {
    const std::uint64_t result = rotl(state_[1] * 5, 7) * 9;
    const std::uint64_t t = state_[1] << 17;
    state_[2] ^= state_[0];
    state_[3] ^= state_[1];
    state_[1] ^= state_[2];
    state_[0] ^= state_[3];
    state_[2] ^= t;
    state_[3] = rotl(state_[3], 45);
    return result;
  }

  // Uniform in [0, n), n > 0 (Lemire's multiply-shift; the tiny bias is irrelevant here).
  std::uint64_t below(std::uint64_t n) {
    __extension__ using U128 = unsigned __int128;
    return static_cast<std::uint64_t>((static_cast<U128>(next()) * n) >> 64);
  }

  // Uniform in [0, 1).
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

 private:
  static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  // splitmix64: the state advances by the golden-ratio step and each output is its mix.
  static std::uint64_t splitmix(std::uint64_t& x) {
    const std::uint64_t z = mix64(x);
    x += 0x9e3779b97f4a7c15ULL;
    return z;
  }

  std::uint64_t state_[4];
};

}  // namespace walksim::sim
