// Tuning danelaw's value model by play (experiments/training/danelaw_play_tuning.h): SPSA's
// arithmetic against hand-computed steps and its climb on an objective with a known optimum and
// noisy paired results.  Tuned generations are tested with the others
// (danelaw_generations_test.cpp).

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "engine/core/errors.h"
#include "engine/core/random.h"
#include "experiments/training/danelaw_play_tuning.h"

namespace sling::danelaw {
namespace {

PlayTuningOptions tuning(int iterations, double perturbation, double rate) {
  PlayTuningOptions o;
  o.iterations = iterations;
  o.perturbation = perturbation;
  o.rate = rate;
  return o;
}

TEST(DanelawPlayTuning, AStepMovesEveryWeightButTheBiasAlongItsSignByTheScoreGap) {
  const PlayTuningOptions o = tuning(10, 0.5, 0.1);
  // Iteration 1: c = 0.5, gain 0.1; a score of 0.75 a game is a gap of 0.5, so the step is
  // 0.1 * 0.5 / (2 * 0.5) = 0.05 along each sign.
  EXPECT_DOUBLE_EQ(spsa_perturbation(o, 1), 0.5);
  EXPECT_DOUBLE_EQ(spsa_gain(o, 1), 0.1);
  std::vector<double> w = {1.0, 2.0, -3.0};
  spsa_step(w, {0.0, 1.0, -1.0}, 0.75, o, 1);
  EXPECT_DOUBLE_EQ(w[0], 1.0);
  EXPECT_DOUBLE_EQ(w[1], 2.05);
  EXPECT_DOUBLE_EQ(w[2], -3.05);
  // A lost iteration steps the other way; a level one leaves the weights.
  spsa_step(w, {0.0, 1.0, -1.0}, 0.25, o, 1);
  EXPECT_DOUBLE_EQ(w[1], 2.0);
  spsa_step(w, {0.0, 1.0, -1.0}, 0.5, o, 1);
  EXPECT_DOUBLE_EQ(w[2], -3.0);
  // Spall's schedules: c_k = c / k^0.101; a_k = a ((A + 1) / (A + k))^0.602 with A = iterations/10.
  EXPECT_DOUBLE_EQ(spsa_perturbation(o, 4), 0.5 / std::pow(4.0, 0.101));
  EXPECT_DOUBLE_EQ(spsa_gain(o, 4), 0.1 * std::pow(2.0 / 5.0, 0.602));
}

TEST(DanelawPlayTuning, SignsAreAPureFunctionOfTheSeedAndTheIteration) {
  const std::vector<double> a = spsa_signs(7, 3, 18);
  EXPECT_EQ(a, spsa_signs(7, 3, 18));
  EXPECT_NE(a, spsa_signs(7, 4, 18));
  EXPECT_NE(a, spsa_signs(8, 3, 18));
  EXPECT_EQ(a[0], 0.0);  // the bias is never perturbed
  int plus = 0;
  for (int k = 1; k <= 200; ++k) {
    for (const double s : spsa_signs(1, k, 18)) {
      EXPECT_TRUE(s == 0.0 || s == 1.0 || s == -1.0);
      plus += s > 0 ? 1 : 0;
    }
  }
  // 3,400 fair signs: the count of +1 lies within 4 standard deviations (29) of 1,700.
  EXPECT_NEAR(plus, 1700, 4 * 29.2);
}

// The objective: a side with weights w wins a game against one with v with probability
// logistic(f(w) - f(v)), f(w) = -|w - target|^2, each iteration's score drawn from 2 * pairs games.
// From 0 the tuned weights must come most of the way to the target.
TEST(DanelawPlayTuning, TuningClimbsToTheOptimumOfNoisyPairedGames) {
  const std::vector<double> target = {0.0, 1.5, -1.0, 0.5, 2.0};
  const auto f = [&](const std::vector<double>& w) {
    double s = 0;
    for (std::size_t i = 1; i < w.size(); ++i) s -= (w[i] - target[i]) * (w[i] - target[i]);
    return s;
  };
  const int games = 32;
  Rng dice(5, 0);
  const PerturbedMatch play = [&](const std::vector<double>& plus, const std::vector<double>& minus,
                                  int) {
    const double p = 1 / (1 + std::exp(-(f(plus) - f(minus))));
    int won = 0;
    for (int g = 0; g < games; ++g) won += dice.uniform01() < p ? 1 : 0;
    return static_cast<double>(won) / games;
  };
  const std::vector<double> start(target.size(), 0.0);
  const std::vector<double> tuned = tune_weights(start, tuning(600, 0.3, 0.5), 3, play);
  const double before = std::sqrt(-f(start)), after = std::sqrt(-f(tuned));
  EXPECT_LT(after, 0.25 * before) << "distance to the optimum " << before << " -> " << after;
  EXPECT_EQ(tuned[0], 0.0);  // the bias is not tuned
}

TEST(DanelawPlayTuning, OptionsOutOfRangeAreRefused) {
  PlayTuningOptions o;
  o.pairs = 0;
  EXPECT_THROW(o.validate(), OptionError);
  o = {};
  o.perturbation = 0;
  EXPECT_THROW(o.validate(), OptionError);
  o = {};
  o.rate = -1;
  EXPECT_THROW(o.validate(), OptionError);
  o = {};
  o.iterations = -1;
  EXPECT_THROW(o.validate(), OptionError);
}

}  // namespace
}  // namespace sling::danelaw
