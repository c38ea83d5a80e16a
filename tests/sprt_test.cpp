// Tests of the pentanomial SPRT on simulated pairs of games of known strength.

#include <gtest/gtest.h>

#include <cmath>

#include "engine/core/errors.h"
#include "engine/core/random.h"
#include "experiments/ratings.h"
#include "experiments/sprt.h"

namespace sling {
namespace {

// One game's score for agent A: win with `win`, draw with `draw`, else loss.
double game_score(Rng& rng, double win, double draw) {
  const double u = rng.uniform01();
  return u < win ? 1.0 : (u < win + draw ? 0.5 : 0.0);
}

// Runs an SPRT until it decides (or `max_pairs`), and returns the decision.
SprtDecision run(const SprtParameters& parameters, double win, double draw, Rng& rng,
                 int max_pairs = 200000, std::int64_t* pairs = nullptr) {
  Sprt sprt(parameters);
  while (sprt.status() == SprtDecision::kContinue && sprt.pairs() < max_pairs) {
    sprt.add_pair_result(game_score(rng, win, draw), game_score(rng, win, draw));
  }
  if (pairs) *pairs = sprt.pairs();
  return sprt.status();
}

TEST(Sprt, AcceptsH1ForAMuchStrongerAgent) {
  Rng rng(21, 0);
  std::int64_t pairs = 0;
  // Wins 70%, draws 10%: a score of 0.75, about +190 Elo, against H1 = +10.
  EXPECT_EQ(run({0, 10, 0.05, 0.05}, 0.70, 0.10, rng, 200000, &pairs), SprtDecision::kAcceptH1);
  EXPECT_LT(pairs, 200);
}

TEST(Sprt, AcceptsH0ForEqualAgents) {
  Rng rng(22, 0);
  EXPECT_EQ(run({0, 20, 0.05, 0.05}, 0.45, 0.10, rng), SprtDecision::kAcceptH0);
}

TEST(Sprt, ErrorRatesStayNearAlphaAndBeta) {
  // 100 tests at each hypothesis; alpha = beta = 0.05.  A wrong decision count is binomial with
  // sd sqrt(100 * 0.05 * 0.95) = 2.2, so at most 12 wrong ones allows over 3 sd.
  const SprtParameters parameters{0, 30, 0.05, 0.05};
  const double p1 = elo_to_score(30);
  Rng rng(23, 0);
  int wrong_h1 = 0, wrong_h0 = 0;
  for (int run_index = 0; run_index < 100; ++run_index) {
    wrong_h1 += run(parameters, 0.5, 0.0, rng) == SprtDecision::kAcceptH1;
    wrong_h0 += run(parameters, p1, 0.0, rng) == SprtDecision::kAcceptH0;
  }
  EXPECT_LE(wrong_h1, 12);
  EXPECT_LE(wrong_h0, 12);
}

TEST(Sprt, LlrMatchesTheNormalApproximation) {
  // For a large sample the generalized LLR approaches N (s1 - s0)(2m - s0 - s1) / (2 var).
  Sprt sprt({0, 10, 0.05, 0.05});
  Rng rng(24, 0);
  for (int i = 0; i < 2000; ++i) {
    sprt.add_pair_result(game_score(rng, 0.40, 0.2), game_score(rng, 0.40, 0.2));
  }
  const auto& counts = sprt.pentanomial();
  const double n = static_cast<double>(sprt.pairs());
  double mean = 0, variance = 0;
  for (int j = 0; j < 5; ++j) mean += counts[j] * 0.25 * j / n;
  for (int j = 0; j < 5; ++j) variance += counts[j] * std::pow(0.25 * j - mean, 2) / n;
  const double s0 = elo_to_score(0), s1 = elo_to_score(10);
  const double approximation = n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * variance);
  EXPECT_NEAR(sprt.llr(), approximation, 0.05 * std::abs(approximation) + 0.05);
}

TEST(Sprt, BoundsAndCounts) {
  Sprt sprt({-5, 5, 0.05, 0.1});
  EXPECT_NEAR(sprt.lower_bound(), std::log(0.1 / 0.95), 1e-12);
  EXPECT_NEAR(sprt.upper_bound(), std::log(0.9 / 0.05), 1e-12);
  EXPECT_EQ(sprt.status(), SprtDecision::kContinue);
  sprt.add_pair_result(1, 0.5);
  sprt.add_pair_result(0, 0);
  EXPECT_EQ(sprt.pentanomial()[3], 1);
  EXPECT_EQ(sprt.pentanomial()[0], 1);
  EXPECT_EQ(sprt.pairs(), 2);
  EXPECT_THROW(sprt.add_pair_result(0.3, 1), SlingError);
  sprt.add_pair_winners(0, 1);   // A won as side 0 and as side 1: 2 points
  sprt.add_pair_winners(1, -1);  // lost as side 0, drew as side 1: half a point
  EXPECT_EQ(sprt.pentanomial()[4], 1);
  EXPECT_EQ(sprt.pentanomial()[1], 1);
  EXPECT_NE(sprt.summary().find("4 pairs"), std::string::npos);
}

TEST(Sprt, ParsesParameters) {
  const SprtParameters p = SprtParameters::parse("0,10,0.05,0.1");
  EXPECT_EQ(p.elo1, 10);
  EXPECT_EQ(p.beta, 0.1);
  EXPECT_THROW(SprtParameters::parse("0,10,0.05"), OptionError);
  EXPECT_THROW(SprtParameters::parse("10,0,0.05,0.05"), OptionError);
  EXPECT_THROW(SprtParameters::parse("0,10,x,0.05"), OptionError);
  EXPECT_THROW(SprtParameters::parse("0,10,0.05,0.7"), OptionError);
}

}  // namespace
}  // namespace sling
