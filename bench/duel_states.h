#pragma once
// The benchmarks' fixed spread of duel decision states: every seventh decision of seeded games
// played by a policy, so that every search benchmark times the same positions; and the loop that
// times a search over them.

#include <benchmark/benchmark.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "engine/duel/duel.h"

namespace sling::duel::bench {

// `count` decision states from games whose decisions `policy(s, rng)` picks (dice from stream 0 of
// seed 21, the same stream as the policy).
template <class Policy>
std::vector<DuelState> decision_states(const DuelGame& game, int count, Policy policy) {
  std::vector<DuelState> states;
  Rng rng(21, 0);
  while (static_cast<int>(states.size()) < count) {
    DuelState s = game.initial_state();
    int ply = 0;
    while (!game.is_terminal(s) && static_cast<int>(states.size()) < count) {
      if (game.current_player(s) == kChancePlayer) {
        game.apply_chance(s, sample_chance(game, s, rng));
      } else {
        if (++ply % 7 == 0) states.push_back(s);
        game.apply_action(s, policy(s, rng));
      }
    }
  }
  return states;
}

// Searches the states in turn, one per iteration; items = the nodes (or simulations) searched.
template <class Search>
void time_searches(benchmark::State& st, Search& search, const std::vector<DuelState>& states) {
  std::size_t i = 0;
  std::int64_t nodes = 0;
  for (auto _ : st) {
    nodes += search.search(states[i++ % states.size()]).nodes;
  }
  st.SetItemsProcessed(nodes);
}

}  // namespace sling::duel::bench
