// `lookahead` on the game's own exact solution (same_lattice, with it in the cache) plays as the
// solver does: the solution's own action values, greedily.  Values recomputed by the interpolation
// and ties broken by the plateau margin made it wait for ever on the 30 cm board at 3 cm.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <memory>

#include "agents/duel_lookahead_agent.h"
#include "agents/registry.h"
#include "solvers/duel/solution_cache.h"
#include "solvers/duel/solve.h"
#include "tests/duel_positions.h"

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

// Interpolated values break near-ties toward closing in, so the move played can be valued a
// little below the best: the analysis then values the position by the move played and its note
// says why, so that a hint starring that move (play/hint.h) does not contradict its own rows.
TEST(DuelLookahead, ATieBrokenBelowTheHighestValueIsExplainedAndValuedByTheMovePlayed) {
  duel::DuelRules rules = duel_positions::pitch3_without_god();
  rules.board_cm = 16;  // a small board: the coarse solution takes a second or less
  const duel::DuelGame game(rules);
  auto agent = make_agent(game, "lookahead:value_pitch=4,tie=0.1");
  int broken = 0;
  for (int face = 1; face <= 6; ++face) {
    // A movement die of `face` (some faces end in another phase on this small board: skipped).
    duel::DuelState s = duel_positions::david_declares(game);
    game.apply_unchecked(s, duel::act::kMove);
    game.apply_unchecked(s, static_cast<Action>(face));
    if (s.phase != duel::Phase::kDestination) continue;
    agent->new_game(1);
    const Action chosen = agent->act(s);
    const Analysis analysis = agent->last_analysis();
    ASSERT_FALSE(analysis.actions.empty());
    const auto played = std::find_if(analysis.actions.begin(), analysis.actions.end(),
                                     [&](const ActionStat& stat) { return stat.action == chosen; });
    ASSERT_NE(played, analysis.actions.end());
    EXPECT_DOUBLE_EQ(analysis.value, played->value) << "face " << face;
    if (played->value < analysis.actions.front().value) {
      ++broken;
      EXPECT_NE(analysis.note.find("closes in soonest"), std::string::npos) << analysis.note;
      EXPECT_NE(analysis.note.find("within 10.0 points"), std::string::npos) << analysis.note;
    } else {
      EXPECT_TRUE(analysis.note.empty()) << analysis.note;
    }
  }
  EXPECT_GT(broken, 0) << "no die of six made the tie rule play below the best value";
}

}  // namespace
}  // namespace sling
