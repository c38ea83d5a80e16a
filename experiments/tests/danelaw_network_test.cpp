// Danelaw's value model with hidden units (experiments/training/danelaw_network_fit.h) against
// the linear model, fitted on the same positions: the 115,200 half-turn starts of the committed
// self-play run (docs/results/danelaw-training/games.bin: 2,400 games of both sides searching,
// the mixed rules), every fifth game held out.  The figures are printed for docs/strength.md.

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>

#include "experiments/training/danelaw_linear_fit.h"
#include "experiments/training/danelaw_network_fit.h"
#include "experiments/training/played_games_file.h"
#include "tests/build_paths.h"

namespace sling::danelaw {
namespace {

TEST(DanelawNetworkStudy, HiddenUnitsAgainstTheLinearModelOnTheSamePositions) {
  const DanelawGame game;
  TrainingData data = training_variants(game, /*mixed_rules=*/true);
  for (const PlayedGame& played : load_played_games(std::string(SLING_SOURCE_DIR) +
                                                    "/docs/results/danelaw-training/games.bin")) {
    append_positions(data, played);
  }
  std::vector<Sample> samples;
  append_samples(data, samples);
  ValueModel linear;
  linear.weights = fit_logistic(samples, 1e-3);
  const double linear_loss = held_out_log_loss(linear, samples);
  std::printf("%zu positions; linear: held-out log loss %.4f\n", samples.size(), linear_loss);
  for (int hidden : {4, 16, 32}) {
    NetworkFitOptions options;
    options.hidden = hidden;
    const auto start = std::chrono::steady_clock::now();
    const ValueModel network = fit_network(samples, linear.weights, options);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const double loss = held_out_log_loss(network, samples);
    std::printf("%d hidden units: held-out log loss %.4f (%.1f s to fit)\n", hidden, loss, seconds);
    // The network starts as the linear fit and keeps its L2 penalty: on held-out positions of
    // the same games it may gain little, but it must not do worse than noise allows.
    EXPECT_LT(loss, linear_loss + 0.005) << hidden;
  }
}

}  // namespace
}  // namespace sling::danelaw
