// Self-play by generations (experiments/training/danelaw_generations.h): the same run on any
// thread count and after a kill, with candidates fitted or tuned by play, a gate that decides by
// its SPRT, a learning curve that a reader can use, and a directory that is refused in one line
// when it is damaged or holds other settings.

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "engine/core/errors.h"
#include "engine/core/fnv1a.h"
#include "engine/core/io.h"
#include "engine/danelaw/danelaw.h"
#include "experiments/training/danelaw_generations.h"
#include "experiments/training/generations_checkpoint.h"
#include "experiments/training/learning_curve.h"
#include "experiments/training/played_games_file.h"
#include "solvers/danelaw/exact_scenario.h"
#include "solvers/danelaw/value_model.h"
#include "tests/build_paths.h"
#include "tests/run_sling.h"
#include "tests/svg_check.h"

namespace sling::danelaw {
namespace {

namespace fs = std::filesystem;

std::string fresh_dir(const std::string& name) {
  const fs::path dir =
      fs::path(::testing::TempDir()) / ("generations_" + std::to_string(::getpid()) + "_" + name);
  fs::remove_all(dir);
  return dir.string();
}

// A small run: a tiny planner on both sides, a few games, gates and curve pairs.
GenerationOptions small_run(const std::string& dir, int generations, int threads) {
  GenerationOptions o;
  o.generations = generations;
  o.games = 10;
  o.agent = "planner:plans=2,samples=1,battle=0,english_plans=2";
  o.gate_pairs = 4;
  o.curve_pairs = 3;
  o.seed = 11;
  o.threads = threads;
  o.dir = dir;
  return o;
}

const auto kQuiet = [](const std::string&) {};

std::vector<double> weights(const std::string& dir, int generation) {
  return ValueModel::load(dir + "/gen-" + std::to_string(generation) + ".json").weights;
}

TEST(DanelawGenerations, TheSameRunOnAnyThreadCountAfterAKillAndWhenExtended) {
  const DanelawGame game;
  const std::string straight = fresh_dir("straight"), resumed = fresh_dir("resumed");
  const GenerationRun whole = run_generations(game, small_run(straight, 2, 2), kQuiet);
  ASSERT_EQ(whole.generations.size(), 2u);

  // One thread, one generation; then a kill after the second generation's self-play (the state
  // that step saves: its games, no record); then the same command with two generations.
  run_generations(game, small_run(resumed, 2, 1), kQuiet);
  const std::string run_json = resumed + "/run.json";
  GenerationCheckpoint killed = checkpoint_from_json(read_file(run_json), run_json);
  ASSERT_EQ(killed.self_played, 2);
  killed.generations.pop_back();
  write_file_atomic(run_json, checkpoint_to_json(killed));
  const GenerationRun continued = run_generations(game, small_run(resumed, 2, 2), kQuiet);
  EXPECT_EQ(continued.generations, whole.generations);
  EXPECT_EQ(read_file(run_json), read_file(straight + "/run.json"));
  EXPECT_EQ(read_file(resumed + "/games.bin"), read_file(straight + "/games.bin"));
  for (int g = 0; g <= 2; ++g) EXPECT_EQ(weights(resumed, g), weights(straight, g));

  // A finished run extended by a larger --generations plays only the new one.
  const GenerationRun extended = run_generations(game, small_run(resumed, 3, 2), kQuiet);
  ASSERT_EQ(extended.generations.size(), 3u);
  EXPECT_EQ(extended.generations[1], whole.generations[1]);
}

TEST(DanelawGenerations, EachGenerationRecordsItsGateAndTheCurveRatesTheChampion) {
  const DanelawGame game;
  const std::string dir = fresh_dir("records");
  const GenerationRun run = run_generations(game, small_run(dir, 2, 2), kQuiet);
  int champion = 0;
  for (const GenerationRecord& g : run.generations) {
    EXPECT_EQ(g.games, 10);
    EXPECT_EQ(g.positions > 0, true);
    EXPECT_NE(g.gate.find("SPRT"), std::string::npos) << g.gate;
    if (g.accepted) champion = g.generation;
    EXPECT_EQ(g.champion, champion);
    // The reference is generation 0's agent: a champion that is still gen-0 is not played.
    EXPECT_EQ(g.curve_winners.size(), g.champion == 0 ? 0u : 6u);
  }
  const std::string report = read_file(run.report_path);
  EXPECT_EQ(report.rfind("# Danelaw self-play by generations\n\n**Answer.**", 0), 0u) << report;
  const std::string svg = read_file(dir + "/learning-curve.svg");
  for (const std::string& problem : testing_support::svg_label_problems(svg, 11)) {
    ADD_FAILURE() << problem;
  }
  EXPECT_EQ(testing_support::render_svg(svg, "generations_curve"), "");
}

// A reference other than generation 0's agent rates generation 0 as well, once: the curve starts
// at generation 0, the same on any thread count, and a continued run does not play it again.
TEST(DanelawGenerations, AnotherReferenceRatesGenerationZeroToo) {
  const DanelawGame game;
  const std::string dir = fresh_dir("start_rated");
  GenerationOptions o = small_run(dir, 1, 2);
  o.reference = "planner:plans=2,samples=1,battle=0,english_plans=2";  // the embedded model
  const GenerationRun run = run_generations(game, o, kQuiet);
  const GenerationCheckpoint saved = checkpoint_from_json(read_file(dir + "/run.json"), "run.json");
  ASSERT_EQ(saved.start_curve_winners.size(), 6u);  // 3 pairs
  EXPECT_EQ(checkpoint_from_json(checkpoint_to_json(saved), "again").start_curve_winners,
            saved.start_curve_winners);
  const std::vector<CurvePoint> points =
      learning_curve(run.generations, false, saved.start_curve_winners);
  ASSERT_FALSE(points.empty());
  EXPECT_EQ(points[0].generation, 0);
  EXPECT_EQ(points[0].pairs, 3);
  EXPECT_NE(read_file(run.report_path).find("| 0 | | | | | the start | gen-0 | "),
            std::string::npos);
  const std::string other = fresh_dir("start_rated_one_thread");
  GenerationOptions one = o;
  one.dir = other;
  one.threads = 1;
  run_generations(game, one, kQuiet);
  EXPECT_EQ(checkpoint_from_json(read_file(other + "/run.json"), "run.json").start_curve_winners,
            saved.start_curve_winners);
  // Extended by a generation: the start's pairs are kept, not played again.
  o.generations = 2;
  run_generations(game, o, kQuiet);
  EXPECT_EQ(checkpoint_from_json(read_file(dir + "/run.json"), "run.json").start_curve_winners,
            saved.start_curve_winners);
  // A run with the default reference has no such pairs, and its file has no such key.
  const std::string plain = fresh_dir("start_is_reference");
  run_generations(game, small_run(plain, 1, 2), kQuiet);
  EXPECT_EQ(read_file(plain + "/run.json").find("start_curve_winners"), std::string::npos);
}

TEST(DanelawGenerations, TheCurveRatesPairsOnSharedDice) {
  // Three pairs: the champion won both games of one, split one, lost both of the last.
  GenerationRecord g;
  g.generation = 1;
  g.champion = 1;
  g.curve_winners = {kDanes, kDanes, kDanes, kDanes, kEnglish, kDanes};
  // Pair 1: champion Danes won (1), champion English lost (0): 1 point.  Pair 2: the same.
  // Pair 3: champion Danes lost, champion English lost: 0 points.  Mean 2 / 6.
  const std::vector<CurvePoint> points = learning_curve({g}, true);
  ASSERT_EQ(points.size(), 2u);
  EXPECT_EQ(points[0].generation, 0);
  EXPECT_EQ(points[0].pairs, 0);
  EXPECT_EQ(points[1].pairs, 3);
  EXPECT_NEAR(points[1].score, 2.0 / 6.0, 1e-12);
  EXPECT_LT(points[1].elo, 0);
  EXPECT_LT(points[1].low, points[1].elo);
  EXPECT_GT(points[1].high, points[1].elo);
}

TEST(DanelawGenerations, ADamagedOrForeignDirectoryIsRefusedInOneLine) {
  const DanelawGame game;
  const std::string dir = fresh_dir("damaged");
  run_generations(game, small_run(dir, 1, 2), kQuiet);
  const std::string games = read_file(dir + "/games.bin");
  const std::string run = read_file(dir + "/run.json");

  GenerationOptions other = small_run(dir, 1, 2);
  other.games = 12;
  try {
    run_generations(game, other, kQuiet);
    ADD_FAILURE() << "other settings were accepted";
  } catch (const OptionError& e) {
    EXPECT_NE(std::string(e.what()).find("'games 10' there, 'games 12' here"), std::string::npos)
        << e.what();
  }
  std::string flipped = games;
  flipped[flipped.size() / 2] ^= 0x40;
  for (const std::string& bad : {flipped, games.substr(0, games.size() - 3), std::string("x")}) {
    write_file_atomic(dir + "/games.bin", bad);
    EXPECT_THROW(run_generations(game, small_run(dir, 2, 2), kQuiet), FileFormatError);
  }
  write_file_atomic(dir + "/games.bin", games);
  for (const std::string& bad :
       {std::string("{"), std::string(200000, '['), run.substr(0, run.size() / 2),
        std::string("{\"format\": \"sling-train-generations\", \"version\": 1}")}) {
    write_file_atomic(dir + "/run.json", bad);
    try {
      run_generations(game, small_run(dir, 2, 2), kQuiet);
      ADD_FAILURE() << "a damaged run.json was accepted";
    } catch (const FileFormatError& e) {
      EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos);
      EXPECT_NE(std::string(e.what()).find("run.json"), std::string::npos) << e.what();
    }
  }
  write_file_atomic(dir + "/run.json", run);  // intact again: the run continues
  EXPECT_EQ(run_generations(game, small_run(dir, 2, 2), kQuiet).generations.size(), 2u);
}

TEST(DanelawGenerations, PlayedGamesRoundTripAndHostileLengthsAreRefused) {
  const std::vector<PlayedGame> games = {{0, true, false, {1, 2, 3}}, {2, false, true, {}}};
  const std::string bytes = played_games_bytes(games);
  EXPECT_EQ(played_games_from_bytes(bytes, "g"), games);
  // A count of 2^60 games with a valid checksum: refused before anything is sized by it.
  std::string huge = bytes.substr(0, bytes.size() - 8);
  const std::uint64_t count = std::uint64_t{1} << 60;
  huge.replace(std::string("sling-danelaw-games\n").size() + 4, 8,
               std::string(reinterpret_cast<const char*>(&count), 8));
  const std::uint64_t hash = fnv1a(huge);
  huge.append(reinterpret_cast<const char*>(&hash), 8);
  EXPECT_THROW(played_games_from_bytes(huge, "g"), FileFormatError);
  // A history that breaks the rules does not replay.
  TrainingData data;
  data.variants.emplace_back();
  EXPECT_THROW(append_positions(data, {0, false, false, {0xdeadbeef}}), SlingError);
  EXPECT_THROW(append_positions(data, {5, false, false, {}}), SlingError);
}

TEST(DanelawGenerations, TheCommandRefusesAgentsThatCannotLearnAndRunsAGeneration) {
  const std::string dir = fresh_dir("cli");
  const testing_support::CommandRun heuristic = testing_support::run_sling(
      "train danelaw --generations 1 --games 10 --dir " + dir + " --agent heuristic");
  EXPECT_NE(heuristic.status, 0);
  EXPECT_NE(heuristic.output.find("does not score with a value model"), std::string::npos)
      << heuristic.output;
  const testing_support::CommandRun no_dir =
      testing_support::run_sling("train danelaw --generations 1 --games 10");
  EXPECT_NE(no_dir.status, 0);
  EXPECT_NE(no_dir.output.find("--dir"), std::string::npos) << no_dir.output;
  const testing_support::CommandRun bad_reference = testing_support::run_sling(
      "train danelaw --generations 1 --games 10 --dir " + dir + " --reference nosuchagent");
  EXPECT_NE(bad_reference.status, 0);
  EXPECT_FALSE(fs::exists(dir)) << "a bad reference left a directory behind";
  const testing_support::CommandRun bad_gate = testing_support::run_sling(
      "train danelaw --generations 1 --games 10 --dir " + dir + " --gate 5,1");
  EXPECT_NE(bad_gate.status, 0);
  const testing_support::CommandRun one = testing_support::run_sling(
      "train danelaw --generations 1 --games 10 --gate-pairs 2 --curve-pairs 2 --threads 2 --dir " +
      dir + " --agent 'planner:plans=2,samples=1,battle=0,english_plans=2'");
  EXPECT_EQ(one.status, 0) << one.output;
  EXPECT_NE(one.output.find("generation 1:"), std::string::npos) << one.output;
  EXPECT_TRUE(fs::exists(dir + "/report.md"));
}

// The small run with candidates tuned by play: 3 SPSA iterations of 2 pairs.
GenerationOptions tuned_run(const std::string& dir, int generations, int threads) {
  GenerationOptions o = small_run(dir, generations, threads);
  o.tuning.iterations = 3;
  o.tuning.pairs = 2;
  o.tuning.rate = 0.5;
  // Rules where both sides win: the tuning's games then move the weights.
  DanelawRules even = DanelawGame().rules();
  even.towns_to_win = 12;
  o.match_game = std::make_shared<const DanelawGame>(even);
  return o;
}

TEST(DanelawGenerations, TunedByPlayTheSameOnAnyThreadCountAndAfterAKill) {
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

TEST(DanelawGenerations, TheCommandRefusesTuningWithoutGenerationsOrWithAnotherFit) {
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

// The gate and the curve play the match rules: a run with them records them in its settings (so
// a directory of the run's own rules is refused for it), and rules on another map are refused.
TEST(DanelawGenerations, TheGateAndTheCurvePlayTheMatchRules) {
  const DanelawGame game;
  const std::string dir = fresh_dir("match_rules");
  run_generations(game, small_run(dir, 1, 2), kQuiet);
  DanelawRules even = game.rules();
  even.towns_to_win = 12;
  GenerationOptions with_rules = small_run(dir, 1, 2);
  with_rules.match_game = std::make_shared<const DanelawGame>(even);
  try {
    run_generations(game, with_rules, kQuiet);
    ADD_FAILURE() << "a run of the default rules continued with other match rules";
  } catch (const OptionError& e) {
    EXPECT_NE(std::string(e.what()).find("match_rules"), std::string::npos) << e.what();
  }
  const std::string fresh = fresh_dir("match_rules_fresh");
  with_rules.dir = fresh;
  const GenerationRun run = run_generations(game, with_rules, kQuiet);
  ASSERT_EQ(run.generations.size(), 1u);
  EXPECT_NE(read_file(fresh + "/run.json").find("towns_to_win\\\": 12"), std::string::npos);
  // Another gate on other rules: the same self-play and fit, other gate games.
  const GenerationRun plain = run_generations(game, small_run(fresh_dir("plain"), 1, 2), kQuiet);
  EXPECT_EQ(run.generations[0].danish_wins, plain.generations[0].danish_wins);
  EXPECT_EQ(run.generations[0].log_loss, plain.generations[0].log_loss);
  GenerationOptions other_map = small_run(fresh_dir("other_map"), 1, 2);
  other_map.match_game =
      std::make_shared<const DanelawGame>(load_scenario(SLING_SOURCE_DIR, "holt-2"));
  EXPECT_THROW(run_generations(game, other_map, kQuiet), OptionError);
}

}  // namespace
}  // namespace sling::danelaw
