// Danelaw's learned value model (solvers/danelaw/value_model.h) and its value function
// (solvers/danelaw/model_value.h, `leaf=value`), its fitting (experiments/training/), the
// movement-plan search (agents/danelaw_planner.h) and the balance study's plumbing
// (experiments/studies/danelaw_balance.h).

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>

#include "agents/danelaw_planner.h"
#include "agents/registry.h"
#include "engine/core/errors.h"
#include "engine/core/record.h"
#include "engine/danelaw/danelaw.h"
#include "experiments/match.h"
#include "experiments/play_game.h"
#include "experiments/studies/danelaw_balance.h"
#include "experiments/training/danelaw_training.h"
#include "play/play_agents.h"
#include "solvers/danelaw/model_value.h"
#include "solvers/danelaw/value_model.h"
#include "tests/run_sling.h"

namespace sling::danelaw {
namespace {

std::string one_line_error(const std::string& text) {
  try {
    ValueModel::from_json(text, "'test.json'");
  } catch (const FileFormatError& e) {
    return e.what();
  }
  return "";
}

TEST(DanelawValueModel, EmbeddedModelRecordsHowItWasTrained) {
  const ValueModel& model = ValueModel::embedded();
  ASSERT_EQ(model.weights.size(), static_cast<std::size_t>(kFeatureCount));
  EXPECT_EQ(model.command.rfind("sling train danelaw ", 0), 0u) << model.command;
  EXPECT_NE(model.command.find("--seed " + std::to_string(model.seed)), std::string::npos);
  EXPECT_GT(model.games, 0);
  EXPECT_GT(model.states, 0);
  EXPECT_FALSE(model.calibration.empty());
}

TEST(DanelawValueModel, JsonRoundTripKeepsEveryField) {
  ValueModel model = ValueModel::embedded();
  model.weights[3] = -1.25;
  model.command = "sling train danelaw --games 7 \"quoted\"";
  const ValueModel back = ValueModel::from_json(model.to_json(), "'round trip'");
  for (int i = 0; i < kFeatureCount; ++i) EXPECT_NEAR(back.weights[i], model.weights[i], 1e-9);
  EXPECT_EQ(back.seed, model.seed);
  EXPECT_EQ(back.games, model.games);
  EXPECT_EQ(back.calibration.size(), model.calibration.size());
  EXPECT_EQ(back.command, model.command);
}

TEST(DanelawValueModel, MalformedFilesAreOneLineErrors) {
  const std::string good = ValueModel::embedded().to_json();
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"{not json", "not JSON"},
      {good.substr(0, good.size() / 2), "not JSON"},  // truncated
      {"[1, 2]", "expected a JSON object"},
      {"{\"format\": \"sling-duel-solution\"}", "not a danelaw value model"},
      {std::string(good).replace(good.find("\"towns_held\""), 12, "\"towns_kept\""),
       "another feature set"},
      {std::string(good).replace(good.find("\"weights\": ["), 12, "\"weights\": [\"x\", "),
       "features and weights"},
      {std::string(good).replace(good.find("\"version\": 1"), 12, "\"version\": 9"), "version 9"},
  };
  for (const auto& [text, expected] : cases) {
    const std::string error = one_line_error(text);
    EXPECT_NE(error.find(expected), std::string::npos) << error;
    EXPECT_NE(error.find("'test.json'"), std::string::npos) << error;
    EXPECT_EQ(error.find('\n'), std::string::npos) << error;
  }
  EXPECT_THROW(ValueModel::load("/nonexistent/model.json"), FileFormatError);
}

