// Luck-adjusted matches and tournaments (docs/analysis.md): on Pig, with exact values, the mean
// luck is zero within its interval, the adjusted scores agree with the plain ones, and their
// intervals are several times narrower.  Tolerances are 4 standard errors of the fixed-seed sample.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "engine/core/io.h"
#include "engine/core/random.h"
#include "engine/pig/pig.h"
#include "experiments/analysis/luck.h"
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

// The mean-luck interval of a tournament is the pairs' (the two games of a pair share their
// dice): over synthetic pairs whose two values nearly agree, the clustered interval covers zero
// 95 % of the time and the games-as-independent one only about 83 %.  2,000 replicates: the
// coverage's standard error is 0.5 point, the tolerance 3.5 of them.
TEST(LuckInterval, ClusteredByPairItCoversTheMeanWhereTheGamesInterval) {
  Rng rng(3, 0);
  const int replicates = 2000, pairs = 100;
  int clustered_covers = 0, naive_covers = 0;
  for (int r = 0; r < replicates; ++r) {
    std::vector<double> values;
    std::vector<std::int64_t> clusters;
    for (int p = 0; p < pairs; ++p) {
      const double shared = rng.uniform01() - 0.5;
      values.push_back(shared);
      values.push_back(shared + 0.1 * (rng.uniform01() - 0.5));
      clusters.push_back(p);
      clusters.push_back(p);
    }
    const MeanInterval clustered = clustered_mean_interval(values, clusters);
    const MeanInterval naive = mean_interval(values);
    EXPECT_DOUBLE_EQ(clustered.mean, naive.mean);
    clustered_covers += clustered.low <= 0 && 0 <= clustered.high;
    naive_covers += naive.low <= 0 && 0 <= naive.high;
  }
  std::printf("coverage of zero over %d replicates: clustered %.4f, games as independent %.4f\n",
              replicates, static_cast<double>(clustered_covers) / replicates,
              static_cast<double>(naive_covers) / replicates);
  const double tolerance = 3.5 * std::sqrt(0.95 * 0.05 / replicates);
  EXPECT_NEAR(static_cast<double>(clustered_covers) / replicates, 0.95, tolerance);
  EXPECT_LT(static_cast<double>(naive_covers) / replicates, 0.88);
}

// The same on real tournaments: Pig with exact values, 100 seeds of 20 pairs each.  With 20
// clusters the normal interval covers about 93.5 % (Student's t would widen it by 7 %); the
// tolerance is 3 binomial standard errors of 100 seeds below 95 %.
TEST(LuckTournament, TheMeanLuckIntervalCoversZeroOverManySeeds) {
  const auto dir = std::filesystem::temp_directory_path() / "luck-coverage";
  int covers = 0;
  const int seeds = 100;
  for (int seed = 1; seed <= seeds; ++seed) {
    const TournamentReport report = testing_support::pig_luck_tournament(
        {"hold:20", "hold:25"}, 20, static_cast<std::uint64_t>(seed), dir);
    ASSERT_EQ(report.luck_games, 40);
    covers += report.mean_luck_low <= 0 && 0 <= report.mean_luck_high;
  }
  std::printf("%d of %d mean-luck intervals cover zero\n", covers, seeds);
  EXPECT_GE(covers,
            static_cast<int>(std::floor(seeds * (0.95 - 3 * std::sqrt(0.95 * 0.05 / seeds)))))
      << covers << " of " << seeds << " intervals cover zero";
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
