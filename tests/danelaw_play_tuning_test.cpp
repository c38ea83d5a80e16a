// Tuning danelaw's value model by play (experiments/training/danelaw_play_tuning.h): SPSA's
// arithmetic against hand-computed steps, its climb on an objective with a known optimum and noisy
// paired results, and tuned generations that are the same on any thread count and after a kill.

#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <numeric>
#include <string>
#include <vector>

#include "engine/core/errors.h"
#include "engine/core/io.h"
#include "engine/core/random.h"
#include "engine/danelaw/danelaw.h"
#include "experiments/training/danelaw_generations.h"
#include "experiments/training/danelaw_play_tuning.h"
#include "experiments/training/generations_checkpoint.h"
#include "solvers/danelaw/value_model.h"
#include "tests/build_paths.h"
#include "tests/run_sling.h"

namespace sling::danelaw {
namespace {

namespace fs = std::filesystem;

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

std::string fresh_dir(const std::string& name) {
  const fs::path dir =
      fs::path(::testing::TempDir()) / ("play_tuning_" + std::to_string(::getpid()) + "_" + name);
  fs::remove_all(dir);
  return dir.string();
}

GenerationOptions tuned_run(const std::string& dir, int generations, int threads) {
  GenerationOptions o;
  o.generations = generations;
  o.games = 10;
  o.agent = "planner:plans=2,samples=1,battle=0,english_plans=2";
  o.gate_pairs = 4;
  o.curve_pairs = 2;
  o.seed = 13;
  o.threads = threads;
  o.dir = dir;
  o.tuning = tuning(3, 0.5, 0.5);
  o.tuning.pairs = 2;
  // Rules where both sides win: the tuning's games then move the weights.
  DanelawRules even = DanelawGame().rules();
  even.towns_to_win = 12;
  o.match_game = std::make_shared<const DanelawGame>(even);
  return o;
}

const auto kQuiet = [](const std::string&) {};

TEST(DanelawPlayTuning, TunedGenerationsAreTheSameOnAnyThreadCountAndAfterAKill) {
  const DanelawGame game;
  const std::string two = fresh_dir("two"), one = fresh_dir("one");
  const GenerationRun whole = run_generations(game, tuned_run(two, 2, 2), kQuiet);
  ASSERT_EQ(whole.generations.size(), 2u);
  const ValueModel start = ValueModel::load(two + "/gen-0.json");
  const ValueModel tuned = ValueModel::load(two + "/gen-1.json");
  EXPECT_EQ(tuned.weights[0], start.weights[0]);  // the bias
  EXPECT_NE(tuned.weights, start.weights);
  for (const GenerationRecord& g : whole.generations) {
    EXPECT_EQ(g.games, 3 * 2 * 2);  // iterations x pairs x 2
    EXPECT_EQ(g.positions, 0);
  }
  EXPECT_FALSE(fs::exists(two + "/tune-plus.json"));
  EXPECT_FALSE(fs::exists(two + "/games.bin"));  // no self-play to keep
  EXPECT_NE(read_file(whole.report_path).find("tuned by play"), std::string::npos);

  // One thread, then a kill after the second generation (its record lost), then the same run.
  run_generations(game, tuned_run(one, 2, 1), kQuiet);
  const std::string run_json = one + "/run.json";
  GenerationCheckpoint killed = checkpoint_from_json(read_file(run_json), run_json);
  killed.generations.pop_back();
  write_file_atomic(run_json, checkpoint_to_json(killed));
  fs::remove(one + "/gen-2.json");
  run_generations(game, tuned_run(one, 2, 2), kQuiet);
  EXPECT_EQ(read_file(run_json), read_file(two + "/run.json"));
  for (const char* model : {"gen-1.json", "gen-2.json"}) {
    EXPECT_EQ(read_file(one + "/" + model), read_file(two + "/" + model)) << model;
  }

  // Other tuning settings are another run.
  GenerationOptions other = tuned_run(one, 2, 2);
  other.tuning.pairs = 3;
  try {
    run_generations(game, other, kQuiet);
    ADD_FAILURE() << "a run with other tuning settings was continued";
  } catch (const OptionError& e) {
    EXPECT_NE(std::string(e.what()).find("tuning"), std::string::npos) << e.what();
  }
}

TEST(DanelawPlayTuning, TheCommandRefusesTuningWithoutGenerationsOrWithAnotherFit) {
  const std::string dir = fresh_dir("command");
  const std::vector<std::string> base = {
      "train", "danelaw", "--games",
      "10",    "--agent", "planner:plans=2,samples=1,battle=0,english_plans=2"};
  const auto with = [&](const std::vector<std::string>& extra) {
    std::string args;
    for (const std::vector<std::string>* part : {&base, &extra}) {
      for (const std::string& a : *part) args += "'" + a + "' ";
    }
    return testing_support::run_sling(args);
  };
  for (const auto& extra : std::vector<std::vector<std::string>>{
           {"--tune-iterations", "2", "--out", dir + "/m.json"},
           {"--tune-iterations", "2", "--generations", "1", "--dir", dir, "--hidden", "4"},
           {"--tune-iterations", "2", "--generations", "1", "--dir", dir, "--town-terms"},
           {"--tune-iterations", "2", "--tune-pairs", "0", "--generations", "1", "--dir", dir},
           {"--tune-iterations", "2", "--tune-rate", "0", "--generations", "1", "--dir", dir}}) {
    const auto r = with(extra);
    EXPECT_EQ(r.status, 2) << r.output;
    EXPECT_EQ(testing_support::count_lines(r.output), 1) << r.output;
  }
  EXPECT_FALSE(fs::exists(dir + "/run.json"));  // refused before the directory is touched

  const auto r = with({"--tune-iterations", "1", "--tune-pairs", "1", "--generations", "1", "--dir",
                       dir, "--gate-pairs", "2", "--curve-pairs", "0"});
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("tuning: iteration 1 of 1, mean score gap"), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("generation 1: tuned by play on 2 games"), std::string::npos) << r.output;
  EXPECT_NE(read_file(dir + "/report.md").find("--tune-iterations 1 --tune-pairs 1"),
            std::string::npos);
}

}  // namespace
}  // namespace sling::danelaw