TEST(DanelawValueModel, FeaturesFollowTheTownsAndTheArmies) {
  const DanelawGame game;
  State s = game.initial_state();
  Features f = extract_features(game, s);
  EXPECT_EQ(f[feature::kBias], 1.0);
  EXPECT_EQ(f[feature::kTownsHeld], 0.0);
  EXPECT_DOUBLE_EQ(f[feature::kTurnsLeft], 1.0);
  EXPECT_DOUBLE_EQ(f[feature::kEnglishField], 3.0 / game.rules().pool);
  // A Dane standing in an empty town holds it and defends it, and reaches other empty towns.
  int town = 0;
  while (game.army_at(s, game.map().towns()[town].hex) >= 0) ++town;
  State held = s;
  held.danish_towns = std::uint64_t{1} << town;
  held.armies[held.army_count++] =
      Army{static_cast<std::uint16_t>(game.map().towns()[town].hex), kDanes, 0};
  f = extract_features(game, held);
  EXPECT_DOUBLE_EQ(f[feature::kTownsHeld], 1.0 / game.rules().towns_to_win);
  EXPECT_DOUBLE_EQ(f[feature::kDefendedTowns], 1.0 / game.rules().towns_to_win);
  EXPECT_DOUBLE_EQ(f[feature::kDanesOnMap], 1.0 / game.rules().pool);
  EXPECT_GT(f[feature::kDanesReachTwo], 0.0);
  EXPECT_GE(f[feature::kDanesReachTwo], f[feature::kDanesReachEmpty]);
}

TEST(DanelawValueModel, EvaluationIsTheModelsProbabilityAndTheResultAtTheEnd) {
  const DanelawGame game;
  const State s = game.initial_state();
  const ModelValue value(game);
  EXPECT_DOUBLE_EQ(value(s), 2 * ValueModel::embedded().probability(game, s) - 1);
  ValueModel flat = ValueModel::embedded();
  std::fill(flat.weights.begin(), flat.weights.end(), 0.0);
  const ModelValue flat_value(game, std::make_shared<const ValueModel>(flat));
  EXPECT_DOUBLE_EQ(flat_value(s), 0.0);
  EXPECT_NE(value(s), 0.0);  // each value function scores with its own model
}

TEST(DanelawValueModel, EvaluationIsBoundedAndFollowsTheTowns) {
  const DanelawGame game;
  const ModelValue value(game);
  State s = game.initial_state();
  const double start = value(s);
  EXPECT_GE(start, -1.0);
  EXPECT_LE(start, 1.0);
  // The Danes' last half-turn done: holding 16 towns is better than holding 3.  (The learned model
  // is not asked for a sign here: a position with no Danish army left anywhere lies outside the
  // games it was fitted on.)
  State many = s;
  many.turn = static_cast<std::uint8_t>(game.rules().turn_limit);
  many.side = kEnglish;
  many.phase = Phase::kMovementDice;
  many.to_place = 0;
  for (int t = 0; t < 16; ++t) many.danish_towns |= std::uint64_t{1} << t;
  State few = many;
  few.danish_towns = 0b111;
  EXPECT_LT(value(few), -0.9);
  EXPECT_GT(value(many), value(few) + 0.2);
  auto danes = make_agent(game, "heuristic");
  auto english = make_agent(game, "heuristic");
  const State end = replay(game, play_game(game, *danes, *english, 3).record);
  ASSERT_TRUE(game.is_terminal(end));
  EXPECT_EQ(value(end), game.returns(end)[0]);
}

// The rules have no evaluation of their own; the searches score danelaw's leaves with the value
// model, expectimax by default.
TEST(DanelawValueModel, SearchLeavesUseTheModel) {
  const DanelawGame game;
  EXPECT_NE(make_agent(game, "expectimax:nodes=100")->spec().find(",leaf=value"),
            std::string::npos);
  EXPECT_NO_THROW(make_agent(game, "mcts:iterations=10,leaf=value"));
  EXPECT_THROW(make_agent(game, "mcts:iterations=10,leaf=evaluate"), OptionError);
  EXPECT_THROW(make_agent(game, "mcts:iterations=10,leaf=value,value_model=/nonexistent.json"),
               FileFormatError);
}

