// The capped duel's backward induction (docs/solver.md, "The capped duel"): a whole solve, which
// carries Goliath's win probability alongside the values, and the values-only recomputation that
// play does from a keyframe.

#include <benchmark/benchmark.h>

#include <tbb/global_control.h>

#include "solvers/duel/capped_solve.h"

namespace sling::duel {
namespace {

DuelGame capped_game(int pitch, int cap) {
  DuelRules rules;
  rules.pitch_cm = pitch;
  rules.turn_cap = cap;
  return DuelGame(rules);
}

void BM_SolveDuelCapped(benchmark::State& st) {
  const DuelGame game = capped_game(static_cast<int>(st.range(0)), static_cast<int>(st.range(1)));
  CappedOptions options;
  options.threads = static_cast<int>(st.range(2));
  CappedSummary summary;
  for (auto _ : st) {
    const CappedDuelSolution solution = solve_capped_duel(game, CappedObjective::kScore, options);
    summary = solution.summary();
    benchmark::DoNotOptimize(summary.start.value);
  }
  st.counters["states"] = static_cast<double>(summary.states);
  st.counters["state_turns_per_s"] =
      benchmark::Counter(static_cast<double>(summary.canonical_states) * summary.turn_cap,
                         benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_SolveDuelCapped)
    ->Args({3, 20, 1})
    ->Args({3, 20, 2})
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);

// The values with every count of turns left up to the cap, recomputed without the carried
// probability (what values_at does between keyframes), on two threads.
void BM_CappedValuesRecomputed(benchmark::State& st) {
  const int cap = static_cast<int>(st.range(1));
  const DuelGame game = capped_game(static_cast<int>(st.range(0)), cap);
  CappedSummary summary;
  summary.turn_cap = cap;
  summary.keyframe_every = cap;
  summary.layers = 6;
  tbb::global_control threads(tbb::global_control::max_allowed_parallelism, 2);
  for (auto _ : st) {
    const CappedDuelSolution solution(game, summary, {});
    benchmark::DoNotOptimize(solution.values_at(cap)->data());
  }
}
BENCHMARK(BM_CappedValuesRecomputed)->Args({3, 20})->Unit(benchmark::kMillisecond)->Iterations(1);

}  // namespace
}  // namespace sling::duel
