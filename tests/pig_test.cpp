// Pig: the conformance suite, the rules, and the exact solver against the published value.

#include <unistd.h>

#include <gtest/gtest.h>

#include <filesystem>

#include "engine/core/io.h"
#include "engine/pig/pig.h"
#include "solvers/pig/solver.h"
#include "tests/conformance.h"

namespace sling::testing {
// Pig has no geometry and few states: 300 playouts (about 60,000 checked plies) cover it, and keep
// the suite quick under the sanitizers.
template <>
struct ConformanceTraits<sling::pig::PigGame> {
  static constexpr int kPlayouts = 300;
  static constexpr int kMaxPlies = 100000;
};
INSTANTIATE_TYPED_TEST_SUITE_P(Pig, Conformance, ::testing::Types<sling::pig::PigGame>);

// A shorter race: other terminal thresholds and hold decisions.
struct PigToTwentyFive {
  using Game = sling::pig::PigGame;
  static Game make() { return Game::from_rules_json(R"({"goal": 25})"); }
  static constexpr int kPlayouts = 300;
};
INSTANTIATE_TYPED_TEST_SUITE_P(PigVariants, Conformance, ::testing::Types<PigToTwentyFive>);
}  // namespace sling::testing

namespace sling::pig {
namespace {

TEST(PigRules, RollAddsFaceOneLosesTurnHoldBanks) {
  const PigGame game;
  PigState s = game.initial_state();
  game.apply_action(s, kRoll);
  EXPECT_EQ(game.current_player(s), kChancePlayer);
  game.apply_chance(s, 5);
  EXPECT_EQ(s.turn_total, 5);
  EXPECT_EQ(game.current_player(s), 0);
  game.apply_action(s, kRoll);
  game.apply_chance(s, 1);
  EXPECT_EQ(s.turn_total, 0);
  EXPECT_EQ(s.scores[0], 0);
  EXPECT_EQ(game.current_player(s), 1);
  game.apply_action(s, kRoll);
  game.apply_chance(s, 6);
  game.apply_action(s, kHold);
  EXPECT_EQ(s.scores[1], 6);
  EXPECT_EQ(game.current_player(s), 0);
}

TEST(PigRules, BankingTheGoalWins) {
  const PigGame game(PigRules{10});
  PigState s = game.initial_state();
  game.apply_action(s, kRoll);
  game.apply_chance(s, 6);
  game.apply_action(s, kRoll);
  game.apply_chance(s, 4);
  EXPECT_FALSE(game.is_terminal(s));  // the points are not banked yet
  game.apply_action(s, kHold);
  EXPECT_TRUE(game.is_terminal(s));
  EXPECT_EQ(game.returns(s)[0], 1.0);
  EXPECT_EQ(game.winner(s), 0);
}

TEST(PigRules, BadRulesAreRulesErrors) {
  EXPECT_THROW(PigGame::from_rules_json(R"({"goal": 0})"), RulesError);
  EXPECT_THROW(PigGame::from_rules_json(R"({"goal": "ten"})"), RulesError);
  EXPECT_EQ(PigGame::from_rules_json(R"({"goal": 50})").goal(), 50);
  EXPECT_EQ(PigGame::from_rules_json("{}").goal(), 100);
}

TEST(PigRules, ChanceAtDecisionAndDecisionAtChanceAreIllegal) {
  const PigGame game;
  PigState s = game.initial_state();
  EXPECT_THROW(game.apply_chance(s, 3), IllegalActionError);
  game.apply_action(s, kRoll);
  EXPECT_THROW(game.apply_action(s, kHold), IllegalActionError);
  EXPECT_THROW(game.apply_chance(s, 7), IllegalActionError);
  EXPECT_THROW(game.parse_action(s, "9"), ParseError);
  EXPECT_EQ(game.parse_action(s, "4"), 4u);
}

TEST(PigRules, HeuristicHoldsAtTwentyOrAtTheGoal) {
  const PigGame game(PigRules{30});
  Rng rng(1, 1);
  PigState s{};
  s.turn_total = 19;
  EXPECT_EQ(game.heuristic_action(s, rng), kRoll);
  s.turn_total = 20;
  EXPECT_EQ(game.heuristic_action(s, rng), kHold);
  s.turn_total = 5;
  s.scores[0] = 25;
  EXPECT_EQ(game.heuristic_action(s, rng), kHold);
}

TEST(PigSolver, FirstPlayerWinsAboutPointFiveThreeOhSixAtGoalHundred) {
  // Neller and Presser (2004) publish about 0.5306 (to the four decimals given, so within 5e-5).
  const PigSolution solution = PigSolution::solve(100);
  EXPECT_NEAR(solution.first_player_win_probability(), 0.5306, 5e-5);
  // To nine decimals, as a plain Jacobi value iteration over the whole state cube (a different
  // method from the partitioned Gauss-Seidel solver) also gives: 0.530592725.
  EXPECT_NEAR(solution.first_player_win_probability(), 0.530592725, 1e-9);
  // The optimal policy rolls at 0-0 with nothing at risk, holds with 30 at risk early on, and
  // holds when holding wins.
  EXPECT_EQ(solution.best_action(PigState{{0, 0}, 0, 0, Phase::kDecision}), kRoll);
  EXPECT_EQ(solution.best_action(PigState{{0, 0}, 30, 0, Phase::kDecision}), kHold);
  EXPECT_EQ(solution.best_action(PigState{{95, 0}, 5, 0, Phase::kDecision}), kHold);
}

TEST(PigSolver, TinyGoalMatchesHandValue) {
  // Goal 1: any face but 1 wins once held, so roll, then hold.  With p the mover's win chance:
  // p = 5/6 + 1/6 (1 - p)  =>  p = 6/7.
  const PigSolution solution = PigSolution::solve(1);
  EXPECT_NEAR(solution.first_player_win_probability(), 6.0 / 7.0, 1e-12);
}

TEST(PigSolver, PolicyFileRoundTripsAndRejectsCorruption) {
  const PigSolution solution = PigSolution::solve(20);
  const std::string bytes = solution.to_binary();
  const PigSolution copy = PigSolution::from_binary(bytes);
  EXPECT_EQ(copy.goal(), 20);
  EXPECT_DOUBLE_EQ(copy.first_player_win_probability(), solution.first_player_win_probability());
  EXPECT_THROW(PigSolution::from_binary(bytes.substr(0, bytes.size() / 2)), FileFormatError);
  EXPECT_THROW(PigSolution::from_binary("hello world, not a policy"), FileFormatError);
  EXPECT_THROW(PigSolution::from_binary(""), FileFormatError);
  std::string wrong_version = bytes;
  wrong_version[8 + 16] = 9;  // the version follows the 8-byte length and the 16-byte magic
  EXPECT_THROW(PigSolution::from_binary(wrong_version), FileFormatError);

  const auto path = std::filesystem::temp_directory_path() /
                    ("sling_pig_policy_test_" + std::to_string(::getpid()) + ".bin");
  solution.save(path.string());
  EXPECT_EQ(PigSolution::load(path.string()).goal(), 20);
  std::filesystem::remove(path);
  EXPECT_THROW(PigSolution::load(path.string()), FileFormatError);
}

TEST(PigSolver, GoalOutOfRangeIsRefused) {
  EXPECT_THROW(PigSolution::solve(0), RulesError);
  EXPECT_THROW(PigSolution::solve(PigSolution::kMaxSolvableGoal + 1), RulesError);
}

}  // namespace
}  // namespace sling::pig
