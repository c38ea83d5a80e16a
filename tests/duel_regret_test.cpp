// The regret study (experiments/studies/duel_regret.h) on a small solved duel: exact play gives
// nothing away, and an agent's regret a game adds up to its loss against the solved value.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "experiments/studies/duel_regret.h"
#include "solvers/duel/solve.h"
#include "tests/run_sling.h"

namespace sling::duel {
namespace {

// A 16 cm board at a 3 cm pitch: solved in well under a second.
const std::string& small_solution_file() {
  static const std::string file = [] {
    DuelRules rules;
    rules.board_cm = 16;
    rules.pitch_cm = 3;
    const std::string path = ::testing::TempDir() + "regret_small.sol";
    solve_duel(DuelGame(rules)).save(path);
    return path;
  }();
  return file;
}

RegretResult study(const std::string& agent, Side side, int games) {
  RegretOptions options;
  options.solution_file = small_solution_file();
  options.agent = agent;
  options.side = side;
  options.games = games;
  options.seed = 11;
  return measure_regret(options);
}

TEST(DuelRegret, ExactPlayGivesNothingAway) {
  for (const Side side : {kDavid, kGoliath}) {
    const RegretResult r = study("solver:file=" + small_solution_file(), side, 50);
    EXPECT_LT(r.regret_per_game, 1e-12);  // rounding of 1 - value only
    for (const RegretRow& row : r.rows) EXPECT_EQ(row.mistakes, 0) << row.kind;
    EXPECT_FALSE(r.rows.empty());
  }
}

// Against an exact opponent, the expected regret a game is the solved value less the expected win
// rate: the two estimates agree within four standard errors (both added, a conservative bound).
TEST(DuelRegret, RegretAddsUpToTheLossAgainstTheSolvedValue) {
  for (const auto& [agent, side] : {std::pair<std::string, Side>{"random", kDavid},
                                    std::pair<std::string, Side>{"heuristic", kGoliath}}) {
    const RegretResult r = study(agent, side, 400);
    EXPECT_EQ(r.cut, 0);
    const double win_rate = static_cast<double>(r.wins) / r.games;
    const double win_error = std::sqrt(win_rate * (1 - win_rate) / r.games);
    EXPECT_GT(r.regret_per_game, 0.01) << agent;
    EXPECT_NEAR(r.solved_value - win_rate, r.regret_per_game,
                4 * (win_error + r.regret_standard_error))
        << agent;
  }
}

TEST(DuelRegret, TheStudyCommandPrintsTheTableAndRefusesBadInput) {
  const auto ok = testing_support::run_sling("study regret --solution " + small_solution_file() +
                                             " --agent heuristic --games 20");
  EXPECT_EQ(ok.status, 0) << ok.output;
  EXPECT_NE(ok.output.find("heuristic as david against the exact goliath gives away"),
            std::string::npos)
      << ok.output;
  EXPECT_NE(ok.output.find("destination"), std::string::npos);
  const auto side = testing_support::run_sling("study regret --solution " + small_solution_file() +
                                               " --agent heuristic --side nobody");
  EXPECT_NE(side.status, 0);
  EXPECT_NE(side.output.find("--side"), std::string::npos) << side.output;
  const auto agent = testing_support::run_sling("study regret --solution " + small_solution_file() +
                                                " --agent nonsense");
  EXPECT_NE(agent.status, 0);
  EXPECT_EQ(agent.output.find('\n'), agent.output.size() - 1) << agent.output;
  const auto file =
      testing_support::run_sling("study regret --solution /nonexistent/duel.sol --agent heuristic");
  EXPECT_NE(file.status, 0);
  EXPECT_EQ(file.output.find('\n'), file.output.size() - 1) << file.output;
}

}  // namespace
}  // namespace sling::duel
