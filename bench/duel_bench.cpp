// Duel engine benchmarks: state copy, legal-action generation, apply, and whole random games.

#include <benchmark/benchmark.h>

#include "engine/duel/duel.h"

namespace sling::duel {
namespace {

// A spread of mid-game states from seeded random play, so each benchmark sees varied positions.
std::vector<DuelState> sample_states(const DuelGame& game, int count) {
  std::vector<DuelState> states;
  Rng rng(11, 0);
  while (static_cast<int>(states.size()) < count) {
    DuelState s = game.initial_state();
    while (!game.is_terminal(s) && static_cast<int>(states.size()) < count) {
      if (game.current_player(s) == kChancePlayer) {
        game.apply_chance(s, sample_chance(game, s, rng));
      } else {
        states.push_back(s);
        game.apply_action(s, sample_uniform_action(game, s, rng));
      }
    }
  }
  return states;
}

void BM_DuelStateCopy(benchmark::State& st) {
  const DuelGame game;
  const auto states = sample_states(game, 1024);
  std::size_t i = 0;
  DuelState copy;
  for (auto _ : st) {
    copy = states[i++ & 1023];
    benchmark::DoNotOptimize(copy);
    benchmark::ClobberMemory();
  }
  st.SetItemsProcessed(st.iterations());
}
BENCHMARK(BM_DuelStateCopy);

void BM_DuelLegalActions(benchmark::State& st) {
  const DuelGame game;
  const auto states = sample_states(game, 1024);
  std::size_t i = 0;
  ActionList<DuelGame> actions;
  std::int64_t total = 0;
  for (auto _ : st) {
    game.legal_actions(states[i++ & 1023], actions);
    total += static_cast<std::int64_t>(actions.size());
    benchmark::DoNotOptimize(actions.data());
  }
  st.SetItemsProcessed(st.iterations());
  st.counters["actions_per_call"] =
      static_cast<double>(total) / static_cast<double>(st.iterations());
}
BENCHMARK(BM_DuelLegalActions);

void BM_DuelApply(benchmark::State& st) {
  const DuelGame game;
  const auto states = sample_states(game, 1024);
  std::vector<Action> chosen;
  Rng rng(5, 0);
  for (const auto& s : states) chosen.push_back(sample_uniform_action(game, s, rng));
  std::size_t i = 0;
  for (auto _ : st) {
    const std::size_t k = i++ & 1023;
    DuelState s = states[k];
    game.apply_action(s, chosen[k]);
    benchmark::DoNotOptimize(s);
  }
  st.SetItemsProcessed(st.iterations());
}
BENCHMARK(BM_DuelApply);

void BM_DuelRandomPlayout(benchmark::State& st) {
  const DuelGame game;
  Rng rng(7, 0);
  std::int64_t plies = 0;
  for (auto _ : st) {
    DuelState s = game.initial_state();
    while (!game.is_terminal(s)) {
      if (game.current_player(s) == kChancePlayer) {
        game.apply_chance(s, sample_chance(game, s, rng));
      } else {
        game.apply_action(s, sample_uniform_action(game, s, rng));
      }
      ++plies;
    }
    benchmark::DoNotOptimize(s);
  }
  st.SetItemsProcessed(st.iterations());
  st.counters["plies_per_second"] =
      benchmark::Counter(static_cast<double>(plies), benchmark::Counter::kIsRate);
  st.counters["plies_per_game"] = static_cast<double>(plies) / static_cast<double>(st.iterations());
}
BENCHMARK(BM_DuelRandomPlayout);

}  // namespace
}  // namespace sling::duel
