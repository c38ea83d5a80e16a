// The God study under a time limit on a small board: the values by cap are the capped solver's,
// the optimal games agree with them within their sampling error, the counts are consistent and
// the same on any thread count, and the report's figures read.

#include <unistd.h>

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>

#include "engine/core/io.h"
#include "experiments/studies/god_time_limit.h"
#include "solvers/duel/capped_solve.h"
#include "tests/svg_check.h"

namespace sling::duel {
namespace {

DuelRules small_board() {
  DuelRules rules;
  rules.board_cm = 16;
  rules.pitch_cm = 4;
  return rules;
}

TimeLimitStudyOptions small_study(int threads) {
  TimeLimitStudyOptions options;
  options.caps = {3, 6, 12};
  options.games = 600;
  options.threads = threads;
  return options;
}

TEST(GodTimeLimit, TurnsLeftBucketsDouble) {
  EXPECT_EQ(turns_left_bucket(1), 0);
  EXPECT_EQ(turns_left_bucket(2), 1);
  EXPECT_EQ(turns_left_bucket(3), 2);
  EXPECT_EQ(turns_left_bucket(4), 2);
  EXPECT_EQ(turns_left_bucket(5), 3);
  EXPECT_EQ(turns_left_bucket(256), 8);
  EXPECT_EQ(turns_left_bucket(257), 9);
  EXPECT_EQ(turns_left_bucket(60000), 9);
  EXPECT_STREQ(turns_left_bucket_name(2), "3-4");
  EXPECT_STREQ(turns_left_bucket_name(9), "257+");
}

TEST(GodTimeLimit, GamesAgreeWithTheExactValuesOfEveryCap) {
  const DuelGame game(small_board());
  const TimeLimitStudyOptions options = small_study(2);
  const TimeLimitStudyResult result = run_time_limit_study(game, options);
  EXPECT_EQ(result.rules.turn_cap, 12);
  for (const ObjectiveStudy& study : result.objectives) {
    ASSERT_EQ(study.by_cap.size(), options.caps.size());
    ASSERT_EQ(study.summary.start_by_cap.size(), 12u);
    for (std::size_t c = 0; c < options.caps.size(); ++c) {
      const int cap = options.caps[c];
      // A shorter cap read off the longest solve is that cap's own solve, to the last bit.
      DuelRules rules = small_board();
      rules.turn_cap = cap;
      const CappedSummary own = solve_capped_duel(DuelGame(rules), study.objective).summary();
      const CappedOutcome& read = study.summary.start_by_cap[static_cast<std::size_t>(cap - 1)];
      EXPECT_EQ(read.value, own.start.value) << objective_name(study.objective) << " cap " << cap;
      EXPECT_EQ(read.draw, own.start.draw);
      const CapGames& g = study.by_cap[c];
      EXPECT_EQ(g.cap, cap);
      EXPECT_EQ(g.david_wins + g.draws + g.goliath_wins, g.games);
      EXPECT_LE(g.mean_turns, cap);
      EXPECT_GT(g.mean_turns, 0.0);
      // Five standard errors of the games' count: a false alarm about once in 1.7 million.
      const double n = g.games;
      for (const auto& [simulated, exact] :
           {std::pair<double, double>{g.david_wins / n, read.david_wins},
            std::pair<double, double>{g.draws / n, read.draw}}) {
        const double tolerance = 5 * std::sqrt(std::max(exact * (1 - exact), 1e-4) / n);
        EXPECT_NEAR(simulated, exact, tolerance)
            << objective_name(study.objective) << " cap " << cap;
      }
      std::int64_t rerolls = 0;
      for (const auto& buckets : g.by_roll) {
        for (const TimeLimitRollStats& s : buckets) {
          EXPECT_LE(s.rerolled, s.offered);
          EXPECT_GE(s.gain, 0.0);  // optimal play re-rolls only when it gains
          rerolls += s.rerolled;
        }
      }
      EXPECT_EQ(rerolls, g.god_used);  // God is spent at most once a game
      // No God decision counts more turns left than the game has.
      for (const auto& buckets : g.by_roll) {
        for (int b = turns_left_bucket(cap) + 1; b < kTurnsLeftBuckets; ++b)
          EXPECT_EQ(buckets[static_cast<std::size_t>(b)].offered, 0);
      }
    }
  }
  // Under `win` a longer game is never worse for David; `score` differs from `win` by the draws.
  const auto& win = result.objectives[1].summary.start_by_cap;
  for (std::size_t k = 1; k < win.size(); ++k) EXPECT_GE(win[k].value, win[k - 1].value - 1e-12);
  EXPECT_GT(result.objectives[1].by_cap.back().david_wins, 0);
}

TEST(GodTimeLimit, TheSameOnAnyThreadCountAndTheReportReads) {
  const DuelGame game(small_board());
  TimeLimitStudyOptions one = small_study(1), two = small_study(2);
  one.games = two.games = 150;
  const TimeLimitStudyResult a = run_time_limit_study(game, one);
  const TimeLimitStudyResult b = run_time_limit_study(game, two);
  for (int o = 0; o < 2; ++o) {
    for (std::size_t c = 0; c < one.caps.size(); ++c) {
      const CapGames &x = a.objectives[static_cast<std::size_t>(o)].by_cap[c],
                     &y = b.objectives[static_cast<std::size_t>(o)].by_cap[c];
      EXPECT_EQ(x.david_wins, y.david_wins);
      EXPECT_EQ(x.draws, y.draws);
      EXPECT_EQ(x.mean_turns, y.mean_turns);
      EXPECT_EQ(x.god_used, y.god_used);
    }
  }
  const std::string dir =
      ::testing::TempDir() + "sling_god_time_limit_" + std::to_string(::getpid());
  two.uncapped = 0.3;
  write_time_limit_report(b, two, dir);
  const std::string report = read_file(dir + "/report.md");
  EXPECT_EQ(report.find("# When should David invoke God, with the clock running?"), 0u);
  EXPECT_NE(report.find("## In short"), std::string::npos);
  EXPECT_NE(report.find("## A game of a given length"), std::string::npos);
  EXPECT_NE(report.find("tends to the game without a time limit"), std::string::npos);
  int figures = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() != ".svg") continue;
    ++figures;
    const std::string svg = read_file(entry.path().string());
    EXPECT_NE(report.find(entry.path().filename().string()), std::string::npos)
        << entry.path().filename() << " is not in the report";
    for (const std::string& problem : testing_support::svg_label_problems(svg, 1)) {
      ADD_FAILURE() << entry.path().filename() << ": " << problem;
    }
    EXPECT_EQ(testing_support::render_svg(svg, "god_time_limit_" + std::to_string(::getpid())), "")
        << entry.path().filename();
  }
  EXPECT_EQ(figures, 5);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace sling::duel
