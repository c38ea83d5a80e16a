#pragma once
// Danelaw in the terminal: the text hex map of engine/danelaw/render.h with the turn's state, every
// die with what it decides (movement points and reinforcements, battle results with their
// modifiers, routs), and compound typed moves ("army York to Lincoln", "3 to Lincoln").

#include <optional>
#include <string>
#include <vector>

#include "engine/danelaw/danelaw.h"
#include "experiments/play/game_view.h"

namespace sling::play {

template <>
struct GameView<danelaw::DanelawGame> {
  using Game = danelaw::DanelawGame;
  using State = danelaw::State;

  static std::string board(const Game& game, const State& s, const Style& style);
  static std::string describe_chance(const Game& game, const State& before, Action outcome,
                                     const Style& style);
  static std::string prompt(const Game& game, const State& s);
  static std::string option_label(const Game& game, const State& s, Action a) {
    return game.action_to_string(s, a);
  }
  static void suggestions(const Game& game, const State& s, ActionList<Game>& out) {
    game.candidate_actions(s, out);
  }
  static std::string explain_illegal(const Game&, const State&, Action, const std::string& error) {
    return error;
  }
  static std::string rules_summary(const Game& game);
  static bool is_follow_up(const Game&, const State&) { return false; }
  static std::string result(const Game& game, const State& s);
  // "army X to Y" (or "N to Y", N an option number) is two decisions: choose the army, then its
  // destination.
  static std::vector<std::string> split_input(const Game& game, const State& s,
                                              const std::string& line);
  // The position as an SVG document (`sling play danelaw --svg FILE`).
  static std::optional<std::string> svg(const Game& game, const State& s);
};

}  // namespace sling::play
