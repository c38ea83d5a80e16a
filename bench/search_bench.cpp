// Search benchmarks on the duel: MCTS simulations per second and expectimax nodes per second, on a
// fixed spread of mid-game decision states from seeded random play.

#include <benchmark/benchmark.h>

#include <vector>

#include "bench/duel_states.h"
#include "engine/danelaw/danelaw.h"
#include "engine/duel/duel.h"
#include "search/expectimax.h"
#include "search/mcts.h"

namespace sling::duel {
namespace {

// The benchmark's states: decisions from games played by uniformly random play.
std::vector<DuelState> decision_states(const DuelGame& game, int count) {
  return bench::decision_states(game, count, [&](const DuelState& s, Rng& rng) {
    return sample_uniform_action(game, s, rng);
  });
}

// MCTS with 1,000 simulations per search; items = simulations.  Arg: 0 = random rollouts to the
// end, 1 = heuristic rollouts to the end.
void BM_DuelMcts(benchmark::State& st) {
  const DuelGame game;
  const auto states = decision_states(game, 64);
  search::MctsConfig config;
  config.iterations = 1000;
  config.reuse = false;
  config.rollout =
      st.range(0) == 1 ? search::RolloutPolicy::kHeuristic : search::RolloutPolicy::kRandom;
  config.repetition_penalty = st.range(1) == 1 ? 0.02 : 0;  // the agents' default: the rule on
  search::Mcts<DuelGame> mcts(game, config);
  mcts.new_game(3);
  bench::time_searches(st, mcts, states);
}
// Args: rollout (0 random, 1 heuristic), repetition rule (0 off, 1 on).
BENCHMARK(BM_DuelMcts)->Args({0, 0})->Args({1, 0})->Args({0, 1})->Unit(benchmark::kMillisecond);

// Expectimax (Star1, evaluate hook at the leaves, 16 MB table) with 20,000 nodes per search;
// items = nodes.
void BM_DuelExpectimax(benchmark::State& st) {
  const DuelGame game;
  const auto states = decision_states(game, 64);
  search::ExpectimaxConfig config;
  config.nodes = 20000;
  config.repetition_penalty = st.range(0) == 1 ? 0.02 : 0;
  search::Expectimax<DuelGame> search(game, config);
  search.new_game(3);
  bench::time_searches(st, search, states);
}
// Arg: the repetition rule (0 off, 1 on, the agent's default).
BENCHMARK(BM_DuelExpectimax)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace sling::duel

namespace sling::danelaw {
namespace {

// MCTS on danelaw from the opening (200 simulations per search, random rollouts cut at 40 plies, no
// tree reuse; danelaw has no evaluate hook, so a cut rollout is a draw); items = simulations.
void BM_DanelawMcts(benchmark::State& st) {
  const DanelawGame game;
  search::MctsConfig config;
  config.iterations = 200;
  config.rollout_plies = 40;
  config.reuse = false;
  search::Mcts<DanelawGame> mcts(game, config);
  mcts.new_game(5);
  Rng dice(5, 0);
  DanelawGame::State state = game.initial_state();
  while (game.current_player(state) == kChancePlayer) {
    game.apply_chance(state, sample_chance(game, state, dice));
  }
  std::int64_t simulations = 0;
  for (auto _ : st) simulations += mcts.search(state).nodes;
  st.SetItemsProcessed(simulations);
}
BENCHMARK(BM_DanelawMcts)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace sling::danelaw