// Labels drawn from a known logistic model: the fit recovers its weights within a few standard
// errors (20,000 samples; the tolerance is about four standard errors of the largest weight).
TEST(DanelawTraining, LogisticFitRecoversKnownWeights) {
  std::vector<double> truth(kFeatureCount, 0.0);
  truth[feature::kBias] = -0.5;
  truth[feature::kTownsHeld] = 2.0;
  truth[feature::kTurnsLeft] = -1.0;
  Rng rng(5, 0);
  std::vector<Sample> samples;
  for (int i = 0; i < 20000; ++i) {
    Sample s{};
    s.features[feature::kBias] = 1.0;
    for (int k = 1; k < kFeatureCount; ++k) s.features[k] = rng.uniform01();
    double z = 0;
    for (int k = 0; k < kFeatureCount; ++k) z += truth[k] * s.features[k];
    s.danes_won = rng.uniform01() < 1 / (1 + std::exp(-z));
    samples.push_back(s);
  }
  const std::vector<double> w = fit_logistic(samples, 1e-6);
  for (int k = 0; k < kFeatureCount; ++k) EXPECT_NEAR(w[k], truth[k], 0.25) << k;
}

TEST(DanelawTraining, SamplesAreTheStartsOfHalfTurns) {
  const DanelawGame game;
  auto heuristic = make_agent(game, "heuristic");
  auto other = make_agent(game, "heuristic");
  const GameResult result = play_game(game, *heuristic, *other, 3);
  std::vector<Sample> samples;
  collect_samples(game, result.record.history, result.winner == kDanes, true, samples);
  EXPECT_EQ(samples.size(), static_cast<std::size_t>(2 * game.rules().turn_limit));
  for (const Sample& s : samples) EXPECT_EQ(s.danes_won, result.winner == kDanes);
  const ValueModel& model = ValueModel::embedded();
  const auto bins = calibration(model, samples);
  int counted = 0;
  for (const auto& b : bins) counted += b.count;
  EXPECT_EQ(counted, static_cast<int>(samples.size()));
  EXPECT_GT(held_out_log_loss(model, samples), 0.0);
}

TEST(DanelawPlanner, PlaysLegalDeterministicGames) {
  const DanelawGame game;
  auto a = make_agent(game, "planner:plans=3,samples=1,battle=1");
  auto b = make_agent(game, "heuristic");
  const GameResult first = play_game(game, *a, *b, 17);
  EXPECT_TRUE(first.error.empty()) << first.error;
  EXPECT_TRUE(game.is_terminal([&] {
    State s = game.initial_state();
    for (Action x : first.record.history) apply_any(game, s, x);
    return s;
  }()));
  const GameResult again = play_game(game, *a, *b, 17);
  EXPECT_EQ(first.record.history, again.record.history);
}

TEST(DanelawPlanner, MovementPlanIsFollowedWhileThePositionIsTheOneExpected) {
  const DanelawGame game;
  Planner planner(game, PlannerConfig{4, 1, 1, 0.3});
  planner.new_game(9);
  Rng dice(9, 0);
  State s = game.initial_state();
  while (s.phase != Phase::kMove) {
    apply_any(game, s,
              game.current_player(s) == kChancePlayer ? sample_chance(game, s, dice)
                                                      : game.heuristic_action(s, dice));
  }
  const PlannerChoice choice = planner.choose(s);
  ASSERT_FALSE(choice.options.empty());
  EXPECT_GT(choice.playouts, 0);
  EXPECT_GE(choice.value, -1.0);
  EXPECT_LE(choice.value, 1.0);
  ActionList<DanelawGame> legal;
  game.legal_actions(s, legal);
  EXPECT_NE(std::find(legal.begin(), legal.end(), choice.action), legal.end());
  // The next decision of the plan comes without a search (no playouts).
  game.apply_action(s, choice.action);
  if (game.current_player(s) == kDanes) {
    EXPECT_EQ(planner.choose(s).playouts, 0);
  }
}

