#pragma once
// A state as a flat vector of float32 numbers in [0, 1], for learning code (sling.env, a
// network's input).  Each game's layout is fixed and documented in docs/python.md; it says
// everything the state holds (the duel and Pig have no hidden information).

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "engine/danelaw/danelaw.h"
#include "engine/duel/duel.h"
#include "engine/pig/pig.h"

namespace sling::python {

// The duel: 37 numbers.
//   0-3   David's and Goliath's lattice x and y, each divided by (lattice size - 1)
//   4-9   the phase, one-hot (roll, god, declare, destination, tie-flee, terminal)
//   10    the side to act (0 David, 1 Goliath)
//   11-23 the pending roll, one-hot (none, initiative, David's move, ... recover: duel.h's Roll)
//   24-30 the flags: stone, shield, javelin, God available, dazed, skips turn, behead pending
//   31-32 the two dice not yet resolved, divided by 6 (0: none)
//   33    re-rolling a die (God invoked)
//   34    the movement allowance during a destination, divided by 12 cm
//   35    turns begun, divided by 200 (capped at 1)
//   36    the winner at a terminal state: 0 David, 0.5 a draw, 1 Goliath (0 while playing)
inline constexpr int kDuelObservationSize = 37;

inline void duel_observation(const duel::DuelGame& game, const duel::DuelState& s, float* out) {
  std::fill(out, out + kDuelObservationSize, 0.0f);
  const auto scaled = [](int value, int size) {
    return size > 1 ? static_cast<float>(value) / static_cast<float>(size - 1) : 0.0f;
  };
  out[0] = scaled(s.david_x, game.lattice_width(duel::kDavid));
  out[1] = scaled(s.david_y, game.lattice_height(duel::kDavid));
  out[2] = scaled(s.goliath_x, game.lattice_width(duel::kGoliath));
  out[3] = scaled(s.goliath_y, game.lattice_height(duel::kGoliath));
  out[4 + std::min<int>(static_cast<int>(s.phase), 5)] = 1.0f;
  out[10] = static_cast<float>(s.actor);
  out[11 + std::min<int>(static_cast<int>(s.roll), duel::kRollKinds - 1)] = 1.0f;
  for (int bit = 0; bit < 7; ++bit) out[24 + bit] = (s.flags >> bit & 1) ? 1.0f : 0.0f;
  out[31] = static_cast<float>(s.dice[0]) / 6.0f;
  out[32] = static_cast<float>(s.dice[1]) / 6.0f;
  out[33] = s.rerolling != 0 ? 1.0f : 0.0f;
  out[34] = std::min(1.0f, static_cast<float>(s.allowance_cm) / 12.0f);
  out[35] = std::min(1.0f, static_cast<float>(s.turn) / 200.0f);
  if (s.phase == duel::Phase::kTerminal)
    out[36] = s.winner == 2 ? 0.5f : (s.winner == 1 ? 1.0f : 0.0f);
}

// Pig: 7 numbers: both banked scores and the turn total divided by the goal (capped at 1), the
// side to move, and the phase one-hot (decision, rolling, over).
inline constexpr int kPigObservationSize = 7;

inline void pig_observation(const pig::PigGame& game, const pig::PigState& s, float* out) {
  const auto part = [&](int points) {
    return std::min(1.0f, static_cast<float>(points) / static_cast<float>(game.goal()));
  };
  out[0] = part(s.scores[0]);
  out[1] = part(s.scores[1]);
  out[2] = part(s.turn_total);
  out[3] = static_cast<float>(s.to_move);
  out[4] = s.phase == pig::Phase::kDecision ? 1.0f : 0.0f;
  out[5] = s.phase == pig::Phase::kRolling ? 1.0f : 0.0f;
  out[6] = s.phase == pig::Phase::kOver ? 1.0f : 0.0f;
}

// Danelaw: the state's bytes, each divided by 255 (a faithful but raw encoding; the armies'
// layout is engine/danelaw/danelaw.h's State).
inline constexpr int kDanelawObservationSize = static_cast<int>(sizeof(danelaw::State));

inline void danelaw_observation(const danelaw::DanelawGame&, const danelaw::State& s, float* out) {
  unsigned char bytes[sizeof(danelaw::State)];
  std::memcpy(bytes, &s, sizeof bytes);
  for (std::size_t i = 0; i < sizeof bytes; ++i) out[i] = static_cast<float>(bytes[i]) / 255.0f;
}

// Each game's observation, as a trait the game specialises here: its length and its writer.
template <class G>
struct Observation;
template <>
struct Observation<duel::DuelGame> {
  static constexpr int kSize = kDuelObservationSize;
  static constexpr auto write = duel_observation;
};
template <>
struct Observation<pig::PigGame> {
  static constexpr int kSize = kPigObservationSize;
  static constexpr auto write = pig_observation;
};
template <>
struct Observation<danelaw::DanelawGame> {
  static constexpr int kSize = kDanelawObservationSize;
  static constexpr auto write = danelaw_observation;
};

template <class G>
constexpr int observation_size() {
  return Observation<G>::kSize;
}

template <class G>
void observation(const G& game, const typename G::State& s, float* out) {
  Observation<G>::write(game, s, out);
}

}  // namespace sling::python
