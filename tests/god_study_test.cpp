// The God study on a small board: the report and its figures are written and consistent with
// the solution.

#include <unistd.h>

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>

#include "engine/core/errors.h"
#include "engine/core/io.h"
#include "experiments/studies/god_study.h"
#include "tests/svg_check.h"

namespace sling::duel {
namespace {

TEST(GodStudy, WritesTheReportWithFiguresConsistentWithTheSolution) {
  DuelRules rules;
  rules.board_cm = 16;
  rules.pitch_cm = 4;
  const DuelSolution solution = solve_duel(DuelGame(rules));
  const std::string dir = ::testing::TempDir() + "sling_god_study_" + std::to_string(::getpid());
  const std::string file = dir + "/duel.sol";
  std::filesystem::create_directories(dir);
  solution.save(file);
  GodStudyOptions options;
  options.games = 400;
  options.matchup_games = 4;
  options.agents = {"solver", "heuristic", "random"};
  options.solution_file = file;
  const GodStudyResult result = write_god_study(solution, options, dir);
  EXPECT_EQ(result.games, 400);
  EXPECT_EQ(result.cut_games, 0);
  EXPECT_GT(result.mean_plies, 4.0);  // the initiative, a declaration and a shot's three dice
  EXPECT_GE(result.max_plies, result.mean_plies);
  EXPECT_GT(result.god_used_games, 0);
  std::int64_t uses = 0;
  for (std::int64_t n : result.use_by_turn) uses += n;
  EXPECT_EQ(uses, result.god_used_games);
  std::int64_t rerolls = 0;
  for (const RollStudy& r : result.by_roll) {
    EXPECT_LE(r.rerolled, r.offered);
    EXPECT_GE(r.gain, 0.0);  // optimal play re-rolls only when it gains
    rerolls += r.rerolled;
  }
  EXPECT_EQ(rerolls, result.god_used_games);  // God is used at most once per game
  const std::string report = read_file(dir + "/report.md");
  EXPECT_NE(report.find("# When should David invoke God?"), std::string::npos);
  EXPECT_NE(report.find("## Matchups"), std::string::npos);
  EXPECT_NE(report.find("rules of thumb"), std::string::npos);
  EXPECT_TRUE(std::filesystem::exists(dir + "/god-turn.svg"));
  EXPECT_TRUE(std::filesystem::exists(dir + "/heat-north-god-stone.svg"));
  EXPECT_NE(read_file(dir + "/heat-north-god-stone.svg").find("<svg"), std::string::npos);
  // Every figure renders, and its labels are neither cut nor overlapping.
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() != ".svg") continue;
    const std::string svg = read_file(entry.path().string());
    for (const std::string& problem : testing_support::svg_label_problems(svg, 1)) {
      ADD_FAILURE() << entry.path().filename() << ": " << problem;
    }
    EXPECT_EQ(testing_support::render_svg(svg, entry.path().stem().string()), "");
  }
  // The report opens with plain advice; the per-game counts are in the appendix.
  EXPECT_LT(report.find("## In short"), report.find("## Headline"));
  EXPECT_LT(report.find("## Appendix"), report.find("offered per game"));
}

// A game stopped at the ply limit is reported as cut, not silently counted as a loss.
TEST(GodStudy, GamesStoppedAtThePlyLimitAreReportedAsCut) {
  DuelRules rules;
  rules.board_cm = 16;
  rules.pitch_cm = 4;
  const DuelSolution solution = solve_duel(DuelGame(rules));
  const std::string dir =
      ::testing::TempDir() + "sling_god_study_cut_" + std::to_string(::getpid());
  GodStudyOptions options;
  options.games = 50;
  options.matchup_games = 0;
  options.max_plies = 2;  // no game ends within two plies
  const GodStudyResult result = write_god_study(solution, options, dir);
  EXPECT_EQ(result.cut_games, 50);
  EXPECT_EQ(result.david_wins, 0);
  EXPECT_EQ(result.max_plies, 2);
  EXPECT_NE(read_file(dir + "/report.md").find("50 games reached the limit of 2 plies"),
            std::string::npos);
  options.max_plies = 0;
  EXPECT_THROW(write_god_study(solution, options, dir), OptionError);
}

// A game still running at the settling point is scored at its exact value.  Optimal play keeps
// the exact value's expectation, so the mean score stays the start's value: settling every game
// after a few plies gives it with less spread than the wins alone.
TEST(GodStudy, SettledGamesScoreTheirExactValueAndKeepTheExpectedScore) {
  DuelRules rules;
  rules.board_cm = 16;
  rules.pitch_cm = 4;
  const DuelSolution solution = solve_duel(DuelGame(rules));
  const std::string dir =
      ::testing::TempDir() + "sling_god_study_settle_" + std::to_string(::getpid());
  GodStudyOptions options;
  options.games = 2000;
  options.matchup_games = 0;
  options.settle_plies = 4;
  const GodStudyResult result = write_god_study(solution, options, dir);
  EXPECT_EQ(result.cut_games, 0);
  EXPECT_GT(result.settled_games, 1000);  // a game needs more than four plies to end
  EXPECT_EQ(static_cast<int>(result.settled_distance_cm.size()), result.settled_games);
  EXPECT_GE(result.settled_value, 0.0);
  EXPECT_LE(result.settled_value, result.settled_games);
  const double n = options.games;
  const double exact = solution.summary().start;
  const double score = (result.david_wins + result.settled_value) / n;
  // Four binomial standard errors: a settled score in [0, 1] varies no more than a win.
  EXPECT_NEAR(score, exact, 4 * std::sqrt(exact * (1 - exact) / n));
  const std::string report = read_file(dir + "/report.md");
  EXPECT_NE(report.find("**Stand-offs.** " + std::to_string(result.settled_games) + " games"),
            std::string::npos);
  EXPECT_NE(report.find("still running after 4 plies"), std::string::npos);

  options.settle_plies = 0;  // every game to its end
  options.games = 200;
  const GodStudyResult played = write_god_study(solution, options, dir);
  EXPECT_EQ(played.settled_games, 0);
  EXPECT_EQ(read_file(dir + "/report.md").find("Stand-offs"), std::string::npos);
  options.settle_plies = -1;
  EXPECT_THROW(write_god_study(solution, options, dir), OptionError);
}

}  // namespace
}  // namespace sling::duel
