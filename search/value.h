#pragma once
// Value functions as a search ingredient.  A leaf value function maps any non-terminal state to
// side 0's payoff in [-1, 1] (for a win/loss game, 2 p - 1 with p side 0's win probability).
// Expectimax and MCTS take one as a template parameter, so a search without one (NoLeafValue)
// compiles to exactly the code it had before, and a search with one calls it directly: no virtual
// call and no allocation per node.  The function must be safe to call from several threads at
// once (MCTS's root-parallel trees share it).

#include <concepts>
#include <type_traits>

#include "engine/core/game.h"

namespace sling::search {

// The "no value function" marker: searches instantiated with it never read a value.
struct NoLeafValue {};

template <class V, class G>
concept LeafValue =
    Game<G> && !std::is_same_v<V, NoLeafValue> && requires(const V& v, const typename G::State& s) {
  { v(s) } -> std::convertible_to<double>;
};

template <class V, class G>
concept LeafValueOrNone = std::is_same_v<V, NoLeafValue> || LeafValue<V, G>;

}  // namespace sling::search
