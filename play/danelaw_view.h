#pragma once
// Danelaw in the terminal: the text hex map of engine/danelaw/render.h with the turn's state, every
// die with what it decides (movement points and reinforcements, battle results with their
// modifiers, routs), and compound typed moves ("army York to Lincoln", "3 to Lincoln").

#include <optional>
#include <string>
#include <vector>

#include "engine/danelaw/danelaw.h"
#include "play/game_view.h"

namespace sling::play {

template <>
struct GameView<danelaw::DanelawGame> {
  using Game = danelaw::DanelawGame;
  using State = danelaw::State;

  static std::string board(const Game& game, const State& s, const Style& style);
  // The 45-line map is drawn when a side's half-turn starts; between its own decisions in that
  // half-turn only the status line is printed (`board` draws the map).
  static std::optional<std::string> compact_board(const Game& game, const State& shown,
                                                  const State& s, const Style& style);
  static std::string describe_chance(const Game& game, const State& before, Action outcome,
                                     const Style& style);
  static std::string prompt(const Game& game, const State& s);
  static std::string option_label(const Game& game, const State& s, Action a);
  // Where there are many choices: the rule of thumb's first, then the game's candidates.
  static void suggestions(const Game& game, const State& s, ActionList<Game>& out);
  static std::string explain_illegal(const Game&, const State&, Action, const std::string& error) {
    return error;
  }
  static std::string rules_summary(const Game& game);
  // The second half of a move (its destination), the next roller of an attack, and the answers
  // to a battle or rout die: no board before them, and `undo` takes them back with their move.
  static bool is_follow_up(const Game&, const State& s) {
    return s.phase == danelaw::Phase::kMoveDestination ||
           s.phase == danelaw::Phase::kChooseRoller || s.phase == danelaw::Phase::kAdvance ||
           s.phase == danelaw::Phase::kRoutStep;
  }
  static std::string result(const Game& game, const State& s);
  // "army X to Y" (or "N to Y", N an option number) is two decisions: choose the army, then its
  // destination.
  static std::vector<std::string> split_input(const Game& game, const State& s,
                                              const std::string& line);
  // The position as an SVG document (`sling play danelaw --svg FILE`).
  static std::optional<std::string> svg(const Game& game, const State& s);
};

}  // namespace sling::play
