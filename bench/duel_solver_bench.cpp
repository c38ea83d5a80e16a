// Exact duel solver benchmarks: whole solves on coarse lattices (states per second of the
// layered value iteration and its certification), and the solver agent's decision time.

#include <benchmark/benchmark.h>

#include "solvers/duel/solver.h"

namespace sling::duel {
namespace {

void BM_SolveDuel(benchmark::State& st) {
  DuelRules rules;
  rules.pitch_cm = static_cast<int>(st.range(0));
  const DuelGame game(rules);
  SolverOptions options;
  options.threads = static_cast<int>(st.range(1));
  options.nontermination = false;
  SolveSummary summary;
  for (auto _ : st) {
    const DuelSolution solution = solve_duel(game, options);
    summary = solution.summary();
    benchmark::DoNotOptimize(summary.start);
  }
  st.counters["states"] = static_cast<double>(summary.states);
  st.counters["sweeps"] = summary.sweeps;
  st.counters["state_updates_per_s"] = benchmark::Counter(
      static_cast<double>(summary.canonical_states) / summary.layers * summary.sweeps,
      benchmark::Counter::kIsIterationInvariantRate);
  st.counters["gap"] = summary.upper_bound - summary.lower_bound;
}
BENCHMARK(BM_SolveDuel)
    ->Args({3, 1})
    ->Args({3, 2})
    ->Args({2, 2})
    ->Unit(benchmark::kSecond)
    ->Iterations(1);

// The loose solve made exact by strategy improvement (docs/solver.md, step 1b): the same
// bracket as the full-tolerance solve, from a solve stopped at a per-sweep change of 1e-6.
void BM_SolveDuelImproved(benchmark::State& st) {
  DuelRules rules;
  rules.pitch_cm = static_cast<int>(st.range(0));
  const DuelGame game(rules);
  SolverOptions options;
  options.threads = 2;
  options.nontermination = false;
  options.tolerance = 1e-6;
  options.policy_improvements = 30;
  SolveSummary summary;
  for (auto _ : st) {
    const DuelSolution solution = solve_duel(game, options);
    summary = solution.summary();
    benchmark::DoNotOptimize(summary.start);
  }
  int products = 0;
  for (const PassReport& p : summary.passes) products += p.pass == "improve" ? p.sweeps : 0;
  st.counters["improvement_steps"] = summary.improvements;
  st.counters["improvement_products"] = products;
  st.counters["sweeps"] = summary.sweeps;
  st.counters["gap"] = summary.upper_bound - summary.lower_bound;
}
BENCHMARK(BM_SolveDuelImproved)->Arg(3)->Arg(2)->Unit(benchmark::kSecond)->Iterations(1);

// The solver agent's work per decision: the exact value of every legal action of a state.
void BM_SolverActionValues(benchmark::State& st) {
  DuelRules rules;
  rules.pitch_cm = 3;
  const DuelGame game(rules);
  SolverOptions options;
  options.nontermination = false;
  const DuelSolution solution = solve_duel(game, options);
  std::vector<DuelState> states;
  Rng rng(5, 0);
  DuelState s = game.initial_state();
  while (states.size() < 256) {
    if (game.is_terminal(s)) s = game.initial_state();
    if (game.current_player(s) == kChancePlayer) {
      game.apply_chance(s, sample_chance(game, s, rng));
    } else {
      states.push_back(s);
      game.apply_action(s, solution.best_action(s));
    }
  }
  std::size_t i = 0;
  for (auto _ : st) {
    benchmark::DoNotOptimize(solution.action_values(states[i++ % states.size()]));
  }
}
BENCHMARK(BM_SolverActionValues)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace sling::duel
