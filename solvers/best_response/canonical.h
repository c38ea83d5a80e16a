#pragma once
// The keys under which best_response (best_response.h) enumerates a game's states: two states with
// the same key must have the same future.
#include <algorithm>

#include "engine/duel/duel.h"
#include "engine/pig/pig.h"

namespace sling {

// The duel's turn counter only changes the future under a turn cap.
inline duel::DuelState best_response_key(const duel::DuelGame& game, duel::DuelState s) {
  if (game.rules().turn_cap == 0) s.turn = 0;
  return s;
}

// In Pig a turn total that reaches the goal wins on a hold and stays there on a roll, so every such
// total has the same future and the key keeps the smallest (without it totals are unbounded).
inline pig::PigState best_response_key(const pig::PigGame& game, pig::PigState s) {
  if (!game.is_terminal(s)) {
    const int needed = std::max(0, game.goal() - static_cast<int>(s.scores[s.to_move]));
    if (s.turn_total > needed) s.turn_total = static_cast<std::uint16_t>(needed);
  }
  return s;
}

}  // namespace sling
