// The options of danelaw's value fit: the terms of single towns in the value model (TownTerms,
// solvers/danelaw/value_model.h: the evaluation, the map they apply on, the file format, the fit
// that learns them, `sling train danelaw --town-terms`) and TD(lambda) targets
// (experiments/training/danelaw_linear_fit.h, `--td-lambda`).

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include "engine/core/errors.h"
#include "engine/core/random.h"
#include "engine/danelaw/danelaw.h"
#include "experiments/training/danelaw_linear_fit.h"
#include "solvers/danelaw/exact_scenario.h"
#include "solvers/danelaw/value_model.h"
#include "tests/build_paths.h"
#include "tests/run_sling.h"

namespace sling::danelaw {
namespace {

// The embedded model with town terms for `game`'s map: town t held is worth 0.1 t, garrisoned
// another -0.05 (t + 1).
ValueModel with_town_terms(const DanelawGame& game) {
  ValueModel model = ValueModel::embedded();
  model.towns.map_hash = game.map().content_hash();
  for (std::size_t t = 0; t < game.map().towns().size(); ++t) {
    model.towns.names.push_back(game.map().towns()[t].name);
    model.towns.held.push_back(0.1 * static_cast<double>(t));
    model.towns.garrisoned.push_back(-0.05 * static_cast<double>(t + 1));
  }
  return model;
}

double logit(double p) {
  return std::log(p / (1 - p));
}

// A position of `game` where the Danes hold towns 1 and 3 and stand in town 3.
State holding_two_towns(const DanelawGame& game) {
  State s = game.initial_state();
  s.danish_towns = 0b1010;
  s.armies[s.army_count++] = Army{static_cast<std::uint16_t>(game.map().towns()[3].hex), kDanes, 0};
  return s;
}

TEST(DanelawTownTerms, HeldAndGarrisonedTownsAddTheirWeightsOnTheirMapOnly) {
  const DanelawGame england;
  const ValueModel model = with_town_terms(england);
  const State s = holding_two_towns(england);
  const TownMasks masks = town_masks(england, s);
  EXPECT_EQ(masks.held, 0b1010u);
  EXPECT_EQ(masks.garrisoned, 0b1000u);
  const double base = ValueModel::embedded().probability(england, s);
  // Held: 0.1 + 0.3; garrisoned: -0.2.
  EXPECT_NEAR(logit(model.probability(england, s)) - logit(base), 0.2, 1e-9);
  EXPECT_TRUE(model.towns.applies(england));
  // Another map's towns are other towns: there the model is its features alone.
  const DanelawGame holt = load_scenario(SLING_SOURCE_DIR, "holt-2");
  EXPECT_FALSE(model.towns.applies(holt));
  const State small = holt.initial_state();
  EXPECT_DOUBLE_EQ(model.probability(holt, small), ValueModel::embedded().probability(holt, small));
}

TEST(DanelawTownTerms, FilesAreVersionThreeAndRoundTrip) {
  const DanelawGame england;
  const ValueModel model = with_town_terms(england);
  const std::string text = model.to_json();
  EXPECT_NE(text.find("\"version\": 3"), std::string::npos);
  const ValueModel back = ValueModel::from_json(text, "'towns'");
  EXPECT_EQ(back.towns.map_hash, model.towns.map_hash);
  EXPECT_EQ(back.towns.names, model.towns.names);
  ASSERT_EQ(back.towns.held.size(), model.towns.held.size());
  for (std::size_t t = 0; t < model.towns.held.size(); ++t) {
    EXPECT_NEAR(back.towns.held[t], model.towns.held[t], 1e-12);
    EXPECT_NEAR(back.towns.garrisoned[t], model.towns.garrisoned[t], 1e-12);
  }
  EXPECT_TRUE(ValueModel::from_json(ValueModel::embedded().to_json(), "'linear'").towns.empty());
}

TEST(DanelawTownTerms, DamagedTownTermsAreOneLineErrors) {
  const std::string good = with_town_terms(DanelawGame()).to_json();
  const auto error = [](const std::string& text) {
    try {
      ValueModel::from_json(text, "'towns.json'");
    } catch (const FileFormatError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  std::string no_towns = good;
  no_towns.replace(no_towns.find("\"towns\""), 7, "\"tones\"");
  EXPECT_NE(error(no_towns).find("missing 'towns'"), std::string::npos) << error(no_towns);
  std::string short_held = good;
  short_held.replace(short_held.find("\"held\": [0, "), 12, "\"held\": [");
  EXPECT_NE(error(short_held).find("same length"), std::string::npos) << error(short_held);
  std::string bad_weight = good;
  bad_weight.replace(bad_weight.find("\"garrisoned\": [-0.05,"), 21, "\"garrisoned\": [\"x\",");
  EXPECT_NE(error(bad_weight).find("town 0's 'garrisoned'"), std::string::npos)
      << error(bad_weight);
  std::string no_hash = good;
  no_hash.replace(no_hash.find("\"map_hash\": \""), 13, "\"map_hash\": 7, \"x\": \"");
  EXPECT_NE(error(no_hash).find("'map_hash'"), std::string::npos) << error(no_hash);
  for (const std::string& e :
       {error(no_towns), error(short_held), error(bad_weight), error(no_hash)}) {
    EXPECT_NE(e.find("'towns.json'"), std::string::npos) << e;
    EXPECT_EQ(e.find('\n'), std::string::npos) << e;
  }
}

// Labels drawn from a model where holding town 2 is worth +1.5 and garrisoning town 5 -1.0: the
// fit recovers both within about four standard errors (20,000 samples, each bit set in half).
TEST(DanelawTownTerms, TheFitRecoversATownsWeight) {
  constexpr int kTowns = 8;
  Rng rng(11, 0);
  std::vector<Sample> samples;
  for (int i = 0; i < 20000; ++i) {
    Sample s{};
    s.features[feature::kBias] = 1.0;
    s.features[feature::kTownsHeld] = rng.uniform01();
    for (int t = 0; t < kTowns; ++t) {
      if (rng.uniform01() < 0.5) s.towns.held |= std::uint64_t{1} << t;
    }
    s.towns.garrisoned = s.towns.held & (rng.next() & 0xff);
    const double z = -0.5 + s.features[feature::kTownsHeld] + 1.5 * (s.towns.held >> 2 & 1u) -
                     1.0 * (s.towns.garrisoned >> 5 & 1u);
    s.danes_won = rng.uniform01() < 1 / (1 + std::exp(-z));
    samples.push_back(s);
  }
  const std::vector<double> w = fit_logistic(samples, 1e-6, kTowns);
  ASSERT_EQ(w.size(), static_cast<std::size_t>(kFeatureCount + 2 * kTowns));
  EXPECT_NEAR(w[kFeatureCount + 2], 1.5, 0.2);
  EXPECT_NEAR(w[kFeatureCount + kTowns + 5], -1.0, 0.25);
  EXPECT_NEAR(w[kFeatureCount + 0], 0.0, 0.2);
  EXPECT_NEAR(w[feature::kTownsHeld], 1.0, 0.25);
}

// Two games of three positions each: lambda = 1 gives the results, lambda = 0 the bootstrap's
// value of the next position (the result at the last), and lambda in between the recurrence.
TEST(DanelawTdTargets, MixTheResultWithTheValuesOfTheNextPositions) {
  ValueModel bootstrap = ValueModel::embedded();
  std::fill(bootstrap.weights.begin(), bootstrap.weights.end(), 0.0);
  bootstrap.weights[feature::kTownsHeld] = 1;  // P = sigmoid(towns held)
  std::vector<Sample> samples;
  for (int game = 0; game < 2; ++game) {
    for (int i = 0; i < 3; ++i) {
      Sample s{};
      s.features[feature::kTownsHeld] = 0.5 * i - 0.5 * game;
      s.danes_won = game == 0;
      s.game = game;
      samples.push_back(s);
    }
  }
  const auto v = [&](std::size_t i) { return bootstrap.probability(samples[i].features); };
  set_td_targets(samples, bootstrap, 1);
  for (const Sample& s : samples) EXPECT_EQ(s.target, s.danes_won ? 1.0 : 0.0);
  set_td_targets(samples, bootstrap, 0);
  EXPECT_DOUBLE_EQ(samples[0].target, v(1));
  EXPECT_DOUBLE_EQ(samples[1].target, v(2));
  EXPECT_EQ(samples[2].target, 1.0);  // the last position of game 0: its result
  EXPECT_DOUBLE_EQ(samples[3].target, v(4));
  EXPECT_EQ(samples[5].target, 0.0);
  set_td_targets(samples, bootstrap, 0.5);
  EXPECT_DOUBLE_EQ(samples[1].target, 0.5 * v(2) + 0.5 * 1.0);
  EXPECT_DOUBLE_EQ(samples[0].target, 0.5 * v(1) + 0.5 * samples[1].target);
  EXPECT_DOUBLE_EQ(samples[4].target, 0.5 * v(5) + 0.5 * 0.0);
  // The fit follows the targets: with every target at 0.7 the fitted bias gives 0.7.
  for (Sample& s : samples) {
    s.features[feature::kBias] = 1;
    s.target = 0.7;
  }
  const std::vector<double> w = fit_logistic(samples, 1e3);  // every weight but the bias held at 0
  EXPECT_NEAR(1 / (1 + std::exp(-w[feature::kBias])), 0.7, 1e-3);
}

TEST(DanelawTownTerms, TrainWritesTownTermsForItsMap) {
  const std::string path =
      (std::filesystem::temp_directory_path() / "sling-danelaw-towns.json").string();
  const auto train = testing_support::run_sling(
      "train danelaw --games 6 --iterations 1 --threads 1 --town-terms --out " + path);
  ASSERT_EQ(train.status, 0) << train.output;
  const DanelawGame england;
  const ValueModel model = ValueModel::load(path);
  EXPECT_TRUE(model.towns.applies(england));
  EXPECT_EQ(model.towns.names.size(), england.map().towns().size());
  EXPECT_NE(model.command.find("--town-terms"), std::string::npos) << model.command;
  for (const char* option : {"--town-terms", "--td-lambda 0.5"}) {
    const auto refused =
        testing_support::run_sling("train danelaw --games 6 --iterations 1 " + std::string(option) +
                                   " --hidden 2 --out " + path);
    EXPECT_EQ(refused.status, 2) << refused.output;
    EXPECT_NE(refused.output.find("fit the linear model"), std::string::npos) << refused.output;
  }
  const auto td = testing_support::run_sling(
      "train danelaw --games 6 --iterations 2 --threads 1 --td-lambda 0.5 --out " + path);
  ASSERT_EQ(td.status, 0) << td.output;
  EXPECT_NE(ValueModel::load(path).command.find("--td-lambda 0.5"), std::string::npos);
  const auto out_of_range = testing_support::run_sling(
      "train danelaw --games 6 --iterations 1 --td-lambda 1.5 --out " + path);
  EXPECT_EQ(out_of_range.status, 2) << out_of_range.output;
}

}  // namespace
}  // namespace sling::danelaw