// The first movement decision of the Danes (heuristic play up to it, seeded dice).
State first_movement(const DanelawGame& game, std::uint64_t seed) {
  Rng dice(seed, 0);
  State s = game.initial_state();
  while (s.phase != Phase::kMove) {
    apply_any(game, s,
              game.current_player(s) == kChancePlayer ? sample_chance(game, s, dice)
                                                      : game.heuristic_action(s, dice));
  }
  return s;
}

TEST(DanelawPlanner, SideSettingsParseAndWriteBack) {
  const DanelawGame game;
  const auto agent = make_agent(game, "planner:plans=8,battle=0,english_plans=1,english_battle=3");
  const std::string spec = agent->spec();
  EXPECT_EQ(spec,
            "planner:plans=8,samples=4,battle=0,noise=0.3,margin=0,english_plans=1,"
            "english_battle=3");
  EXPECT_EQ(make_agent(game, spec)->spec(), spec);
  // danes_* overrides the shared setting for the Danes only: the English keep the default.
  EXPECT_EQ(make_agent(game, "planner:danes_plans=4")->spec(),
            "planner:plans=4,samples=4,battle=8,noise=0.3,margin=0,english_plans=32");
  EXPECT_THROW(make_agent(game, "planner:english_battle=-1"), OptionError);
  EXPECT_THROW(make_agent(game, "planner:danes_margin=3"), OptionError);
  EXPECT_THROW(make_agent(game, "planner:english_depth=3"), OptionError);
  // The reply halves: written only where set, and per side like the rest.
  EXPECT_EQ(make_agent(game, "planner:plans=8,english_reply=1")->spec(),
            "planner:plans=8,samples=4,battle=8,noise=0.3,margin=0,english_reply=1");
  EXPECT_EQ(make_agent(game, "planner:plans=8,reply=1")->spec(),
            "planner:plans=8,samples=4,battle=8,noise=0.3,margin=0,reply=1");
  EXPECT_THROW(make_agent(game, "planner:reply=5"), OptionError);
}

// With reply=1 the English score a plan after the Danes' next half (played by the heuristic), not
// at the end of their own: the same plans on the same dice get other values.
TEST(DanelawPlanner, ReplyScoresPlansAfterTheOpponentsNextHalf) {
  const DanelawGame game;
  Rng dice(5, 0);
  State s = game.initial_state();
  while (!(s.phase == Phase::kMove && s.side == kEnglish)) {
    apply_any(game, s,
              game.current_player(s) == kChancePlayer ? sample_chance(game, s, dice)
                                                      : game.heuristic_action(s, dice));
  }
  PlannerConfig own_half{4, 2, 0, 0.3};
  PlannerConfig with_reply = own_half;
  with_reply.reply = 1;
  Planner at_own_end(game, own_half);
  Planner after_reply(game, with_reply);
  at_own_end.new_game(5);
  after_reply.new_game(5);
  const PlannerChoice a = at_own_end.choose(s);
  const PlannerChoice b = after_reply.choose(s);
  ASSERT_TRUE(a.evaluated && b.evaluated);
  EXPECT_EQ(a.playouts, b.playouts);
  EXPECT_NE(a.value, b.value);
  EXPECT_GE(b.value, -1.0);
  EXPECT_LE(b.value, 1.0);
}

