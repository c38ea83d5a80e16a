#pragma once
// Counter-based random source.  A stream is fully determined by (seed, stream id); draw n of a
// stream is a pure function of (seed, stream, n).  Game i of any run uses stream i, so results
// never depend on which thread played which game or in what order.

#include <cstdint>
#include <limits>

namespace sling {

// SplitMix64's finaliser: a bijective 64-bit mixer with full avalanche.
constexpr std::uint64_t mix64(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

constexpr std::uint64_t hash_combine(std::uint64_t seed, std::uint64_t value) {
  return mix64(seed ^ (value + 0x9e3779b97f4a7c15ULL + (seed << 6) + (seed >> 2)));
}

class Rng {
 public:
  using result_type = std::uint64_t;

  constexpr Rng() : Rng(0, 0) {}
  constexpr Rng(std::uint64_t seed, std::uint64_t stream)
      : key_(hash_combine(mix64(seed ^ 0x5851f42d4c957f2dULL), stream)), counter_(0) {}

  // Derives the stream of sub-task `index` (for example game i of a tournament).
  constexpr Rng derive(std::uint64_t index) const { return Rng(key_, index ^ 0xa5a5a5a5ULL); }

  constexpr std::uint64_t next() { return mix64(key_ + 0x9e3779b97f4a7c15ULL * (++counter_)); }
  constexpr std::uint64_t operator()() { return next(); }
  static constexpr std::uint64_t min() { return 0; }
  static constexpr std::uint64_t max() { return std::numeric_limits<std::uint64_t>::max(); }

  // Uniform integer in [0, n) without modulo bias (Lemire's multiply-shift with rejection).
  constexpr std::uint32_t uniform(std::uint32_t n) {
    std::uint64_t m = static_cast<std::uint64_t>(static_cast<std::uint32_t>(next() >> 32)) * n;
    auto low = static_cast<std::uint32_t>(m);
    if (low < n) {
      const std::uint32_t threshold = static_cast<std::uint32_t>(-n) % n;
      while (low < threshold) {
        m = static_cast<std::uint64_t>(static_cast<std::uint32_t>(next() >> 32)) * n;
        low = static_cast<std::uint32_t>(m);
      }
    }
    return static_cast<std::uint32_t>(m >> 32);
  }

  // Uniform double in [0, 1) with 53 random bits.
  constexpr double uniform01() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

  constexpr std::uint64_t counter() const { return counter_; }

 private:
  std::uint64_t key_;
  std::uint64_t counter_;
};

}  // namespace sling
