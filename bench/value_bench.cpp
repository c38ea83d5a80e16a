// Value functions at the leaves of search: MCTS simulations per second with the duel's coarse
// value function (leaf=value) against rollouts, and the cost of one `lookahead` decision.  The
// value comes from a solution computed here (the 30 cm board at pitch 5, interpolated onto pitch
// 3), so the benchmark never reads or writes the user's cache.

#include <benchmark/benchmark.h>

#include <memory>
#include <vector>

#include "bench/duel_states.h"
#include "engine/duel/duel.h"
#include "search/mcts.h"
#include "solvers/duel/coarse_value.h"
#include "solvers/duel/refinement.h"
#include "solvers/duel/solver.h"

namespace sling::duel {
namespace {

DuelGame board(int pitch_cm) {
  DuelRules rules;
  rules.pitch_cm = pitch_cm;
  return DuelGame(rules);
}

const CoarseDuelValue& pitch3_value() {
  static const CoarseDuelValue value(board(3),
                                     std::make_shared<const DuelSolution>(solve_duel(board(5))));
  return value;
}

// The benchmark's states: decisions from games played by the duel's heuristic.
std::vector<DuelState> decision_states(const DuelGame& game, int count) {
  return bench::decision_states(
      game, count, [&](const DuelState& s, Rng& rng) { return game.heuristic_action(s, rng); });
}

// MCTS with 1,000 simulations per search on the 3 cm lattice; items = simulations.  Arg: 0 =
// random rollouts to the end (no value function), 1 = the coarse value at the leaves, 2 = half
// value, half random rollout (AlphaGo's mix), 3 and 4 = the value with expectation and
// expectimax backups (search/mcts.h).
void BM_DuelMctsValueLeaves(benchmark::State& st) {
  const CoarseDuelValue& value = pitch3_value();
  const DuelGame& game = value.game();
  const auto states = decision_states(game, 64);
  search::MctsConfig config;
  config.iterations = 1000;
  config.reuse = false;
  config.value_leaves = st.range(0) >= 1;
  config.value_rollout_weight = st.range(0) == 2 ? 0.5 : 0;
  config.backup = st.range(0) == 3   ? search::Backup::kExpectation
                  : st.range(0) == 4 ? search::Backup::kExpectimax
                                     : search::Backup::kSample;
  search::Mcts<DuelGame, CoarseDuelValue> mcts(game, config, &value);
  mcts.new_game(3);
  bench::time_searches(st, mcts, states);
}
BENCHMARK(BM_DuelMctsValueLeaves)
    ->Arg(0)
    ->Arg(1)
    ->Arg(2)
    ->Arg(3)
    ->Arg(4)
    ->Unit(benchmark::kMillisecond);

// One interpolated value at a turn start; items = values.
void BM_DuelCoarseDeclareValue(benchmark::State& st) {
  const CoarseDuelValue& value = pitch3_value();
  const DuelIndex index(value.game());
  std::vector<DuelState> declares;
  for (const DuelState& s : decision_states(value.game(), 400)) {
    if (index.index_of(s)) declares.push_back(s);
  }
  std::size_t i = 0;
  double sum = 0;
  for (auto _ : st) sum += value.declare_value(declares[i++ % declares.size()]);
  benchmark::DoNotOptimize(sum);
  st.SetItemsProcessed(static_cast<std::int64_t>(i));
}
BENCHMARK(BM_DuelCoarseDeclareValue);

// One `lookahead` decision (every legal action valued to the end of the turn) on the default
// 1 cm lattice, with the pitch-5 solution interpolated; items = decisions.
void BM_DuelLookaheadDecision(benchmark::State& st) {
  static const CoarseDuelValue value(board(1),
                                     std::make_shared<const DuelSolution>(solve_duel(board(5))));
  const auto states = decision_states(value.game(), 64);
  std::size_t i = 0;
  for (auto _ : st) {
    benchmark::DoNotOptimize(value.action_values(states[i++ % states.size()]));
  }
  st.SetItemsProcessed(static_cast<std::int64_t>(i));
}
BENCHMARK(BM_DuelLookaheadDecision)->Unit(benchmark::kMillisecond);

// Refining the pitch-5 values on the 3 cm lattice (settling, then the first Arg sweeps a layer)
// on the second Arg's threads; items = declare states of the lattice.  The speed-up from one
// thread to two is the refinement's scaling on this machine (docs/strength.md).
void BM_DuelRefinement(benchmark::State& st) {
  const CoarseDuelValue& value = pitch3_value();
  RefinementOptions options;
  options.sweeps = static_cast<int>(st.range(0));
  options.threads = static_cast<int>(st.range(1));
  std::size_t states = 0;
  for (auto _ : st) {
    const DuelSolution refined = refine_interpolated_values(value, options);
    states = refined.values().size();
    benchmark::DoNotOptimize(refined.summary().start);
  }
  st.SetItemsProcessed(st.iterations() * static_cast<std::int64_t>(states));
}
BENCHMARK(BM_DuelRefinement)
    ->Args({0, 2})
    ->Args({100, 1})
    ->Args({100, 2})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace
}  // namespace sling::duel
