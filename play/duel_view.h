#pragma once
// The duel in the terminal: a scaled board with both bases and the 5 cm shooting bands around
// Goliath, every die with what it decides, option labels with the odds, and why a typed action is
// illegal.

#include <optional>
#include <string>

#include "engine/duel/duel.h"
#include "play/game_view.h"

namespace sling::play {

template <>
struct GameView<duel::DuelGame> {
  using Game = duel::DuelGame;
  using State = duel::DuelState;

  static std::string board(const Game& game, const State& s, const Style& style);
  static std::string describe_chance(const Game& game, const State& before, Action outcome,
                                     const Style& style);
  static std::string prompt(const Game& game, const State& s);
  static std::string option_label(const Game& game, const State& s, Action a);
  // At a destination: the rule-of-thumb destination, staying put, and the game's candidate
  // destinations (nearest, farthest, farthest in each of 16 directions), ordered by the gap left.
  static void suggestions(const Game& game, const State& s, ActionList<Game>& out);
  static std::string explain_illegal(const Game& game, const State& s, Action a,
                                     const std::string& error);
  static std::string rules_summary(const Game& game);
  static bool is_follow_up(const Game&, const State& s) {
    return s.phase == duel::Phase::kGod || s.phase == duel::Phase::kTieFlee;
  }
  static std::string result(const Game& game, const State& s);
  // God's question after a roll that went David's way (or that God cannot mend) is answered
  // `accept` unless every roll is to be asked about.
  static std::optional<Action> unasked_answer(const Game& game, const State& s,
                                              DiceQuestions questions);
  // Whether the dice just thrown (phase kGod) went against David: a javelin that kills, a lost
  // melee, a recovering Goliath, a stone that misses, is stopped or does not daze, a failed search
  // or flee test, a trip or slip, a Goliath move long enough to reach him.  The initiative and
  // David's other movement rolls never count (the God study: optimal play never re-rolls them).
  static bool roll_went_against_david(const Game& game, const State& s);
};

}  // namespace sling::play
