#pragma once
// The key of a danelaw state in the exact solver's table (exact_solver.h): the state packed into 56
// bytes, with its armies sorted by hex.  Two states with the same key have the same future: the
// rules never depend on the order in which armies are listed (it only changes as armies are
// destroyed), and the key keeps everything else a state holds.  Sorting makes positions reached by
// different lines (a destroyed army swapped with the last one) one entry instead of several.  The
// movement dice are kept only while a reinforcement is placed (they decide where it may go); after
// that only the points left matter, so 3+4 and 2+5 lead to the same states.
//
// The packing holds a hex in a byte and at most kExactMaxArmies armies, so the solver refuses a
// scenario beyond those bounds (exact_solver.cpp) rather than key two states alike.

#include <array>
#include <cstdint>

#include "engine/danelaw/danelaw.h"

namespace sling::danelaw {

inline constexpr int kExactMaxArmies = 15;  // armies of both sides on the map at once
inline constexpr int kExactMaxHexes = 255;  // hex indices 0..254; 255 is "no hex"
inline constexpr std::size_t kExactKeyWords = 7;

struct ExactKey {
  std::array<std::uint64_t, kExactKeyWords> words{};
  bool operator==(const ExactKey&) const = default;
};

// The key of `s`; `s` must fit the bounds above (the solver checks the scenario once).
ExactKey exact_key(const State& s);
// The state a key stands for, its armies in hex order.
State state_of_key(const ExactKey& key);
std::uint64_t exact_key_hash(const ExactKey& key);

// A key that no state has: the table's empty slot.
ExactKey empty_exact_key();
bool is_empty_exact_key(const ExactKey& key);

}  // namespace sling::danelaw
