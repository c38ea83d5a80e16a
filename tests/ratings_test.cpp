// Tests of the Bradley–Terry rating fit on synthetic results drawn from known strengths.

#include <gtest/gtest.h>

#include <cmath>

#include "engine/core/random.h"
#include "experiments/ratings.h"

namespace sling {
namespace {

// Draws one game's side-0 score from the model: expected score P = elo_to_score(ra - rb + h), with
// draws taking `draw_rate` of the mass symmetrically, so that the expected score stays P.
double draw_score(Rng& rng, double elo_difference, double draw_rate) {
  const double p = elo_to_score(elo_difference);
  const double draw = std::min({draw_rate, 2 * p, 2 * (1 - p)});
  const double u = rng.uniform01();
  if (u < p - draw / 2) return 1.0;
  if (u < p + draw / 2) return 0.5;
  return 0.0;
}

// A round robin where every ordered pairing (both sides) plays `games_per_side` games.
std::vector<RatedGame> simulate(const std::vector<double>& truth, double side_advantage,
                                int games_per_side, double draw_rate, Rng& rng) {
  std::vector<RatedGame> games;
  const int n = static_cast<int>(truth.size());
  for (int a = 0; a < n; ++a) {
    for (int b = 0; b < n; ++b) {
      if (a == b) continue;
      for (int k = 0; k < games_per_side; ++k) {
        games.push_back({a, b, draw_score(rng, truth[a] - truth[b] + side_advantage, draw_rate)});
      }
    }
  }
  return games;
}

const std::vector<std::string> kNames = {"a", "b", "c", "d", "e"};
const std::vector<double> kTruth = {-200, -50, 0, 100, 150};  // averages zero, like the fit
constexpr double kSideAdvantage = 60;

TEST(Ratings, LargeSampleRecoversKnownStrengths) {
  Rng rng(11, 0);
  const auto games = simulate(kTruth, kSideAdvantage, 400, 0.1, rng);
  const RatingFit fit = fit_ratings(kNames, games);
  for (int i = 0; i < 5; ++i) {
    // 4 standard errors: a false alarm has probability about 6e-5 per agent.
    EXPECT_NEAR(fit.agents[i].elo, kTruth[i], 4 * fit.agents[i].stderr_elo) << kNames[i];
    EXPECT_LT(fit.agents[i].stderr_elo, 15.0);  // 3200 games per agent: se about 8 Elo
    EXPECT_EQ(fit.agents[i].games, 3200);
  }
  EXPECT_NEAR(fit.side_advantage_elo, kSideAdvantage, 4 * fit.side_advantage_stderr);
  double mean = 0;
  for (const AgentRating& r : fit.agents) mean += r.elo;
  EXPECT_NEAR(mean, 0.0, 1e-6);
}

TEST(Ratings, IntervalsCoverTheTruthAtTheirLevel) {
  // 300 small tournaments (20 games per ordered pairing); count how often each 95% interval holds
  // the true value.  1,800 intervals (6 per run, correlated within a run): the coverage sd is at
  // most sqrt(0.95 * 0.05 / 300) = 1.3% per quantity, so [0.90, 0.99] allows > 3.5 sd.
  Rng rng(12, 0);
  int covered = 0, total = 0, side_covered = 0;
  const int runs = 300;
  for (int run = 0; run < runs; ++run) {
    const auto games = simulate(kTruth, kSideAdvantage, 20, 0.1, rng);
    const RatingFit fit = fit_ratings(kNames, games, {.prior_draws = 0.0, .confidence = 0.95});
    for (int i = 0; i < 5; ++i) {
      covered += fit.agents[i].ci_low <= kTruth[i] && kTruth[i] <= fit.agents[i].ci_high;
      ++total;
    }
    side_covered +=
        fit.side_advantage_ci_low <= kSideAdvantage && kSideAdvantage <= fit.side_advantage_ci_high;
  }
  const double coverage = static_cast<double>(covered) / total;
  EXPECT_GT(coverage, 0.90);
  EXPECT_LT(coverage, 0.99);
  EXPECT_GT(static_cast<double>(side_covered) / runs, 0.90);
}

// Pairs with common random numbers, as a tournament plays them: one uniform draw decides both
// games of a pair (each agent plays each side once), so luck cancels within the pair.
std::vector<RatedGame> simulate_pairs(const std::vector<double>& truth, double side_advantage,
                                      int pairs_per_pairing, Rng& rng) {
  std::vector<RatedGame> games;
  const int n = static_cast<int>(truth.size());
  std::int64_t pair = 0;
  for (int a = 0; a < n; ++a) {
    for (int b = a + 1; b < n; ++b) {
      for (int k = 0; k < pairs_per_pairing; ++k, ++pair) {
        const double u = rng.uniform01();
        games.push_back(
            {a, b, u < elo_to_score(truth[a] - truth[b] + side_advantage) ? 1.0 : 0.0, pair});
        games.push_back(
            {b, a, u < elo_to_score(truth[b] - truth[a] + side_advantage) ? 1.0 : 0.0, pair});
      }
    }
  }
  return games;
}

TEST(Ratings, ClusteredIntervalsCoverPairedResults) {
  // 300 paired tournaments (20 pairs per pairing, 200 pairs) with a large side advantage, as in
  // the duel.  The clustered intervals must cover at their level ([0.90, 0.99]: over 3.5 sd of a
  // 300-run coverage, as above) and be narrower than the model's, which ignore the pairing.
  Rng rng(14, 0);
  const int runs = 300;
  int covered = 0, total = 0, side_covered = 0;
  double clustered_width = 0, model_width = 0;
  for (int run = 0; run < runs; ++run) {
    const auto games = simulate_pairs(kTruth, 250, 20, rng);
    const RatingFit clustered =
        fit_ratings(kNames, games, {.prior_draws = 0.0, .intervals = IntervalMethod::kClustered});
    const RatingFit model = fit_ratings(kNames, games, {.prior_draws = 0.0});
    ASSERT_EQ(clustered.intervals, IntervalMethod::kClustered);
    for (int i = 0; i < 5; ++i) {
      covered +=
          clustered.agents[i].ci_low <= kTruth[i] && kTruth[i] <= clustered.agents[i].ci_high;
      ++total;
      clustered_width += clustered.agents[i].ci_high - clustered.agents[i].ci_low;
      model_width += model.agents[i].ci_high - model.agents[i].ci_low;
    }
    side_covered +=
        clustered.side_advantage_ci_low <= 250 && 250 <= clustered.side_advantage_ci_high;
  }
  const double coverage = static_cast<double>(covered) / total;
  EXPECT_GT(coverage, 0.90);
  EXPECT_LT(coverage, 0.99);
  EXPECT_GT(static_cast<double>(side_covered) / runs, 0.90);
  EXPECT_LT(clustered_width, 0.85 * model_width);
}

TEST(Ratings, ClusteredFallsBackToTheModelWithFewClusters) {
  const std::vector<RatedGame> games = {
      {0, 1, 1.0, 0}, {1, 0, 0.0, 0}, {0, 1, 0.0, 1}, {1, 0, 1.0, 1}};
  const RatingFit fit = fit_ratings({"x", "y"}, games, {.intervals = IntervalMethod::kClustered});
  EXPECT_EQ(fit.intervals, IntervalMethod::kModel);
  EXPECT_TRUE(std::isfinite(fit.agents[0].stderr_elo));
}

TEST(Ratings, PerfectScoresStayFiniteWithThePrior) {
  // The strong agent wins every game: maximum likelihood alone would send it to infinity.
  std::vector<RatedGame> games;
  for (int k = 0; k < 10; ++k) {
    games.push_back({0, 1, 1.0});
    games.push_back({1, 0, 0.0});
  }
  const RatingFit fit = fit_ratings({"strong", "weak"}, games);
  EXPECT_TRUE(std::isfinite(fit.agents[0].elo));
  EXPECT_GT(fit.agents[0].elo - fit.agents[1].elo, 300.0);
  EXPECT_GT(fit.likelihood_of_superiority(0, 1), 0.99);
  EXPECT_NEAR(fit.side_advantage_elo, 0.0, 1e-6);  // each side won half of the games
  // The rating is the prior's doing: the clustered interval is not used.
  EXPECT_EQ(
      fit_ratings({"strong", "weak"}, games, {.intervals = IntervalMethod::kClustered}).intervals,
      IntervalMethod::kModel);
}

TEST(Ratings, LikelihoodOfSuperiorityIsConsistent) {
  Rng rng(13, 0);
  const RatingFit fit = fit_ratings(kNames, simulate(kTruth, 0, 30, 0.0, rng));
  for (int i = 0; i < 5; ++i) {
    EXPECT_DOUBLE_EQ(fit.likelihood_of_superiority(i, i), 0.5);
    for (int j = 0; j < 5; ++j) {
      EXPECT_NEAR(fit.likelihood_of_superiority(i, j) + fit.likelihood_of_superiority(j, i), 1.0,
                  1e-12);
    }
  }
  EXPECT_GT(fit.likelihood_of_superiority(4, 0), 0.999);  // 350 Elo apart with 60 games each side
}

TEST(Ratings, DrawsCountAsHalfAWin) {
  // All draws: equal ratings and no side advantage.
  std::vector<RatedGame> games = {{0, 1, 0.5}, {1, 0, 0.5}, {0, 1, 0.5}, {1, 0, 0.5}};
  const RatingFit fit = fit_ratings({"x", "y"}, games);
  EXPECT_NEAR(fit.agents[0].elo, 0.0, 1e-9);
  EXPECT_NEAR(fit.agents[0].score, 2.0, 1e-12);
  // 3 wins and 1 loss each way with no prior is exactly a 75% score: log10(3) * 400 = 190.8 Elo.
  std::vector<RatedGame> decisive;
  for (int k = 0; k < 3; ++k) decisive.push_back({0, 1, 1.0}), decisive.push_back({1, 0, 0.0});
  decisive.push_back({0, 1, 0.0});
  decisive.push_back({1, 0, 1.0});
  const RatingFit exact = fit_ratings({"x", "y"}, decisive, {.prior_draws = 0.0});
  EXPECT_NEAR(exact.agents[0].elo - exact.agents[1].elo, 400 * std::log10(3.0), 1e-6);
}

TEST(Ratings, AgentWithoutGamesHasAnUnboundedInterval) {
  const RatingFit fit = fit_ratings({"x", "y", "idle"}, {{0, 1, 1.0}, {1, 0, 1.0}});
  EXPECT_TRUE(std::isinf(fit.agents[2].ci_high));
  EXPECT_EQ(fit.agents[2].games, 0);
  EXPECT_TRUE(std::isfinite(fit.agents[0].elo));
}

TEST(Ratings, NormalQuantileInvertsTheCdf) {
  EXPECT_NEAR(normal_quantile(0.975), 1.959963984540054, 1e-9);
  EXPECT_NEAR(normal_cdf(normal_quantile(0.3)), 0.3, 1e-12);
  EXPECT_NEAR(score_to_elo(elo_to_score(123.0)), 123.0, 1e-9);
}

}  // namespace
}  // namespace sling
