#pragma once
// How the terminal shows a game.  GameView<G> is the one customisation point of the play and replay
// sessions: the primary template below works for any Game from the game's own text hooks, and a
// game specialises it (duel_view.h, ...) for a proper board, dice that say what they decide, option
// labels, reasons for illegal input and a rules summary.

#include <optional>
#include <string>
#include <vector>

#include "engine/core/game.h"
#include "play/style.h"

namespace sling::play {

// Which questions that follow a die a person at the table is asked (the duel's God prompt):
// every one, or only after a roll that went against them (the others take the game's default).
// A view that can answer for the person declares
//   static std::optional<Action> unasked_answer(const G&, const State&, DiceQuestions);
enum class DiceQuestions { kAfterEveryRoll, kAfterBadRolls };

template <Game G>
struct GameView {
  using State = typename G::State;

  // The position, as a board.
  static std::string board(const G& game, const State& s, const Style&) {
    return game.state_to_string(s) + "\n";
  }
  // One line about a die just thrown: whose it is and what it decides.  `before` is the chance
  // node.
  static std::string describe_chance(const G& game, const State& before, Action outcome,
                                     const Style&) {
    return "roll: " + game.action_to_string(before, outcome);
  }
  // The question put to the side to move.
  static std::string prompt(const G& game, const State& s) {
    return display_name(game.info().sides[static_cast<std::size_t>(game.current_player(s))]) +
           " to act";
  }
  // A numbered option's text; it should start with the typed form of the action.
  static std::string option_label(const G& game, const State& s, Action a) {
    return sling::action_words(game, s, a);
  }
  // Where the legal set is too large to list: a few suggestions (a subset of the legal actions).
  static void suggestions(const G& game, const State& s, ActionList<G>& out) {
    if constexpr (HasCandidateActions<G>) {
      game.candidate_actions(s, out);
    } else {
      game.legal_actions(s, out);
    }
  }
  // Why `a` is not legal in `s`; `error` is the engine's own message.
  static std::string explain_illegal(const G&, const State&, Action, const std::string& error) {
    return error;
  }
  // A short statement of the rules (the `rules` command).
  static std::string rules_summary(const G& game) {
    return "The rules in force (JSON):\n" + game.rules_json() + "\n";
  }
  // Decision nodes that follow a die (the question is about the die just shown): no board first.
  static bool is_follow_up(const G&, const State&) { return false; }
  // The result line of a finished game.
  static std::string result(const G& game, const State& s) {
    const Returns r = game.returns(s);
    std::string text = r[0] > r[1]   ? side_with_verb(game.info().sides[0], "wins", "win")
                       : r[1] > r[0] ? side_with_verb(game.info().sides[1], "wins", "win")
                                     : std::string("A draw");
    if constexpr (HasEndReason<G>) text += " (" + std::string(game.end_reason(s)) + ")";
    return text;
  }
};

// Optional hooks of a view, detected at compile time.

// Splits one typed line into several decisions ("army York to Lincoln").
template <class View, class G>
concept HasSplitInput = requires(const G& game, const typename G::State& s,
                                 const std::string& line) {
  { View::split_input(game, s, line) } -> std::same_as<std::vector<std::string>>;
};

// The position as an SVG document.
template <class View, class G>
concept HasSvg = requires(const G& game, const typename G::State& s) {
  { View::svg(game, s) } -> std::same_as<std::optional<std::string>>;
};

// Views of games with a large board may offer a one-line update for a position close to the last
// board shown (the same side in the same turn), or nullopt for a full redraw.
template <class View, class G>
concept HasCompactBoard = requires(const G& g, const typename G::State& s, const Style& style) {
  { View::compact_board(g, s, s, style) } -> std::same_as<std::optional<std::string>>;
};

}  // namespace sling::play
