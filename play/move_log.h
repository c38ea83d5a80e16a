#pragma once
// The `log` of a play session: every die and action so far, one numbered line each, in the words
// of the game's view.  Apart from the session so that the history's wording lives in one place.

#include <cstddef>
#include <ostream>
#include <vector>

#include "engine/core/game.h"
#include "play/style.h"

namespace sling::play {

// One line per ply of `history`, replayed from the initial state: chance outcomes as the view
// describes them, decisions as "Side: action".
template <class View, Game G>
void write_move_log(std::ostream& out, const G& game, const std::vector<Action>& history,
                    const Style& style) {
  typename G::State s = game.initial_state();
  for (std::size_t ply = 0; ply < history.size(); ++ply) {
    const Player p = game.current_player(s);
    out << (ply + 1 < 10     ? "   "
            : ply + 1 < 100  ? "  "
            : ply + 1 < 1000 ? " "
                             : "")
        << ply + 1 << ". ";
    if (p == kChancePlayer) {
      out << View::describe_chance(game, s, history[ply], style) << "\n";
    } else {
      out << display_name(game.info().sides[static_cast<std::size_t>(p)]) << ": "
          << sling::action_words(game, s, history[ply]) << "\n";
    }
    apply_any(game, s, history[ply]);
  }
}

}  // namespace sling::play