TEST(DanelawPlanner, BattleZeroFollowsTheHeuristicWithoutPlayouts) {
  const DanelawGame game;
  Planner heuristic_battles(game, PlannerConfig{4, 1, 0, 0.3});
  Planner playout_battles(game, PlannerConfig{4, 1, 2, 0.3});
  heuristic_battles.new_game(3);
  playout_battles.new_game(3);
  Rng dice(3, 0);
  State s = game.initial_state();
  int battles = 0;
  while (!game.is_terminal(s) && battles < 40) {
    if (game.current_player(s) == kChancePlayer) {
      apply_any(game, s, sample_chance(game, s, dice));
      continue;
    }
    const bool battle = s.phase == Phase::kChooseTarget || s.phase == Phase::kChooseRoller ||
                        s.phase == Phase::kAdvance || s.phase == Phase::kRoutStep;
    ActionList<DanelawGame> legal;
    game.legal_actions(s, legal);
    if (battle && legal.size() > 1) {
      ++battles;
      EXPECT_EQ(heuristic_battles.choose(s).playouts, 0);
      EXPECT_GT(playout_battles.choose(s).playouts, 0);
    }
    apply_any(game, s, game.heuristic_action(s, dice));
  }
  EXPECT_GT(battles, 0);
}

TEST(DanelawPlanner, PerSideSettingsAndAWideMarginKeepTheHeuristicPlan) {
  const DanelawGame game;
  const State s = first_movement(game, 9);
  // A margin wider than any value difference (values lie in [-1, 1]) never replaces the
  // heuristic's plan: the same first move as a planner that samples that plan alone.
  Planner wide(game, PlannerConfig{8, 2, 0, 0.5, 2.0});
  Planner alone(game, PlannerConfig{1, 1, 0, 0.5});
  wide.new_game(9);
  alone.new_game(9);
  const PlannerChoice kept = wide.choose(s);
  EXPECT_EQ(kept.action, alone.choose(s).action);
  EXPECT_GT(kept.options.size(), 1u);  // other plans were sampled and scored
  // Settings per side: the Danes' (here moving) apply, not the English's.
  Planner sided(
      game, std::array<PlannerConfig, 2>{PlannerConfig{1, 1, 0, 0.5}, PlannerConfig{8, 2, 0, 0.5}});
  sided.new_game(9);
  EXPECT_EQ(sided.config(kEnglish).plans, 8);
  const PlannerChoice danes = sided.choose(s);
  EXPECT_EQ(danes.options.size(), 1u);
  EXPECT_EQ(danes.action, kept.action);
}

TEST(DanelawPlanner, BadModelFileIsAOneLineError) {
  const DanelawGame game;
  EXPECT_THROW(make_agent(game, "planner:model=/nonexistent.json"), FileFormatError);
  EXPECT_THROW(make_agent(game, "planner:plans=0"), OptionError);
  const auto run = testing_support::run_sling(
      "match danelaw --danes planner:model=/nonexistent.json --english heuristic --games 1");
  EXPECT_NE(run.status, 0);
  EXPECT_EQ(testing_support::count_lines(run.output), 1) << run.output;
}

