#pragma once
// 64-bit FNV-1a, the one hash behind Sling's cache file names, its solution files' checksums and
// its state hashes.  The constants are the published ones; every file name and checksum already
// on disk depends on them, so they never change.

#include <cstdint>
#include <string_view>

namespace sling {

inline constexpr std::uint64_t kFnv1aOffsetBasis = 14695981039346656037ULL;
inline constexpr std::uint64_t kFnv1aPrime = 1099511628211ULL;

// One step: `word` (a byte, or a wider word where a caller hashes words) folded into `hash`.
constexpr std::uint64_t fnv1a_step(std::uint64_t hash, std::uint64_t word) {
  return (hash ^ word) * kFnv1aPrime;
}

// The hash of `bytes`, one byte at a time.
constexpr std::uint64_t fnv1a(std::string_view bytes) {
  std::uint64_t hash = kFnv1aOffsetBasis;
  for (const char c : bytes) hash = fnv1a_step(hash, static_cast<unsigned char>(c));
  return hash;
}

static_assert(fnv1a("") == kFnv1aOffsetBasis);
static_assert(fnv1a("a") == 0xaf63dc4c8601ec8cULL);  // the published test vector

}  // namespace sling
