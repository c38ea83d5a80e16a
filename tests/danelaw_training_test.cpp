// Danelaw's AI as a thing to extend: the planner scores with any leaf evaluator chosen as search
// leaves choose theirs (agents/danelaw_value.h), model files load through the one cache, moves the
// planner did not compare report no values, and training is self-play on the match harness, the
// data it writes, and a fitter behind an interface (experiments/training/).

#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "agents/danelaw_planner.h"
#include "agents/danelaw_value.h"
#include "agents/external_protocol.h"
#include "agents/registry.h"
#include "engine/core/errors.h"
#include "engine/core/io.h"
#include "engine/danelaw/danelaw.h"
#include "experiments/match.h"
#include "experiments/training/danelaw_self_play.h"
#include "experiments/training/danelaw_training.h"
#include "play/web/web_moves.h"
#include "solvers/danelaw/model_value.h"
#include "solvers/danelaw/value_model.h"
#include "tests/run_sling.h"

namespace sling::danelaw {
namespace {

std::string temp_file(const std::string& name) {
  return ::testing::TempDir() + "danelaw_training_" + std::to_string(::getpid()) + "_" + name;
}

// A model whose every weight is 0: P(Danes win) = 1/2 everywhere, so every plan scores 0.
ValueModel flat_model() {
  ValueModel model = ValueModel::embedded();
  std::fill(model.weights.begin(), model.weights.end(), 0.0);
  return model;
}

// An evaluator of any kind, counting its calls (from any thread).
class CountingValue final : public PositionValue {
 public:
  double operator()(const State& s) const override {
    ++calls;
    return s.turn % 2 ? 0.25 : -0.25;
  }
  mutable std::atomic<std::int64_t> calls = 0;
};

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

TEST(DanelawPlanner, ScoresWithAnyLeafEvaluator) {
  const DanelawGame game;
  const auto counting = std::make_shared<CountingValue>();
  Planner planner(game, PlannerConfig{4, 2, 0, 0.3}, counting);
  planner.new_game(5);
  const PlannerChoice choice = planner.choose(first_movement(game, 5));
  EXPECT_GT(choice.playouts, 0);
  EXPECT_EQ(counting->calls, choice.playouts);  // every playout is scored by it, and only it
  for (const auto& option : choice.options) {
    EXPECT_EQ(std::abs(option.value), 0.25);  // its values, not the model's
  }
}

TEST(DanelawValueModel, FilesLoadThroughTheOneCache) {
  const std::string path = temp_file("cached.json");
  write_file_atomic(path, flat_model().to_json());
  const auto first = ValueModel::shared(path);
  EXPECT_EQ(ValueModel::shared(path), first);  // one copy for every user of the file
  ValueModel changed = flat_model();
  changed.weights[feature::kBias] = 1.5;
  write_file_atomic(path, changed.to_json());  // a rewritten file is read again
  const auto second = ValueModel::shared(path);
  EXPECT_NE(second, first);
  EXPECT_EQ(second->weights[feature::kBias], 1.5);
  std::remove(path.c_str());
  EXPECT_THROW(ValueModel::shared(path), FileFormatError);
}

// One option, value_model=, names the model for the planner as for search leaves; the planner's
// former `model` still reads (saved games) and is written back under the one name.
TEST(DanelawPlanner, OneOptionNamesTheModelForThePlannerAndSearchLeaves) {
  const DanelawGame game;
  const std::string path = temp_file("flat.json");
  write_file_atomic(path, flat_model().to_json());
  const std::string planner = "planner:plans=4,samples=1,battle=0,noise=0.5,margin=0";
  const auto with_file = make_agent(game, planner + ",value_model=" + path);
  EXPECT_EQ(with_file->spec(), planner + ",value_model=" + path);
  EXPECT_EQ(make_agent(game, planner + ",model=" + path)->spec(), with_file->spec());
  EXPECT_THROW(make_agent(game, planner + ",model=" + path + ",value_model=" + path), OptionError);
  EXPECT_NE(make_agent(game, "mcts:iterations=10,leaf=value,value_model=" + path)
                ->spec()
                .find(",value_model=" + path),
            std::string::npos);
  // The planner scores with the file: the flat model values every plan at exactly 0, the
  // embedded one does not.
  const State s = first_movement(game, 7);
  with_file->new_game(7);
  with_file->act(s);
  const Analysis flat = with_file->last_analysis();
  ASSERT_GT(flat.actions.size(), 1u);
  for (const ActionStat& stat : flat.actions) EXPECT_EQ(stat.value, 0.0);
  const auto embedded = make_agent(game, planner);
  embedded->new_game(7);
  embedded->act(s);
  EXPECT_NE(embedded->last_analysis().value, 0.0);
  std::remove(path.c_str());
}

// The moves the planner did not compare (the rest of a plan, a heuristic move, a sole legal one)
// carry no values: a 0.0 would read as an estimate of 50 % on the page, in hints and protocol.
TEST(DanelawPlanner, MovesItDidNotCompareReportNoValues) {
  const DanelawGame game;
  const auto agent = make_agent(game, "planner:plans=4,samples=1,battle=0");
  agent->new_game(3);
  Rng dice(3, 0);
  State s = game.initial_state();
  int compared = 0, not_compared = 0;
  while (!game.is_terminal(s) && s.turn <= 2) {
    if (game.current_player(s) == kChancePlayer) {
      apply_any(game, s, sample_chance(game, s, dice));
      continue;
    }
    const Action action = agent->act(s);
    const Analysis analysis = agent->last_analysis();
    if (analysis.actions.empty()) {
      ++not_compared;
      EXPECT_EQ(analysis.nodes, 0);
    } else {
      ++compared;
      EXPECT_GT(analysis.nodes, 0);
      for (const ActionStat& stat : analysis.actions) EXPECT_GT(stat.visits, 0);
    }
    agent->observe(s, action);
    game.apply_action(s, action);
  }
  EXPECT_GT(compared, 0);
  EXPECT_GT(not_compared, compared);  // placements, battles and the plans' later moves
}

// What the consumers make of a move without values: the protocol sends no win probability, and
// the page's hint is the move alone, its win chances null.
TEST(DanelawPlanner, AMoveWithoutValuesReachesTheProtocolAndThePageWithoutAChance) {
  const DanelawGame game;
  const auto agent = make_agent(game, "planner:plans=4,samples=1,battle=0");
  agent->new_game(3);
  State s = first_movement(game, 3);
  const Action first = agent->act(s);
  EXPECT_NE(protocol::action_answer(first, agent->last_analysis()).find("win_probability"),
            std::string::npos);
  game.apply_action(s, first);
  ASSERT_EQ(game.current_player(s), kDanes);
  const Action planned = agent->act(s);  // the plan's next move
  EXPECT_EQ(protocol::action_answer(planned, agent->last_analysis()).find("win_probability"),
            std::string::npos);

  web::HintResult hint;
  hint.estimated = false;
  hint.actions.push_back({planned, game.action_to_string(s, planned), 0.5, 0});
  rapidjson::StringBuffer buffer;
  web::JsonWriter out(buffer);
  out.StartObject();
  web::write_moves_and_hint(out, {}, false, hint, true, 0);
  out.EndObject();
  rapidjson::Document page;
  page.Parse(buffer.GetString());
  ASSERT_TRUE(page.IsObject()) << buffer.GetString();
  const auto& written = page["hint"];
  EXPECT_FALSE(written["estimated"].GetBool());
  EXPECT_TRUE(written["win"].IsNull());
  ASSERT_EQ(written["actions"].Size(), 1u);
  EXPECT_TRUE(written["actions"][0]["win"].IsNull());
  EXPECT_TRUE(written["actions"][0]["best"].GetBool());
}

TEST(DanelawValueModel, SeedsFromTwoToTheSixtyThirdUpLoadBack) {
  for (const std::uint64_t seed : {std::uint64_t{1} << 63, (std::uint64_t{1} << 63) + 12345,
                                   std::numeric_limits<std::uint64_t>::max()}) {
    ValueModel model = flat_model();
    model.seed = seed;
    EXPECT_EQ(ValueModel::from_json(model.to_json(), "'seed'").seed, seed);
  }
  ValueModel negative = flat_model();
  std::string text = negative.to_json();
  const std::string seed_field = "\"seed\": " + std::to_string(negative.seed);
  ASSERT_NE(text.find(seed_field), std::string::npos) << text;
  text.replace(text.find(seed_field), seed_field.size(), "\"seed\": -1");
  EXPECT_THROW(ValueModel::from_json(text, "'seed'"), FileFormatError);
}

TEST(DanelawTraining, ALargeSeedTrainsAndItsModelLoadsBack) {
  const std::string path = temp_file("large_seed.json");
  const auto train = testing_support::run_sling(
      "train danelaw --games 5 --iterations 1 --threads 1 --seed 18446744073709551615 --out " +
      path);
  ASSERT_EQ(train.status, 0) << train.output;
  EXPECT_EQ(ValueModel::load(path).seed, std::numeric_limits<std::uint64_t>::max());
  const auto match = testing_support::run_sling(
      "match danelaw --danes planner:plans=2,samples=1,battle=0,value_model=" + path +
      " --english heuristic --games 1 --threads 1");
  EXPECT_EQ(match.status, 0) << match.output;
  std::remove(path.c_str());
}

// The match harness hands every finished game to its caller once, whatever the threads.
TEST(DanelawSelfPlay, TheMatchHarnessHandsOverEveryGame) {
  const DanelawGame game;
  MatchOptions options;
  options.games = 6;
  options.threads = 2;
  std::vector<int> seen(6, 0), danish_wins(6, 0);
  options.on_game = [&](int index, const GameResult& played) {
    ++seen[static_cast<std::size_t>(index)];
    danish_wins[static_cast<std::size_t>(index)] = played.winner == kDanes;
    EXPECT_FALSE(played.record.history.empty());
  };
  const MatchResult result = run_match(game, {"heuristic", "heuristic"}, options);
  int wins = 0;
  for (int i = 0; i < 6; ++i) {
    EXPECT_EQ(seen[static_cast<std::size_t>(i)], 1) << i;
    wins += danish_wins[static_cast<std::size_t>(i)];
  }
  EXPECT_EQ(wins, result.wins[kDanes]);
}

TEST(DanelawSelfPlay, TheSameDataOnAnyThreadCount) {
  const auto play = [](int threads) {
    TrainingData data;
    data.variants.emplace_back(DanelawRules{});
    DanelawRules fewer_towns;
    fewer_towns.towns_to_win = 11;
    data.variants.emplace_back(fewer_towns);
    SelfPlayOptions options;
    options.games = 7;
    options.seed = 11;
    options.threads = threads;
    play_self_play(data, options,
                   [](const DanelawGame& g) { return std::make_shared<const ModelValue>(g); });
    return data;
  };
  const TrainingData one = play(1), two = play(2);
  EXPECT_EQ(one.games, 7);
  ASSERT_EQ(one.positions.size(), two.positions.size());
  std::set<int> variants;
  int held_out = 0;
  for (std::size_t i = 0; i < one.positions.size(); ++i) {
    EXPECT_EQ(one.positions[i].state, two.positions[i].state) << i;
    EXPECT_EQ(one.positions[i].danes_won, two.positions[i].danes_won) << i;
    EXPECT_EQ(one.positions[i].held_out, two.positions[i].held_out) << i;
    EXPECT_EQ(one.positions[i].state.phase, Phase::kMovementDice);
    variants.insert(one.positions[i].variant);
    held_out += one.positions[i].held_out;
  }
  EXPECT_EQ(variants, (std::set<int>{0, 1}));  // 4 games of the first rules, 3 of the second
  EXPECT_GT(held_out, 0);                      // the first game of each variant
}

// Self-play finds the agents that score with the value function by their interface, not their
// name: those score with the evaluator it gives, unless their spec names a model file.
TEST(DanelawSelfPlay, AgentsThatUseTheValueScoreWithTheOneGiven) {
  const DanelawGame game;
  EXPECT_EQ(dynamic_cast<UsesGameValue<DanelawGame>*>(make_agent(game, "heuristic").get()),
            nullptr);
  const auto strong = make_agent(game, "strong");
  const auto* user = dynamic_cast<UsesGameValue<DanelawGame>*>(strong.get());
  ASSERT_NE(user, nullptr);  // a preset's planner, found without its name
  EXPECT_FALSE(user->value_named_by_spec());

  const auto play = [&](const std::string& agent, const std::shared_ptr<CountingValue>& counting) {
    TrainingData data;
    data.variants.push_back(game);
    SelfPlayOptions options;
    options.agent = agent;
    options.games = 1;
    options.threads = 1;
    return play_self_play(data, options, [&](const DanelawGame&) { return counting; });
  };
  const auto counting = std::make_shared<CountingValue>();
  EXPECT_TRUE(
      play("planner:plans=2,samples=1,battle=0,english_plans=1", counting).agent_uses_value);
  EXPECT_GT(counting->calls, 0);

  const std::string path = temp_file("own.json");
  write_file_atomic(path, flat_model().to_json());
  const auto unused = std::make_shared<CountingValue>();
  EXPECT_FALSE(
      play("planner:plans=2,samples=1,battle=0,value_model=" + path, unused).agent_uses_value);
  EXPECT_EQ(unused->calls, 0);
  std::remove(path.c_str());
}

// Any fitter serves the trainer: here one that predicts the Danes' win rate of the positions it
// was fitted on, everywhere.
class BaseRateFitter final : public ValueFitter {
 public:
  void fit(const TrainingData& data) override {
    ++fits;
    int wins = 0, counted = 0;
    for (const TrainingPosition& p : data.positions) {
      if (p.held_out) continue;
      wins += p.danes_won;
      ++counted;
    }
    rate = counted ? static_cast<double>(wins) / counted : 0.5;
  }
  std::shared_ptr<const PositionValue> value(const DanelawGame&) const override {
    class Constant final : public PositionValue {
     public:
      explicit Constant(double value) : value_(value) {}
      double operator()(const State&) const override { return value_; }

     private:
      double value_;
    };
    return std::make_shared<const Constant>(2 * rate - 1);
  }
  int fits = 0;
  double rate = 0.5;
};

TEST(DanelawTraining, AnyFitterBehindTheInterface) {
  const DanelawGame game;
  TrainingOptions options;
  options.games = 5;
  options.iterations = 2;
  options.threads = 1;
  options.planner = "planner:plans=2,samples=1,battle=0,english_plans=1";
  BaseRateFitter fitter;
  std::vector<std::string> lines;
  const TrainingSummary summary =
      train_value(game, options, fitter, [&](const std::string& line) { lines.push_back(line); });
  EXPECT_EQ(fitter.fits, 2);
  EXPECT_EQ(lines.size(), 2u);
  EXPECT_EQ(summary.games, 10);
  EXPECT_GE(summary.positions, 10);  // the start of every half-turn of every game
  EXPECT_LE(summary.positions, 10 * 2 * game.rules().turn_limit);
  int held_out = 0;
  for (const CalibrationBin& bin : summary.calibration) held_out += bin.count;
  EXPECT_GT(held_out, 0);  // the first game of each iteration's five
  EXPECT_LT(held_out, summary.positions / 2);
  // The calibration is the fitter's: one constant prediction, so one band holds every position.
  int bands = 0;
  for (const CalibrationBin& bin : summary.calibration) bands += bin.count > 0;
  EXPECT_EQ(bands, 1);
}

}  // namespace
}  // namespace sling::danelaw
