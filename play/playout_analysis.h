#pragma once
// Flat Monte Carlo analysis: each candidate action of a position is followed by `playouts` games
// played out by the game's rule-of-thumb policy (uniformly random moves for a game without one),
// and scored by the mover's average result.  It is the hint of last resort, used when the build
// has no search agent for the game: honest (its values are plain sample means, with their standard
// error) but weaker than a tree search, because the playouts never correct the policy's mistakes.

#include <algorithm>
#include <cmath>

#include "agents/agent.h"
#include "engine/core/game.h"

namespace sling::play {

struct PlayoutOptions {
  int playouts = 1000;   // per candidate action
  int max_plies = 3000;  // a playout still running after this many plies counts as a draw
};

template <Game G>
Analysis playout_analysis(const G& game, const typename G::State& state, std::uint64_t seed,
                          const PlayoutOptions& options = {}) {
  using State = typename G::State;
  ActionList<G> actions;
  if constexpr (HasCandidateActions<G>) {
    game.candidate_actions(state, actions);
  } else {
    game.legal_actions(state, actions);
  }
  const auto mover = static_cast<std::size_t>(game.current_player(state));
  Analysis analysis;
  for (std::size_t i = 0; i < actions.size(); ++i) {
    Rng rng(seed, i);  // one stream per action: the result does not depend on the order
    double total = 0;
    for (int p = 0; p < options.playouts; ++p) {
      State s = state;
      game.apply_action(s, actions[i]);
      int plies = 0;
      for (; !game.is_terminal(s) && plies < options.max_plies; ++plies) {
        Action a;
        if (game.current_player(s) == kChancePlayer) {
          a = sample_chance(game, s, rng);
        } else if constexpr (HasHeuristicPolicy<G>) {
          a = game.heuristic_action(s, rng);
        } else {
          a = sample_uniform_action(game, s, rng);
        }
        apply_any(game, s, a);
      }
      analysis.nodes += plies;
      if (game.is_terminal(s)) total += game.returns(s)[mover];
    }
    analysis.actions.push_back({actions[i], total / options.playouts, options.playouts});
  }
  std::stable_sort(analysis.actions.begin(), analysis.actions.end(),
                   [](const ActionStat& a, const ActionStat& b) { return a.value > b.value; });
  if (!analysis.actions.empty()) analysis.value = analysis.actions.front().value;
  return analysis;
}

}  // namespace sling::play
