// `lookahead` on the game's own exact solution (same_lattice, with it in the cache) plays as the
// solver does: the solution's own action values, greedily.  Values recomputed by the interpolation
// and ties broken by the plateau margin made it wait for ever on the 30 cm board at 3 cm.
#include <gtest/gtest.h>

#include <filesystem>
#include <memory>

#include "agents/duel_lookahead_agent.h"
#include "agents/registry.h"
#include "solvers/duel/solution_cache.h"
#include "solvers/duel/solve.h"

namespace sling {
namespace {

TEST(DuelLookahead, OnTheGamesOwnExactSolutionItPlaysTheSolversMoves) {
  duel::DuelRules rules;  // the 30 cm board at 3 cm: solved in about 5 s, and it has the plateaus
  rules.pitch_cm = 3;
  const duel::DuelGame game(rules);
  auto solution = std::make_shared<const duel::DuelSolution>(duel::solve_duel(game));
  auto value = std::make_shared<const duel::CoarseDuelValue>(
      game, solution, duel::CoarseDuelValue::Scope::kAllActions);
  ASSERT_TRUE(value->exact());
  DuelLookaheadAgent lookahead(value, 3, true, DuelRefineOptions{}, false, nullptr, 0.02, 0.0);
  int decisions = 0;
  for (int g = 0; g < 10; ++g) {
    Rng dice(5, static_cast<std::uint64_t>(g));
    lookahead.new_game(static_cast<std::uint64_t>(g));
    duel::DuelState s = game.initial_state();
    int plies = 0;
    for (; !game.is_terminal(s) && plies < 20000; ++plies) {
      const Player player = game.current_player(s);
      if (player == kChancePlayer) {
        game.apply_chance(s, sample_chance(game, s, dice));
        continue;
      }
      const Action exact = solution->best_action(s);
      if (player == duel::kDavid) {
        const Action chosen = lookahead.act(s);
        EXPECT_EQ(chosen, exact) << game.state_to_string(s);
        ++decisions;
        const duel::DuelState before = s;
        game.apply_action(s, chosen);
        lookahead.observe(before, chosen);
      } else {
        const duel::DuelState before = s;
        game.apply_action(s, exact);
        lookahead.observe(before, exact);
      }
    }
    EXPECT_TRUE(game.is_terminal(s)) << "game " << g << " stalled for " << plies << " plies";
  }
  EXPECT_GT(decisions, 100);
}

// The way a player meets it: `strong` at 3 cm finds the 3 cm solution in the cache (left there by
// `strong` at 1 cm, whose values it is) and must still finish its games against the exact Goliath.
TEST(DuelLookahead, StrongWithTheGamesOwnSolutionInTheCacheFinishesItsGames) {
  duel::DuelRules rules;
  rules.pitch_cm = 3;
  const duel::DuelGame game(rules);
  const std::string cache = ::testing::TempDir() + "lookahead-cache";
  std::filesystem::create_directories(cache);
  disk_cache_settings.set_directory(cache);
  const duel::DuelSolution solution = duel::solve_duel(game);
  solution.save(duel::duel_solution_cache_path(game, cache));
  auto david = make_agent(game, "strong");
  for (int g = 0; g < 10; ++g) {
    Rng dice(7, static_cast<std::uint64_t>(g));
    david->new_game(static_cast<std::uint64_t>(g));
    duel::DuelState s = game.initial_state();
    int plies = 0;
    for (; !game.is_terminal(s) && plies < 3000; ++plies) {
      const Player player = game.current_player(s);
      const Action a = player == kChancePlayer  ? sample_chance(game, s, dice)
                       : player == duel::kDavid ? david->act(s)
                                                : solution.best_action(s);
      const duel::DuelState before = s;
      apply_any(game, s, a);
      david->observe(before, a);
    }
    EXPECT_TRUE(game.is_terminal(s)) << "game " << g << " stalled for " << plies << " plies";
  }
  disk_cache_settings.set_directory("");
}

}  // namespace
}  // namespace sling
