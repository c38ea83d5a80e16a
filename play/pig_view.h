#pragma once
// Pig in the terminal: both scores as bars towards the goal, the turn total at risk, and every die
// with what it does to the turn.

#include <string>

#include "engine/pig/pig.h"
#include "play/game_view.h"

namespace sling::play {

template <>
struct GameView<pig::PigGame> {
  using Game = pig::PigGame;
  using State = pig::PigState;

  static std::string board(const Game& game, const State& s, const Style& style);
  static std::string describe_chance(const Game& game, const State& before, Action outcome,
                                     const Style& style);
  static std::string prompt(const Game& game, const State& s);
  static std::string option_label(const Game& game, const State& s, Action a);
  static void suggestions(const Game& game, const State& s, ActionList<Game>& out) {
    game.legal_actions(s, out);
  }
  static std::string explain_illegal(const Game&, const State&, Action, const std::string& error) {
    return error;
  }
  static std::string rules_summary(const Game& game);
  static bool is_follow_up(const Game&, const State&) { return false; }
  static std::string result(const Game& game, const State& s);
};

}  // namespace sling::play
