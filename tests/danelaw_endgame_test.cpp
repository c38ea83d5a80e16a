// The danelaw planner's endgame (agents/danelaw_planner.h, `endgame=H`): within H halves of the
// game's end its playouts run to the end and score the result, and it places, reinforces and
// fights by playouts; and `sling study referee`, which measures such settings against exact play.

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "agents/danelaw_planner.h"
#include "agents/registry.h"
#include "engine/core/errors.h"
#include "engine/danelaw/danelaw.h"
#include "solvers/danelaw/exact_scenario.h"
#include "tests/build_paths.h"
#include "tests/run_sling.h"

namespace sling::danelaw {
namespace {

DanelawGame one_turn_scenario() {
  return load_scenario(SLING_SOURCE_DIR, "holt-3v");
}

// The first English movement decision of a heuristic game on `seed`, or the terminal state.
State first_english_movement(const DanelawGame& game, std::uint64_t seed) {
  Rng dice(seed, 0);
  State s = game.initial_state();
  while (!game.is_terminal(s) && !(s.phase == Phase::kMove && s.side == kEnglish)) {
    if (game.current_player(s) == kChancePlayer) {
      game.apply_chance(s, sample_chance(game, s, dice));
    } else {
      game.apply_action(s, game.heuristic_action(s, dice));
    }
  }
  return s;
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
    const State s = first_english_movement(game, seed);
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
