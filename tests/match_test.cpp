// Matches: the same result for any thread count, Wilson intervals, reports and records.

#include <unistd.h>

#include <gtest/gtest.h>

#include <filesystem>
#include <vector>

#include "engine/pig/pig.h"
#include "experiments/match.h"

namespace sling {
namespace {

TEST(Wilson, KnownValues) {
  // 50 of 100: p = 0.5, the interval is 0.5 -/+ 0.0962 (Wilson with z = 1.96).
  const Interval half = wilson_interval(50, 100);
  EXPECT_NEAR(half.low, 0.4038, 1e-4);
  EXPECT_NEAR(half.high, 0.5962, 1e-4);
  const Interval none = wilson_interval(0, 10);
  EXPECT_DOUBLE_EQ(none.low, 0.0);
  EXPECT_NEAR(none.high, 0.2775, 1e-4);
}

TEST(Match, ResultIsTheSameForAnyThreadCount) {
  const pig::PigGame game;
  MatchOptions options;
  options.games = 60;
  options.seed = 11;
  MatchResult results[3];
  const int threads[3] = {1, 2, 3};
  for (int i = 0; i < 3; ++i) {
    options.threads = threads[i];
    results[i] = run_match(game, {"mcts:iterations=200,trees=2", "hold:20"}, options);
  }
  for (int i = 1; i < 3; ++i) {
    EXPECT_EQ(results[i].wins, results[0].wins);
    EXPECT_DOUBLE_EQ(results[i].mean_plies, results[0].mean_plies);
  }
  EXPECT_EQ(results[0].wins[0] + results[0].wins[1] + results[0].draws, 60);
}

// A long match reports as it goes: one call per finished game, one at a time, counting up to the
// final result.
TEST(Match, ProgressCountsEveryGameUpToTheResult) {
  const pig::PigGame game;
  MatchOptions options;
  options.games = 40;
  options.seed = 3;
  options.threads = 2;
  std::vector<MatchProgress> seen;
  options.progress = [&](const MatchProgress& p) { seen.push_back(p); };
  const MatchResult r = run_match(game, {"hold:20", "random"}, options);
  ASSERT_EQ(seen.size(), 40u);
  for (std::size_t i = 0; i < seen.size(); ++i) {
    EXPECT_EQ(seen[i].games_done, static_cast<int>(i) + 1);
    EXPECT_EQ(seen[i].games, 40);
    EXPECT_EQ(seen[i].wins[0] + seen[i].wins[1] + seen[i].draws, seen[i].games_done);
    if (i > 0) {
      EXPECT_GE(seen[i].seconds, seen[i - 1].seconds);
    }
  }
  EXPECT_EQ(seen.back().wins, r.wins);
  EXPECT_EQ(seen.back().draws, r.draws);
}

TEST(Match, JsonHasTheDocumentedKeysAndRecordsAreSaved) {
  const pig::PigGame game(pig::PigRules{20});
  MatchOptions options;
  options.games = 5;
  const auto dir = std::filesystem::temp_directory_path() /
                   ("sling_match_test_records_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  options.record_dir = dir.string();
  const MatchResult r = run_match(game, {"random", "hold:10"}, options);
  const std::string json = match_to_json(r);
  for (const char* key :
       {"\"games\": 5", "\"wins\"", "\"draws\"", "\"win_rate\"", "\"ci95_low\"", "\"ci95_high\"",
        "\"mean_plies\"", "\"seconds\"", "\"first\"", "\"second\""}) {
    EXPECT_NE(json.find(key), std::string::npos) << key;
  }
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const GameRecord record = load_record(entry.path().string());
    EXPECT_TRUE(game.is_terminal(replay(game, record)));
    ++files;
  }
  EXPECT_EQ(files, 5);
  std::filesystem::remove_all(dir);
}

TEST(Match, BadSpecFailsBeforeAnyGame) {
  const pig::PigGame game;
  EXPECT_THROW(run_match(game, {"mcts:c=x", "random"}, MatchOptions{}), OptionError);
}

}  // namespace
}  // namespace sling
