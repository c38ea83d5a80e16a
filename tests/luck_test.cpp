// Luck-adjusted matches and tournaments (docs/analysis.md): on Pig, with exact values, the mean
// luck is zero within its interval, the adjusted scores agree with the plain ones, and their
// intervals are several times narrower.  Tolerances are 4 standard errors of the fixed-seed sample.

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <string>

#include "engine/core/io.h"
#include "engine/pig/pig.h"
#include "experiments/match.h"
#include "experiments/tournament/tournament.h"
#include "pig_luck_tournament.h"
#include "run_sling.h"

namespace sling {
namespace {

double standard_error(const MeanInterval& m) {
  return m.stddev / std::sqrt(static_cast<double>(m.count));
}

TEST(LuckMatch, TheAdjustmentIsUnbiasedAndNarrowsTheInterval) {
  const pig::PigGame game;
  MatchOptions options;
  options.games = 3000;
  options.seed = 11;
  options.threads = 2;
  options.luck = true;
  const MatchResult r = run_match(game, {"solver", "hold:20"}, options);
  ASSERT_TRUE(r.luck);
  EXPECT_EQ(r.luck_source, "the exact solution (goal 100)");
  EXPECT_EQ(r.adjusted.count, 3000);
  // The luck has mean zero, and the adjusted score keeps the score's expectation.
  EXPECT_LT(std::abs(r.luck_of_side0.mean), 4 * standard_error(r.luck_of_side0));
  EXPECT_LT(std::abs(r.adjusted.mean - r.score.mean), 4 * standard_error(r.score));
  // Exact values leave only the decisions' losses: the spread falls several times.
  EXPECT_LT(r.adjusted.stddev, r.score.stddev / 4);
  EXPECT_NE(match_to_text(r).find("adjusted for luck"), std::string::npos);
  EXPECT_NE(match_to_json(r).find("\"adjusted_score\""), std::string::npos);
}

TEST(LuckTournament, AdjustedRatingsAgreeWithThePlainOnesAndSeparateAgentsWithFewerGames) {
  const auto dir = std::filesystem::temp_directory_path() / "luck-tournament";
  const std::vector<std::string> agents = {"solver", "hold:20", "hold:25"};
  const TournamentReport report = testing_support::pig_luck_tournament(agents, 300, 5, dir);
  ASSERT_TRUE(report.luck);
  EXPECT_EQ(report.luck_games, report.games);
  // Zero mean luck, within 4 standard errors (the interval is 1.96 of them).
  const double se = (report.mean_luck_high - report.mean_luck_low) / (2 * 1.959963984540054);
  EXPECT_LT(std::abs(report.mean_luck), 4 * se);
  for (std::size_t i = 0; i < agents.size(); ++i) {
    const AgentRating& plain = report.fit.agents[i];
    const AgentRating& adjusted = report.adjusted_fit.agents[i];
    const double both = std::hypot(plain.stderr_elo, adjusted.stderr_elo);
    EXPECT_LT(std::abs(plain.elo - adjusted.elo), 4 * both) << agents[i];
  }
  // solver against hold:20: the difference's interval is at least twice as narrow.
  EXPECT_LT(2 * report.adjusted_fit.difference_stderr(0, 1), report.fit.difference_stderr(0, 1));
  const std::string csv = read_file((dir / "luck.csv").string());
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), report.games + 1);
  EXPECT_NE(read_file((dir / "ratings.json").string()).find("\"luck_adjusted\""),
            std::string::npos);
  EXPECT_NE(report_table(report).find("Adjusted for luck"), std::string::npos);
}

TEST(LuckCommands, MatchAndTournamentTakeTheOption) {
  using testing_support::run_sling;
  const auto match = run_sling("match pig --first solver --second hold:20 --games 200 --luck");
  EXPECT_EQ(match.status, 0) << match.output;
  EXPECT_NE(match.output.find("times narrower"), std::string::npos) << match.output;
  const auto dir = std::filesystem::temp_directory_path() / "luck-cli";
  // Tournaments adjust by default where the game has values; --no-luck rates plain scores only.
  const auto tournament = run_sling(
      "tournament pig --agent solver --agent hold:20 --games 20 --quiet --out " + dir.string());
  EXPECT_EQ(tournament.status, 0) << tournament.output;
  EXPECT_TRUE(std::filesystem::exists(dir / "luck.csv"));
  EXPECT_NE(tournament.output.find("Adjusted for luck"), std::string::npos);
  const auto plain = run_sling(
      "tournament pig --agent solver --agent hold:20 --games 20 --quiet "
      "--no-luck --out " +
      (dir / "plain").string());
  EXPECT_EQ(plain.status, 0) << plain.output;
  EXPECT_FALSE(std::filesystem::exists(dir / "plain" / "luck.csv"));
  EXPECT_EQ(plain.output.find("Adjusted for luck"), std::string::npos);
}

}  // namespace
}  // namespace sling