TEST(DanelawBalance, VariantsAreValidRulesAndTheReportIsWritten) {
  const auto variants = default_balance_variants(DanelawRules{});
  ASSERT_GE(variants.size(), 6u);
  EXPECT_EQ(variants[0].name, "default");
  EXPECT_EQ(variants[0].towns_axis, 15);
  for (const auto& v : variants) EXPECT_NO_THROW(DanelawGame{v.rules}) << v.name;
  // The other reading of the seed's +10 Danes: every extra army begins at sea.
  const auto at_sea = std::find_if(variants.begin(), variants.end(),
                                   [](const auto& v) { return v.name == "+10 Danes, all at sea"; });
  ASSERT_NE(at_sea, variants.end());
  EXPECT_EQ(at_sea->rules.danes_at_sea, 20);
  EXPECT_TRUE(at_sea->rules.danes_extra);
  // default (15 towns), 16 and 14 towns: 15's neighbours are the other two.
  const std::vector<BalanceVariant> three = {variants[0], variants[1], variants[2]};
  ASSERT_EQ(three[1].towns_axis, 16);
  ASSERT_EQ(three[2].towns_axis, 14);
  BalanceOptions options;
  options.games = 4;
  options.threads = 1;
  int calls = 0;
  options.progress = [&calls](int done, int total) {
    ++calls;
    EXPECT_LE(done, total);
  };
  const std::vector<BalancePairing> pairings = {
      {{"heuristic", "heuristic"}, {"heuristic", "heuristic"}},
      {{"random", "heuristic"}, {"random", "heuristic"}}};
  const BalanceResult result = run_balance_study(three, pairings, options);
  EXPECT_EQ(calls, 2 * 3 * 4);
  ASSERT_EQ(result.pairings.size(), 2u);
  for (const auto& p : result.pairings) {
    ASSERT_EQ(p.variants.size(), 3u);
    EXPECT_GT(p.calibration.positions, 0);
    for (const auto& v : p.variants) {
      EXPECT_EQ(v.games, 4);
      EXPECT_EQ(v.danes_won.size(), 4u);
      EXPECT_LE(v.danish_wins, 4);
      EXPECT_LE(v.interval.low, v.danish_win_rate());
      EXPECT_GE(v.interval.high, v.danish_win_rate());
      EXPECT_LE(v.mean_final_towns, v.mean_peak_towns);
      EXPECT_GE(v.mean_danes_lost, 0.0);
    }
  }
  EXPECT_EQ(balance_neighbours(result.pairings[0].variants, 0), (std::vector<int>{2, 1}));
  // The same games whatever the thread count: the study is reproducible.
  options.threads = 2;
  const BalanceResult again = run_balance_study(three, pairings, options);
  EXPECT_EQ(again.pairings[1].variants[2].danes_won, result.pairings[1].variants[2].danes_won);
  EXPECT_EQ(again.pairings[0].variants[1].mean_final_towns,
            result.pairings[0].variants[1].mean_final_towns);
  const auto dir = std::filesystem::temp_directory_path() / "sling-balance-test";
  std::filesystem::remove_all(dir);
  write_balance_report(result, options, "test", dir.string());
  std::ifstream report(dir / "report.md");
  const std::string md((std::istreambuf_iterator<char>(report)), {});
  EXPECT_EQ(md.find("**Answer for heuristic Danes against heuristic English.**"),
            md.find("**Answer"))
      << md;
  EXPECT_NE(md.find("calibration"), std::string::npos);
  EXPECT_TRUE(std::filesystem::exists(dir / "variants.csv"));
  std::ifstream svg(dir / "danes_win_rate.svg");
  const std::string text((std::istreambuf_iterator<char>(svg)), {});
  EXPECT_NE(text.find("towns needed 16"), std::string::npos);
  EXPECT_NE(text.find("random Danes against heuristic English"), std::string::npos);
  std::filesystem::remove_all(dir);
}

TEST(DanelawBalance, PairedDifferencesCountOnlyTheGamesThatDiffer) {
  VariantOutcome a, b;
  a.danes_won = {0, 0, 1, 1, 0, 0, 0, 0};
  b.danes_won = {1, 1, 1, 1, 0, 1, 0, 0};
  const PairedDifference d = paired_difference(a, b);
  EXPECT_DOUBLE_EQ(d.mean, 3.0 / 8);
  EXPECT_EQ(d.discordant, 3);
  EXPECT_LT(d.low, d.mean);
  EXPECT_GT(d.high, d.mean);
  const PairedDifference same = paired_difference(a, a);
  EXPECT_EQ(same.discordant, 0);
  EXPECT_FALSE(same.separated());
  // Many seeds, the same one-sided change: separated.
  VariantOutcome c, e;
  for (int i = 0; i < 200; ++i) {
    c.danes_won.push_back(0);
    e.danes_won.push_back(i % 4 == 0);
  }
  EXPECT_TRUE(paired_difference(c, e).separated());
}

