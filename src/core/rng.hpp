#pragma once
// A small, fast, fully specified generator: the same seed gives the same schedules on
// every platform and standard library (std::uniform_int_distribution does not).
#include <cstdint>

namespace weft {

class Rng {
 public:
  explicit Rng(std::uint64_t seed = 0) { reseed(seed); }
  void reseed(std::uint64_t seed) {
    std::uint64_t z = seed;
    for (auto& s : s_) s = splitmix(z);
  }
  // xoshiro256** (Blackman and Vigna).
  std::uint64_t next() {
    const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const std::uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }
  // Uniform in [0, n), n > 0, without modulo bias (Lemire).
  std::uint64_t below(std::uint64_t n) {
    unsigned __int128 m = static_cast<unsigned __int128>(next()) * n;
    auto low = static_cast<std::uint64_t>(m);
    if (low < n) {
      const std::uint64_t threshold = -n % n;
      while (low < threshold) {
        m = static_cast<unsigned __int128>(next()) * n;
        low = static_cast<std::uint64_t>(m);
      }
    }
    return static_cast<std::uint64_t>(m >> 64);
  }
  // Uniform double in [0, 1).
  double unit() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

  // The whole state (a checkpoint saves it; set_state continues the same sequence).
  void state(std::uint64_t out[4]) const {
    for (int i = 0; i < 4; ++i) out[i] = s_[i];
  }
  void set_state(const std::uint64_t in[4]) {
    for (int i = 0; i < 4; ++i) s_[i] = in[i];
  }

  static std::uint64_t splitmix(std::uint64_t& x) {
    std::uint64_t z = (x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }

 private:
  static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  std::uint64_t s_[4];
};

// Seed of execution `i` of a run seeded with `seed`: executions are independent, so a
// sampler's execution can be reproduced (and sharded) without replaying its predecessors.
inline std::uint64_t execution_seed(std::uint64_t seed, std::uint64_t i) {
  std::uint64_t x = seed ^ (i * 0xd1342543de82ef95ull);
  Rng::splitmix(x);
  return Rng::splitmix(x);
}

}  // namespace weft
