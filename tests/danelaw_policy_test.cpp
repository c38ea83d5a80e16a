// The danelaw hooks for search and agents: the rule-based policy and the reduced candidate set.
// (The learned evaluation is danelaw's AI, tested in danelaw_value_test.cpp.)

#include <gtest/gtest.h>

#include <algorithm>

#include "engine/danelaw/danelaw.h"

namespace sling::danelaw {
namespace {

// Plays one game; each side uses the heuristic policy or uniformly random legal actions.  Every
// decision goes through apply_action, so an illegal heuristic move would throw.
State play(const DanelawGame& game, bool danes_heuristic, bool english_heuristic, Rng rng) {
  State s = game.initial_state();
  while (!game.is_terminal(s)) {
    if (game.current_player(s) == kChancePlayer) {
      game.apply_chance(s, sample_chance(game, s, rng));
      continue;
    }
    const bool heuristic = game.current_player(s) == kDanes ? danes_heuristic : english_heuristic;
    game.apply_action(
        s, heuristic ? game.heuristic_action(s, rng) : sample_uniform_action(game, s, rng));
  }
  return s;
}

// 20 seeded games a side.  In 40-game trial runs the policy won every game against random play on
// either side; requiring 16 of 20 leaves room for a policy that is merely much better than random
// (a true win rate of 0.95 fails this test with probability below 2%).
TEST(DanelawPolicy, HeuristicDanesBeatRandomEnglish) {
  const DanelawGame game;
  int wins = 0;
  for (int i = 0; i < 20; ++i) wins += play(game, true, false, Rng(11, i)).winner == kDanes;
  EXPECT_GE(wins, 16);
}

TEST(DanelawPolicy, HeuristicEnglishBeatRandomDanes) {
  const DanelawGame game;
  int wins = 0;
  for (int i = 0; i < 20; ++i) wins += play(game, false, true, Rng(12, i)).winner == kEnglish;
  EXPECT_GE(wins, 16);
}

TEST(DanelawPolicy, CandidatesAreANonEmptySubsetOfTheLegalActions) {
  const DanelawGame game;
  Rng rng(21, 0);
  int reduced = 0;
  for (int g = 0; g < 3; ++g) {
    State s = game.initial_state();
    while (!game.is_terminal(s)) {
      if (game.current_player(s) == kChancePlayer) {
        game.apply_chance(s, sample_chance(game, s, rng));
        continue;
      }
      ActionList<DanelawGame> legal, candidates;
      game.legal_actions(s, legal);
      game.candidate_actions(s, candidates);
      ASSERT_FALSE(candidates.empty());
      for (Action a : candidates) {
        ASSERT_NE(std::find(legal.begin(), legal.end(), a), legal.end());
      }
      reduced += candidates.size() < legal.size();
      game.apply_action(s, game.heuristic_action(s, rng));
    }
  }
  EXPECT_GT(reduced, 0);
}

}  // namespace
}  // namespace sling::danelaw