// The figure's legend names each pairing by its specs as given: a long spec widens the canvas
// instead of running off its edge, and a spec with markup characters stays valid SVG.
TEST(DanelawBalance, TheFigureFitsLongSpecsAndEscapesThem) {
  BalanceResult result;
  for (const std::string& english :
       {std::string("strong"),
        std::string(
            "external:cmd='./agent --a && ./b <in',move_time=1,game_time=0,startup_time=30")}) {
    PairingOutcome p;
    p.pairing.names = {"strong", english};
    VariantOutcome v;
    v.variant.name = "default";
    v.games = 4;
    v.danish_wins = 2;
    v.interval = {0.2, 0.8};
    p.variants.push_back(v);
    result.pairings.push_back(p);
  }
  const std::string svg = balance_svg(result);
  EXPECT_NE(svg.find("&amp;&amp; ./b &lt;in"), std::string::npos) << svg;
  EXPECT_EQ(svg.find("&& ./b"), std::string::npos);
  const std::size_t at = svg.find("width=\"") + 7;
  const int width = std::stoi(svg.substr(at));
  const std::string label =
      "strong Danes against external:cmd='./agent --a && ./b <in',move_time=1,game_time=0,"
      "startup_time=30 English";
  EXPECT_GE(width, 250 + 12 + static_cast<int>(7 * label.size()));
  result.pairings.pop_back();
  EXPECT_NE(balance_svg(result).find("width=\"720\""), std::string::npos);
}

TEST(DanelawBalance, UnevenPairingsAreRefused) {
  const auto run = testing_support::run_sling(
      "study balance danelaw --danes strong --danes normal --english strong --games 1 --out " +
      (std::filesystem::temp_directory_path() / "sling-balance-uneven").string());
  EXPECT_EQ(run.status, 2);
  EXPECT_EQ(testing_support::count_lines(run.output), 1) << run.output;
  EXPECT_NE(run.output.find("same number of times"), std::string::npos) << run.output;
}

// experiments/tests/danelaw_strength_test.cpp measures these exact specs.
TEST(DanelawPresets, MatchTheStrengthStudy) {
  const DanelawGame game;
  EXPECT_EQ(play::resolve_preset(game, "easy"), "heuristic:blunder=0.1");
  EXPECT_EQ(play::resolve_preset(game, "normal"),
            "planner:plans=8,samples=2,battle=0,english_plans=32");
  EXPECT_EQ(
      play::resolve_preset(game, "strong"),
      "planner:plans=64,samples=4,battle=0,reply=1,endgame=4,english_endgame=1,endgame_battle=64,"
      "endgame_mcts=32000,endgame_mcts_transpositions=1,endgame_mcts_c=2,"
      "english_endgame_mcts_halves=4,danes_endgame_mcts=128000,danes_endgame_mcts_trees=2,"
      "danes_endgame_mcts_work=80000000");
  // Today's strong as main had it at 0a8476c, kept as a fixed reference for later presets.
  EXPECT_EQ(play::resolve_preset(game, "strong-0a8476c"),
            "planner:plans=64,samples=4,battle=0,english_plans=1");
  for (const char* preset : {"easy", "normal", "strong", "strong-0a8476c"}) {
    EXPECT_NO_THROW(play::make_play_agent(game, preset)) << preset;
  }
}

// The planner's draws come from the game's seed and the decision's place in the game, never from
// the thread that plays it: a match of the presets is the same on one thread and on two.
TEST(DanelawPresets, AMatchIsTheSameOnAnyThreadCount) {
  const DanelawGame game;
  const std::array<std::string, 2> specs = {play::resolve_preset(game, "normal"),
                                            play::resolve_preset(game, "strong")};
  MatchOptions options;
  options.games = 4;
  options.seed = 21;
  options.threads = 1;
  const MatchResult one = run_match(game, specs, options);
  options.threads = 2;
  const MatchResult two = run_match(game, specs, options);
  EXPECT_EQ(one.wins, two.wins);
  EXPECT_EQ(one.mean_plies, two.mean_plies);
  EXPECT_EQ(one.end_reasons, two.end_reasons);
  EXPECT_EQ(one.errors, (std::array<int, 2>{0, 0}));
}

}  // namespace
}  // namespace sling::danelaw
