// The exact best response to a fixed policy (solvers/best_response/): Pig's known answers and the
// `sling study best-response` command.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>

#include "engine/core/errors.h"
#include "engine/pig/pig.h"
#include "solvers/best_response/best_response.h"
#include "solvers/best_response/canonical.h"
#include "solvers/pig/solver.h"
#include "tests/run_sling.h"

namespace sling {
namespace {

constexpr int kGoal = 40;

pig::PigGame pig_game() {
  pig::PigRules rules;
  rules.goal = kGoal;
  return pig::PigGame(rules);
}

template <class Policy>
BestResponseResult respond(const pig::PigGame& game, Player responder, Policy policy,
                           const BestResponseOptions& options = {}) {
  return best_response(
      game, responder, policy, [&](const pig::PigState& s) { return best_response_key(game, s); },
      options);
}

// Against the optimal policy the best response can win no more than the game's value, and the
// optimal policy is a best response to itself, so it wins exactly that.
TEST(BestResponse, AgainstPigsOptimalPolicyItWinsTheGamesValue) {
  const pig::PigGame game = pig_game();
  const pig::PigSolution solution = pig::PigSolution::solve(kGoal);
  const auto optimal = [&](const pig::PigState& s) { return solution.best_action(s); };
  const double first = solution.first_player_win_probability();
  const BestResponseResult as_first = respond(game, 0, optimal);
  const BestResponseResult as_second = respond(game, 1, optimal);
  EXPECT_TRUE(as_first.converged);
  EXPECT_TRUE(as_second.converged);
  EXPECT_NEAR(as_first.win_probability, first, 1e-8);
  EXPECT_NEAR(as_second.win_probability, 1.0 - first, 1e-8);
}

// A side that never holds never banks a point: any holding opponent wins with certainty.
TEST(BestResponse, APigPlayerWhoNeverHoldsIsBeatenWithCertainty) {
  const pig::PigGame game = pig_game();
  const auto always_roll = [](const pig::PigState&) { return pig::kRoll; };
  EXPECT_NEAR(respond(game, 0, always_roll).win_probability, 1.0, 1e-8);
  EXPECT_NEAR(respond(game, 1, always_roll).win_probability, 1.0, 1e-8);
}

// Hold-at-20 is exploitable: the best response wins more than the game's value in both seats.
TEST(BestResponse, HoldAtTwentyIsExploitableInBothSeats) {
  const pig::PigGame game = pig_game();
  const double first = pig::PigSolution::solve(kGoal).first_player_win_probability();
  const auto hold_at_20 = [&](const pig::PigState& s) { return game.hold_at_action(s, 20); };
  EXPECT_GT(respond(game, 0, hold_at_20).win_probability, first + 0.005);
  EXPECT_GT(respond(game, 1, hold_at_20).win_probability, 1.0 - first + 0.005);
}

// Each sweep's value is a lower bound: cut short, it is below the converged value and says so.
TEST(BestResponse, ACutShortIterationIsALowerBoundAndSaysSo) {
  const pig::PigGame game = pig_game();
  const auto hold_at_20 = [&](const pig::PigState& s) { return game.hold_at_action(s, 20); };
  BestResponseOptions few;
  few.max_sweeps = 3;
  const BestResponseResult cut = respond(game, 0, hold_at_20, few);
  const BestResponseResult full = respond(game, 0, hold_at_20);
  EXPECT_FALSE(cut.converged);
  EXPECT_EQ(cut.sweeps, 3);
  EXPECT_GT(cut.last_change, few.tolerance);
  EXPECT_LT(cut.win_probability, full.win_probability);
  EXPECT_TRUE(full.converged);
}

// The policy played out wins its value: within four standard errors of 4,000 games (seed fixed),
// and every game against a side that never holds.
TEST(BestResponse, ThePolicyPlayedOutWinsItsValue) {
  const pig::PigGame game = pig_game();
  BestResponseOptions play;
  play.games = 4000;
  play.seed = 3;
  const auto hold_at_20 = [&](const pig::PigState& s) { return game.hold_at_action(s, 20); };
  for (const Player responder : {0, 1}) {
    const BestResponseResult r = respond(game, responder, hold_at_20, play);
    ASSERT_EQ(r.games, play.games);
    EXPECT_EQ(r.games_cut, 0);
    const double p = r.win_probability;
    const double rate = static_cast<double>(r.games_won) / r.games;
    EXPECT_NEAR(rate, p, 4 * std::sqrt(p * (1 - p) / r.games)) << "responder " << responder;
  }
  const auto always_roll = [](const pig::PigState&) { return pig::kRoll; };
  play.games = 200;
  const BestResponseResult sure = respond(game, 1, always_roll, play);
  EXPECT_EQ(sure.games_won, 200);
}

TEST(BestResponse, AGameLargerThanTheLimitIsRefusedWithOneLine) {
  const pig::PigGame game = pig_game();
  BestResponseOptions small;
  small.max_states = 1000;
  const auto hold_at_20 = [&](const pig::PigState& s) { return game.hold_at_action(s, 20); };
  try {
    respond(game, 0, hold_at_20, small);
    FAIL() << "expected a SlingError";
  } catch (const SlingError& e) {
    EXPECT_NE(std::string(e.what()).find("more than 1000 reachable states"), std::string::npos);
  }
}

// The memory budget is checked as the graph grows, so that a game too large for the machine is
// refused with one line rather than killed for running out of memory.
TEST(BestResponse, AGraphLargerThanTheMemoryBudgetIsRefusedWithOneLine) {
  const pig::PigGame game = pig_game();
  BestResponseOptions small;
  small.max_bytes = 1 << 20;
  const auto hold_at_20 = [&](const pig::PigState& s) { return game.hold_at_action(s, 20); };
  try {
    respond(game, 0, hold_at_20, small);
    FAIL() << "expected a SlingError";
  } catch (const SlingError& e) {
    const std::string line = e.what();
    EXPECT_NE(line.find("more than 1 MiB of memory"), std::string::npos) << line;
    EXPECT_EQ(line.find('\n'), std::string::npos);
  }
  EXPECT_TRUE(respond(game, 0, hold_at_20).converged);  // the default budget holds it
}

TEST(BestResponse, TheStudyCommandAnswersForBothSeatsAndRefusesBadInput) {
  const std::string rules = testing::TempDir() + "pig40.json";
  {
    std::FILE* f = std::fopen(rules.c_str(), "w");
    ASSERT_NE(f, nullptr);
    std::fputs("{\"goal\": 40}", f);
    std::fclose(f);
  }
  const testing_support::CommandRun both =
      testing_support::run_sling("study best-response pig --quiet --games 100 --rules " + rules);
  EXPECT_EQ(both.status, 0) << both.output;
  EXPECT_NE(both.output.find("first's best response to the heuristic second wins 0."),
            std::string::npos)
      << both.output;
  EXPECT_NE(both.output.find("over both seats the best response scores"), std::string::npos);
  EXPECT_NE(both.output.find("played out: it won "), std::string::npos) << both.output;
  const testing_support::CommandRun side =
      testing_support::run_sling("study best-response pig --responder nobody");
  EXPECT_NE(side.status, 0);
  EXPECT_NE(side.output.find("--responder"), std::string::npos) << side.output;
  const testing_support::CommandRun big = testing_support::run_sling("study best-response danelaw");
  EXPECT_NE(big.status, 0);
  EXPECT_NE(big.output.find("too many states"), std::string::npos) << big.output;
}

}  // namespace
}  // namespace sling
