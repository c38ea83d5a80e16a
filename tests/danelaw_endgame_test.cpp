// The danelaw planner's endgame (agents/danelaw_planner.h, `endgame=H`): within H halves of the
// game's end its playouts run to the end and score the result, and it places, reinforces and
// fights by playouts; and `sling study referee`, which measures such settings against exact play.

#include <gtest/gtest.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "agents/danelaw_planner.h"
#include "agents/registry.h"
#include "engine/core/errors.h"
#include "engine/danelaw/danelaw.h"
#include "experiments/match.h"
#include "experiments/studies/danelaw_referee.h"
#include "search/mcts.h"
#include "solvers/danelaw/exact_scenario.h"
#include "tests/build_paths.h"
#include "tests/run_sling.h"

namespace sling::danelaw {
namespace {

DanelawGame one_turn_scenario() {
  return load_scenario(SLING_SOURCE_DIR, "holt-3v");
}

// The first movement decision of `side` in a heuristic game on `seed`, or the terminal state.
State first_movement(const DanelawGame& game, std::uint64_t seed, Side side = kEnglish) {
  Rng dice(seed, 0);
  State s = game.initial_state();
  while (!game.is_terminal(s) && !(s.phase == Phase::kMove && s.side == side)) {
    if (game.current_player(s) == kChancePlayer) {
      game.apply_chance(s, sample_chance(game, s, dice));
    } else {
      game.apply_action(s, game.heuristic_action(s, dice));
    }
  }
  return s;
}

// The decision at `s` of a fresh planner with `config`, its game seeded with `seed`.
PlannerChoice fresh_choice(const DanelawGame& game, const PlannerConfig& config, const State& s,
                           std::uint64_t seed) {
  Planner planner(game, config);
  planner.new_game(seed);
  return planner.choose(s);
}

bool is_whole(double x) {
  return std::abs(x - std::round(x)) < 1e-9;
}

// On the English's first half of a two-turn game (three halves from the end) every endgame
// playout runs to the end, so a plan's value is a mean of results (+1 or -1): its total over the
// samples is a whole number.  Without the endgame the same plans are scored by the value model at
// the end of the half.
TEST(DanelawEndgame, PlayoutsInTheEndgameScoreTheResult) {
  const DanelawGame game = load_scenario(SLING_SOURCE_DIR, "holt-2");
  int checked = 0;
  for (std::uint64_t seed = 1; seed < 40 && checked < 3; ++seed) {
    const State s = first_movement(game, seed);
    if (game.is_terminal(s)) continue;
    PlannerConfig model{8, 2, 0, 0.3};
    PlannerConfig endgame = model;
    endgame.endgame = 3;
    Planner by_model(game, model), by_result(game, endgame);
    by_model.new_game(seed);
    by_result.new_game(seed);
    const PlannerChoice a = by_result.choose(s);
    const PlannerChoice b = by_model.choose(s);
    ASSERT_TRUE(a.evaluated && b.evaluated);
    for (const auto& o : a.options) {
      if (o.samples > 0) {
        EXPECT_TRUE(is_whole(o.value * o.samples)) << o.value << " " << o.samples;
      }
    }
    bool model_scored = false;
    for (const auto& o : b.options) model_scored |= o.samples > 0 && !is_whole(o.value * o.samples);
    EXPECT_TRUE(model_scored);
    ++checked;
  }
  EXPECT_EQ(checked, 3);
}

// With battle=0 the planner places its armies as the heuristic does, except in the endgame, where
// it compares the placements by playouts; England's first placement is far from the end.
TEST(DanelawEndgame, PlacingIsSearchedOnlyInTheEndgame) {
  const DanelawGame scenario = one_turn_scenario();
  const State start = scenario.initial_state();
  ASSERT_EQ(start.phase, Phase::kPlace);
  PlannerConfig heuristic{8, 2, 0, 0.3};
  PlannerConfig endgame = heuristic;
  endgame.endgame = 2;  // the Danes' half and the English's: the whole of a one-turn game
  Planner plain(scenario, heuristic), searching(scenario, endgame);
  plain.new_game(3);
  searching.new_game(3);
  EXPECT_EQ(plain.choose(start).playouts, 0);
  const PlannerChoice placed = searching.choose(start);
  EXPECT_TRUE(placed.evaluated);
  EXPECT_EQ(placed.playouts, static_cast<std::int64_t>(placed.options.size()) * 16);

  const DanelawGame england;
  Planner far_from_the_end(england, endgame);
  far_from_the_end.new_game(3);
  EXPECT_EQ(far_from_the_end.choose(england.initial_state()).playouts, 0);
}

// With endgame_mcts=N the endgame's movement is decided by a tree search of N simulations over
// single moves (no stored plan: the next move is searched again), the same on the same seed;
// placing is still compared by playouts, and far from the end the plans decide as before.
TEST(DanelawEndgame, TreeSearchDecidesEndgameMovesAndPlacingStaysWithPlayouts) {
  const DanelawGame scenario = one_turn_scenario();
  PlannerConfig config{8, 2, 0, 0.3};
  config.endgame = 2;
  config.endgame_mcts = 300;
  Planner planner(scenario, config), again(scenario, config);
  planner.new_game(5);
  again.new_game(5);
  const State start = scenario.initial_state();
  const PlannerChoice placed = planner.choose(start);
  EXPECT_EQ(placed.playouts, static_cast<std::int64_t>(placed.options.size()) * 16);
  again.choose(start);

  const State move = first_movement(scenario, 5, kDanes);
  ASSERT_FALSE(scenario.is_terminal(move));
  const PlannerChoice searched = planner.choose(move);
  ASSERT_TRUE(searched.evaluated);
  EXPECT_EQ(searched.playouts, 300);
  ActionList<DanelawGame> legal;
  scenario.legal_actions(move, legal);
  for (const auto& o : searched.options) {
    EXPECT_NE(std::find(legal.begin(), legal.end(), o.action), legal.end());
    EXPECT_GE(o.value, -1.0);
    EXPECT_LE(o.value, 1.0);
  }
  EXPECT_EQ(searched.action, searched.options.front().action);
  EXPECT_EQ(again.choose(move).action, searched.action);
  State next = move;
  scenario.apply_action(next, searched.action);
  if (!scenario.is_terminal(next) && scenario.current_player(next) == kDanes &&
      next.phase == Phase::kMove) {
    EXPECT_EQ(planner.choose(next).playouts, 300);  // searched again, not a stored plan
  }

  const DanelawGame england;
  bool planned_a_move = false;
  for (std::uint64_t seed = 1; seed < 20 && !planned_a_move; ++seed) {
    Planner far_from_the_end(england, config);
    far_from_the_end.new_game(seed);
    const State english_move = first_movement(england, seed);
    const PlannerChoice planned = far_from_the_end.choose(english_move);
    ASSERT_TRUE(planned.evaluated);
    State planned_next = english_move;
    england.apply_action(planned_next, planned.action);
    if (planned_next.phase != Phase::kMoveDestination) continue;    // the plan ends movement
    EXPECT_FALSE(far_from_the_end.choose(planned_next).evaluated);  // the rest of a stored plan
    planned_a_move = true;
  }
  EXPECT_TRUE(planned_a_move);
}

// Two armies moved in either order, or one army that reaches a hex by two paths, end in one
// position: with transpositions the tree holds it once (edges to it are aliases), and the
// planner's decision with them is still the same on the same seed.
TEST(DanelawEndgame, MoveOrdersShareOneNodeWithTranspositions) {
  const DanelawGame game = load_scenario(SLING_SOURCE_DIR, "holt-2");
  const State move = first_movement(game, 3, kDanes);
  ASSERT_FALSE(game.is_terminal(move));
  search::MctsConfig config;
  config.iterations = 3000;
  config.rollout = search::RolloutPolicy::kHeuristic;
  config.backup = search::Backup::kExpectimax;
  config.transpositions = true;
  search::MctsTree<DanelawGame> tree(game, config);
  tree.reset(3);
  tree.search(move, config.iterations, search::Deadline(0));
  std::size_t aliases = 0;
  for (std::uint32_t id = 0; id < tree.node_count(); ++id) {
    aliases += tree.node(id).expanded == search::MctsTree<DanelawGame>::kAlias;
  }
  EXPECT_GT(aliases, 10u);
  EXPECT_EQ(tree.root().visits, 3000u);

  PlannerConfig planner{8, 2, 0, 0.3};
  planner.endgame = 4;
  planner.endgame_mcts = 3000;
  planner.endgame_mcts_transpositions = true;
  const PlannerChoice once = fresh_choice(game, planner, move, 3);
  EXPECT_EQ(once.playouts, 3000);
  EXPECT_EQ(fresh_choice(game, planner, move, 3).action, once.action);
}

// The tree's progressive widening is the planner's option: a narrow tree tries only the first of
// an army's destinations (the heuristic's first), a tree without widening every candidate.
TEST(DanelawEndgame, TheTreesWideningIsAnOption) {
  const DanelawGame game = load_scenario(SLING_SOURCE_DIR, "holt-2");
  State destination = first_movement(game, 3, kDanes);
  Rng rng(1, 0);
  game.apply_action(destination, game.heuristic_action(destination, rng));  // an army chosen
  ASSERT_EQ(game.current_player(destination), kDanes);
  PlannerConfig planner{8, 2, 0, 0.3};
  planner.endgame = 4;
  planner.endgame_mcts = 400;
  planner.endgame_mcts_transpositions = true;
  planner.endgame_mcts_widen = 0.1;  // ceil(0.1 * sqrt(n)) children: 2 at most with 400 visits
  EXPECT_LE(fresh_choice(game, planner, destination, 3).options.size(), 2u);
  planner.endgame_mcts_widen = 0;
  EXPECT_GT(fresh_choice(game, planner, destination, 3).options.size(), 2u);
}

// Root-parallel trees share the tree's simulations; the number of trees, not of threads, fixes the
// move and its statistics.
TEST(DanelawEndgame, TheTreesShareTheirBudgetAndDoNotDependOnTheThreads) {
  const DanelawGame game = load_scenario(SLING_SOURCE_DIR, "holt-2");
  const State move = first_movement(game, 3, kDanes);
  PlannerConfig planner{8, 2, 0, 0.3};
  planner.endgame = 4;
  planner.endgame_mcts = 2000;
  planner.endgame_mcts_transpositions = true;
  planner.endgame_mcts_trees = 2;
  const auto choose_on = [&](int threads) {
    tbb::task_arena arena(threads);
    return arena.execute([&] { return fresh_choice(game, planner, move, 3); });
  };
  const PlannerChoice one = choose_on(1), two = choose_on(2);
  EXPECT_EQ(one.playouts, 2000);
  EXPECT_EQ(two.action, one.action);
  ASSERT_EQ(two.options.size(), one.options.size());
  for (std::size_t i = 0; i < one.options.size(); ++i) {
    EXPECT_EQ(two.options[i].action, one.options[i].action);
    EXPECT_EQ(two.options[i].value, one.options[i].value);
    EXPECT_EQ(two.options[i].samples, one.options[i].samples);
  }
}

// The tree is used only where its simulations fit the work budget: with a budget smaller than one
// ply a simulation, the plans decide the same endgame move.
TEST(DanelawEndgame, TreeSearchOnlyWhereItsWorkBudgetAllows) {
  const DanelawGame scenario = one_turn_scenario();
  const State move = first_movement(scenario, 5, kDanes);
  ASSERT_FALSE(scenario.is_terminal(move));
  PlannerConfig config{8, 2, 0, 0.3};
  config.endgame = 2;
  config.endgame_mcts = 300;
  EXPECT_EQ(fresh_choice(scenario, config, move, 5).playouts, 300);
  config.endgame_mcts_work = 300 * 15;  // a playout to the end is more than one ply of 15 hexes
  const PlannerChoice planned = fresh_choice(scenario, config, move, 5);
  ASSERT_TRUE(planned.evaluated);
  EXPECT_NE(planned.playouts, 300);
  EXPECT_LE(planned.playouts, config.plans * config.samples);
}

// endgame_mcts_halves lets the tree start before the endgame: on the English's first half of a
// two-turn game (three halves from the end) an endgame of their last half alone plans, unless the
// tree's own window covers the half.
TEST(DanelawEndgame, TheTreesWindowCanStartBeforeTheEndgame) {
  const DanelawGame game = load_scenario(SLING_SOURCE_DIR, "holt-2");
  const State s = first_movement(game, 2);
  ASSERT_FALSE(game.is_terminal(s));
  PlannerConfig config{8, 2, 0, 0.3};
  config.endgame = 1;
  config.endgame_mcts = 300;
  EXPECT_NE(fresh_choice(game, config, s, 2).playouts, 300);
  config.endgame_mcts_halves = 4;
  EXPECT_EQ(fresh_choice(game, config, s, 2).playouts, 300);
  config.endgame_mcts_halves = 2;  // the English's first half is three halves from the end
  EXPECT_NE(fresh_choice(game, config, s, 2).playouts, 300);
}

TEST(DanelawEndgame, SettingsParseAndWriteBackPerSide) {
  const DanelawGame game;
  const std::string spec =
      make_agent(game, "planner:plans=8,danes_endgame=4,english_endgame=1,endgame_battle=32")
          ->spec();
  EXPECT_EQ(spec,
            "planner:plans=8,samples=4,battle=8,noise=0.3,margin=0,endgame=4,endgame_battle=32,"
            "english_endgame=1");
  EXPECT_EQ(make_agent(game, spec)->spec(), spec);
  // Unset, nothing is written: the specs of existing agents are unchanged.
  EXPECT_EQ(make_agent(game, "planner:plans=8")->spec(),
            "planner:plans=8,samples=4,battle=8,noise=0.3,margin=0");
  EXPECT_THROW(make_agent(game, "planner:endgame=9"), OptionError);
  EXPECT_THROW(make_agent(game, "planner:endgame_battle=0"), OptionError);

  const std::string tree =
      make_agent(game, "planner:plans=8,endgame=4,endgame_mcts=1000,english_endgame_mcts=0")
          ->spec();
  EXPECT_EQ(tree,
            "planner:plans=8,samples=4,battle=8,noise=0.3,margin=0,endgame=4,endgame_battle=16,"
            "endgame_mcts=1000,english_endgame_mcts=0");
  EXPECT_EQ(make_agent(game, tree)->spec(), tree);
  EXPECT_THROW(make_agent(game, "planner:endgame_mcts=-1"), OptionError);
  const std::string window =
      make_agent(game, "planner:plans=8,endgame_mcts=10,english_endgame_mcts_halves=4")->spec();
  EXPECT_NE(window.find(",endgame_mcts=10,english_endgame_mcts_halves=4"), std::string::npos)
      << window;
  EXPECT_EQ(make_agent(game, window)->spec(), window);
  EXPECT_THROW(make_agent(game, "planner:endgame_mcts_halves=9"), OptionError);
  const std::string budget =
      make_agent(game, "planner:plans=8,endgame_mcts=10,english_endgame_mcts_work=12000000")
          ->spec();
  EXPECT_NE(budget.find(",endgame_mcts=10,english_endgame_mcts_work=12000000"), std::string::npos)
      << budget;
  EXPECT_EQ(make_agent(game, budget)->spec(), budget);
  EXPECT_THROW(make_agent(game, "planner:endgame_mcts_work=0"), OptionError);
  const std::string shared =
      make_agent(game, "planner:plans=8,endgame_mcts=10,danes_endgame_mcts_transpositions=1")
          ->spec();
  EXPECT_NE(shared.find(",endgame_mcts_transpositions=1,english_endgame_mcts_transpositions=0"),
            std::string::npos)
      << shared;
  EXPECT_EQ(make_agent(game, shared)->spec(), shared);
  EXPECT_THROW(make_agent(game, "planner:endgame_mcts_transpositions=2"), OptionError);
  const std::string narrow = make_agent(game,
                                        "planner:plans=8,endgame_mcts=10,endgame_mcts_widen=1,"
                                        "english_endgame_mcts_widen=3")
                                 ->spec();
  EXPECT_NE(narrow.find(",endgame_mcts_widen=1"), std::string::npos) << narrow;
  EXPECT_NE(narrow.find(",english_endgame_mcts_widen=3"), std::string::npos) << narrow;
  EXPECT_EQ(make_agent(game, narrow)->spec(), narrow);
  EXPECT_THROW(make_agent(game, "planner:endgame_mcts_widen=-1"), OptionError);
  const std::string trees =
      make_agent(game, "planner:plans=8,endgame_mcts=10,danes_endgame_mcts_trees=2")->spec();
  EXPECT_NE(trees.find(",endgame_mcts_trees=2,english_endgame_mcts_trees=1"), std::string::npos)
      << trees;
  EXPECT_EQ(make_agent(game, trees)->spec(), trees);
  EXPECT_THROW(make_agent(game, "planner:endgame_mcts_trees=0"), OptionError);
}

// The referee's scenario table shows what the searches' heuristic playouts score from the start:
// the rule of thumb on both sides, on the referee's own seeds.  On holt with one town to win its
// Danes take the empty Holt, so the figure is not the zero of every referee scenario.
TEST(DanelawEndgame, RefereeReportsTheRuleOfThumbAgainstItselfOnItsSeeds) {
  DanelawRules rules = load_scenario(SLING_SOURCE_DIR, "holt-2").rules();
  rules.towns_to_win = 1;
  const DanelawGame game(rules);
  RefereeOptions options;
  options.agent = "heuristic";
  options.games = 60;
  options.seed = 5400;
  options.threads = 1;
  const RefereeRow row = measure_referee(game, "holt-1", options);
  MatchOptions match;
  match.games = options.games;
  match.seed = options.seed;
  match.threads = 2;
  const MatchResult rule = run_match(game, {"heuristic", "heuristic"}, match);
  ASSERT_GT(rule.wins[kDanes], 0);
  EXPECT_NEAR(row.rule_of_thumb, static_cast<double>(rule.wins[kDanes]) / options.games, 1e-12);
  EXPECT_NE(referee_tables({row}).find(" | rule of thumb vs itself |"), std::string::npos);
}

TEST(DanelawEndgame, RefereeCommandMeasuresAgentsAndRefusesInOneLine) {
  const std::string source = std::string(" --source ") + SLING_SOURCE_DIR;
  const auto run = testing_support::run_sling(
      "study referee danelaw --agent heuristic --scenario holt-3v --games 30 --threads 1" + source);
  ASSERT_EQ(run.status, 0) << run.output;
  EXPECT_NE(run.output.find("| holt-3v | `heuristic` |"), std::string::npos) << run.output;
  for (const std::string& bad :
       {std::string("study referee duel --agent heuristic"),
        "study referee danelaw --agent heuristic --scenario nowhere" + source,
        "study referee danelaw --agent nobody --scenario holt-3v --games 2" + source}) {
    const auto refused = testing_support::run_sling(bad);
    EXPECT_NE(refused.status, 0) << bad;
    EXPECT_EQ(testing_support::count_lines(refused.output), 1) << bad << ": " << refused.output;
  }
}

}  // namespace
}  // namespace sling::danelaw
