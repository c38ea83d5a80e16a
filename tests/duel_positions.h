#pragma once
// Duel positions shared by the search tests: a small lattice without God, and the game's start
// with David to act.

#include <gtest/gtest.h>

#include "engine/duel/duel.h"

namespace sling::duel_positions {

// The 3 cm lattice without God: with a flat or simple leaf value, spending him would change the
// position for nothing and blur what a test looks at.
inline duel::DuelRules pitch3_without_god() {
  duel::DuelRules r;
  r.pitch_cm = 3;
  r.god_enabled = false;
  return r;
}

// The 16 cm board (small enough to solve in a second at 2 cm) at lattice pitch `pitch_cm`.
inline duel::DuelRules board16(int pitch_cm) {
  duel::DuelRules r;
  r.board_cm = 16;
  r.pitch_cm = pitch_cm;
  return r;
}

// The game's start with David first (initiative 6 to 1): David declares, the figures 23.5 cm
// apart, out of any shot and any charge.
inline duel::DuelState david_declares(const duel::DuelGame& game) {
  duel::DuelState s = game.initial_state();
  game.apply_unchecked(s, duel::act::dice_pair(6, 1));
  EXPECT_EQ(s.phase, duel::Phase::kDeclare);
  EXPECT_EQ(s.actor, duel::kDavid);
  return s;
}

// A side's move from a declare state: the movement die shows `face`.
inline duel::DuelState moving(const duel::DuelGame& game, duel::DuelState s, int face) {
  game.apply_unchecked(s, duel::act::kMove);
  game.apply_unchecked(s, static_cast<Action>(face));
  EXPECT_EQ(s.phase, duel::Phase::kDestination);
  return s;
}

}  // namespace sling::duel_positions
