// Pig benchmarks: whole random games (the playout speed every rollout depends on) and MCTS with
// one random rollout per simulation.

#include <benchmark/benchmark.h>

#include "engine/pig/pig.h"
#include "search/common.h"
#include "search/mcts.h"

namespace sling::pig {
namespace {

// One whole game per item, each decision uniformly random between roll and hold.
void BM_PigRandomPlayout(benchmark::State& st) {
  const PigGame game;
  Rng rng(1, 0);
  double total = 0;
  for (auto _ : st) {
    total += search::rollout(game, game.initial_state(), search::RolloutPolicy::kRandom, 0, rng);
  }
  benchmark::DoNotOptimize(total);
  st.SetItemsProcessed(st.iterations());
}
BENCHMARK(BM_PigRandomPlayout);

// Self-play with MCTS (UCT c = 2, one random rollout per simulation, 1,000 simulations per move,
// tree reuse on): one item per simulation.  A game restarts whenever one ends.
void BM_PigMcts(benchmark::State& st) {
  const PigGame game;
  search::MctsConfig config;
  config.iterations = 1000;
  config.c = 2.0;
  search::Mcts<PigGame> mcts(game, config);
  mcts.new_game(7);
  Rng dice(7, 1);
  PigState state = game.initial_state();
  std::int64_t simulations = 0;
  for (auto _ : st) {
    while (game.current_player(state) == kChancePlayer || game.is_terminal(state)) {
      if (game.is_terminal(state)) {
        state = game.initial_state();
        continue;
      }
      const Action face = sample_chance(game, state, dice);
      mcts.advance(state, face);
      game.apply_chance(state, face);
    }
    const search::SearchResult r = mcts.search(state);
    simulations += r.nodes;
    mcts.advance(state, r.best);
    game.apply_action(state, r.best);
  }
  st.SetItemsProcessed(simulations);
}
BENCHMARK(BM_PigMcts)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace sling::pig
