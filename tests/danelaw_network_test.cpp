// Danelaw's value model with hidden units (solvers/danelaw/value_model.h) and its fitter
// (experiments/training/danelaw_network_fit.h): the file format, the evaluation, a fit that
// learns what the linear model cannot, and `sling train danelaw --hidden`.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "engine/core/errors.h"
#include "engine/core/random.h"
#include "experiments/training/danelaw_linear_fit.h"
#include "experiments/training/danelaw_network_fit.h"
#include "solvers/danelaw/value_model.h"
#include "tests/run_sling.h"

namespace sling::danelaw {
namespace {

ValueModel two_unit_network() {
  ValueModel model = ValueModel::embedded();
  Features a{}, b{};
  a[feature::kTownsHeld] = 1.5;
  a[feature::kTurnsLeft] = -2.0;
  b[feature::kBias] = 0.25;
  b[feature::kDanesOnMap] = 3.0;
  model.hidden = {a, b};
  model.output = {0.75, -1.5};
  return model;
}

TEST(DanelawNetwork, TheHiddenUnitsAddToTheLinearModelsSum) {
  const ValueModel network = two_unit_network();
  Features f{};
  f[feature::kBias] = 1;
  f[feature::kTownsHeld] = 0.6;
  f[feature::kTurnsLeft] = 0.3;
  f[feature::kDanesOnMap] = 0.2;
  double z = 0;
  for (int i = 0; i < kFeatureCount; ++i) z += network.weights[i] * f[i];
  z += 0.75 * std::tanh(1.5 * 0.6 - 2.0 * 0.3) - 1.5 * std::tanh(0.25 + 3.0 * 0.2);
  EXPECT_NEAR(network.probability(f), 1 / (1 + std::exp(-z)), 1e-12);
  // With its output weights at zero a network is its linear part.
  ValueModel silent = network;
  silent.output = {0, 0};
  EXPECT_NEAR(silent.probability(f), ValueModel::embedded().probability(f), 1e-15);
}

TEST(DanelawNetwork, FilesAreVersionTwoAndRoundTrip) {
  const ValueModel network = two_unit_network();
  const std::string text = network.to_json();
  EXPECT_NE(text.find("\"version\": 2"), std::string::npos);
  EXPECT_NE(ValueModel::embedded().to_json().find("\"version\": 1"), std::string::npos);
  const ValueModel back = ValueModel::from_json(text, "'network'");
  ASSERT_EQ(back.hidden.size(), 2u);
  for (std::size_t h = 0; h < 2; ++h) {
    EXPECT_NEAR(back.output[h], network.output[h], 1e-12);
    for (int i = 0; i < kFeatureCount; ++i) {
      EXPECT_NEAR(back.hidden[h][i], network.hidden[h][i], 1e-12);
    }
  }
  EXPECT_TRUE(ValueModel::from_json(ValueModel::embedded().to_json(), "'linear'").hidden.empty());
}

TEST(DanelawNetwork, DamagedNetworksAreOneLineErrors) {
  const std::string good = two_unit_network().to_json();
  const auto error = [](const std::string& text) {
    try {
      ValueModel::from_json(text, "'net.json'");
    } catch (const FileFormatError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  std::string no_units = good;
  no_units.replace(no_units.find("\"hidden\""), 8, "\"hiding\"");
  EXPECT_NE(error(no_units).find("missing 'hidden'"), std::string::npos) << error(no_units);
  std::string short_row = good;
  short_row.replace(short_row.find("[0, 1.5,"), 8, "[1.5,");
  EXPECT_NE(error(short_row).find("hidden unit 0 does not have"), std::string::npos)
      << error(short_row);
  std::string unequal = good;
  unequal.replace(unequal.find("\"output\": ["), 11, "\"output\": [1, ");
  EXPECT_NE(error(unequal).find("same length"), std::string::npos) << error(unequal);
  for (const std::string& e : {error(no_units), error(short_row), error(unequal)}) {
    EXPECT_NE(e.find("'net.json'"), std::string::npos) << e;
    EXPECT_EQ(e.find('\n'), std::string::npos) << e;
  }
}

// The Danes win when exactly one of two features is set (an exclusive or): no weighted sum of
// the features separates it, a layer of hidden units does.
TEST(DanelawNetwork, TheFitLearnsAnInteractionTheLinearModelCannot) {
  std::vector<Sample> samples;
  Rng rng(7, 0);
  for (int i = 0; i < 4000; ++i) {
    Sample s{};  // every feature zero but the ones set
    s.features[feature::kBias] = 1;
    const bool a = rng.uniform01() < 0.5, b = rng.uniform01() < 0.5;
    s.features[feature::kTownsHeld] = a;
    s.features[feature::kDanesOnMap] = b;
    s.danes_won = rng.uniform01() < (a != b ? 0.9 : 0.1);
    s.held_out = i % 5 == 0;
    samples.push_back(s);
  }
  ValueModel linear;
  linear.weights = fit_logistic(samples, 1e-3);
  NetworkFitOptions options;
  options.hidden = 4;
  const ValueModel network = fit_network(samples, linear.weights, options);
  const double linear_loss = held_out_log_loss(linear, samples);
  const double network_loss = held_out_log_loss(network, samples);
  // The best possible held-out loss is the entropy of 0.9: 0.325; the linear model's is ln 2.
  EXPECT_GT(linear_loss, 0.68);
  EXPECT_LT(network_loss, 0.40);
  // The same seed, the same network.
  EXPECT_EQ(fit_network(samples, linear.weights, options).to_json(), network.to_json());
}

TEST(DanelawNetwork, TrainWritesANetworkThatPlays) {
  const std::string path =
      (std::filesystem::temp_directory_path() / "sling-danelaw-network.json").string();
  const auto train = testing_support::run_sling(
      "train danelaw --games 5 --iterations 1 --threads 1 --hidden 3 --out " + path);
  ASSERT_EQ(train.status, 0) << train.output;
  const ValueModel model = ValueModel::load(path);
  EXPECT_EQ(model.hidden.size(), 3u);
  EXPECT_NE(model.command.find("--hidden 3"), std::string::npos) << model.command;
  const auto match = testing_support::run_sling(
      "match danelaw --danes planner:plans=2,samples=1,battle=0,value_model=" + path +
      " --english heuristic --games 1 --threads 1");
  EXPECT_EQ(match.status, 0) << match.output;
  const auto refused =
      testing_support::run_sling("train danelaw --games 5 --hidden 257 --out " + path);
  EXPECT_NE(refused.status, 0);
  EXPECT_EQ(testing_support::count_lines(refused.output), 1) << refused.output;
  std::remove(path.c_str());
}

}  // namespace
}  // namespace sling::danelaw
