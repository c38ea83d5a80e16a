#pragma once
// Every game between agents ends.  Two agents that both value waiting can stand off for ever (two
// duel agents that hold their ground repeat one position thousands of times), so Sling plays
// every game without a person to a turn limit, the way chess ends a game by the fifty-move rule: a
// game that has not ended when turn N + 1 would begin is a draw, its end reason "turn limit" (the
// rule, its default and its relation to the solved values: docs/rules/duel.md, "Games between
// agents").  Games without turns (HasTurnLimit false) end by their own rules or at the caller's
// ply limit.

#include <optional>

#include "engine/core/game.h"

namespace sling {

// Both sides' turns count one, as the duel's turn counter does.
inline constexpr int kDefaultAgentTurnLimit = 1000;

// The game to step a game between agents with: a copy of `game` drawn at `turns` (0: no limit;
// for a game without turns, the game itself).  Agents keep the unlimited game for their own
// decisions, so an exact agent still plays the solved game.
template <Game G>
G limited_game(const G& game, int turns) {
  if constexpr (HasTurnLimit<G>) {
    if (turns > 0) return game.with_turn_limit(turns);
  }
  return game;
}

// The same without a copy where there is no limit to put (a game without turns, or 0 turns): a
// loop that steps many games holds one of these, as games with large tables are costly to copy.
template <Game G>
class TurnLimited {
 public:
  TurnLimited(const G& game, int turns) : game_(&game) {
    if constexpr (HasTurnLimit<G>) {
      if (turns > 0) game_ = &copy_.emplace(game.with_turn_limit(turns));
    }
  }
  TurnLimited(const TurnLimited&) = delete;  // game_ may point into this object
  TurnLimited& operator=(const TurnLimited&) = delete;

  const G& game() const { return *game_; }

 private:
  std::optional<G> copy_;
  const G* game_;
};

// The limit a record of a game of G carries: 0 where G has no turns.
template <Game G>
constexpr int recorded_turn_limit(int turns) {
  return HasTurnLimit<G> ? turns : 0;
}

}  // namespace sling
