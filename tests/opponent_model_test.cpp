// Expectimax with the other side modelled as the game's heuristic (`opponent=heuristic`): a best
// response to that policy within the horizon, the instrument that measures how far the heuristic
// can be exploited (docs/strength.md).

#include <gtest/gtest.h>

#include <string>

#include "agents/registry.h"
#include "engine/core/errors.h"
#include "engine/duel/duel.h"
#include "search/expectimax.h"
#include "tests/duel_positions.h"

namespace sling {
namespace {

// A leaf value that Goliath, minimising, would lower by standing far to the left; his heuristic
// walks toward David instead, so the two models of him value David's moves differently.
struct GoliathLeftIsGoodForHim {
  double operator()(const duel::DuelState& s) const { return 0.01 * s.goliath_x - 0.3; }
};

// David to choose a destination at the game's start (initiative 6 to 1, a movement die of 3).
duel::DuelState david_destination(const duel::DuelGame& game) {
  return duel_positions::moving(game, duel_positions::david_declares(game), 3);
}

// The value of `state` when Goliath plays his heuristic for `decisions` decisions and the dice
// are averaged: what the modelled search must find, computed without it.
template <class Value>
double following_the_heuristic(const duel::DuelGame& game, const duel::DuelState& state,
                               int decisions, const Value& value) {
  if (game.is_terminal(state)) return game.returns(state)[0];
  const Player player = game.current_player(state);
  if (player == kChancePlayer) {
    ChanceList<duel::DuelGame> outcomes;
    game.chance_outcomes(state, outcomes);
    double expectation = 0;
    for (const ChanceOutcome& o : outcomes) {
      duel::DuelState child = state;
      game.apply_unchecked(child, o.outcome);
      expectation += o.probability * following_the_heuristic(game, child, decisions, value);
    }
    return expectation;
  }
  if (player == duel::kDavid || decisions == 0) return value(state);
  Rng unused(1, 2);
  duel::DuelState child = state;
  game.apply_unchecked(child, game.heuristic_action(state, unused));
  return following_the_heuristic(game, child, decisions - 1, value);
}

double value_of(const search::SearchResult& result, Action action) {
  for (const search::RootActionStat& stat : result.actions) {
    if (stat.action == action) return stat.value;
  }
  ADD_FAILURE() << "action not searched";
  return 0;
}

TEST(OpponentModel, ExpectimaxAgainstTheHeuristicValuesWhatTheHeuristicWouldDo) {
  const duel::DuelGame game(duel_positions::pitch3_without_god());
  const GoliathLeftIsGoodForHim value;
  const duel::DuelState root = david_destination(game);
  search::ExpectimaxConfig c;
  c.value_leaves = true;
  c.nodes = 0;
  c.max_depth = 3;  // David's destination, then Goliath's declaration and destination
  search::Expectimax<duel::DuelGame, GoliathLeftIsGoodForHim> minimax(game, c, &value);
  c.model_opponent_as_heuristic = true;
  search::Expectimax<duel::DuelGame, GoliathLeftIsGoodForHim> modelled(game, c, &value);
  minimax.new_game(1);
  modelled.new_game(1);
  const search::SearchResult against_minimiser = minimax.search(root);
  const search::SearchResult against_heuristic = modelled.search(root);
  ASSERT_EQ(against_minimiser.actions.size(), against_heuristic.actions.size());
  int differ = 0;
  for (std::size_t i = 0; i < against_heuristic.actions.size(); ++i) {
    const search::RootActionStat& stat = against_heuristic.actions[i];
    duel::DuelState child = root;
    game.apply_unchecked(child, stat.action);
    EXPECT_NEAR(stat.value, following_the_heuristic(game, child, 2, value), 1e-12);
    // A minimising Goliath is never kinder to David than one particular policy.
    const double minimised = value_of(against_minimiser, stat.action);
    EXPECT_LE(minimised, stat.value + 1e-12);
    differ += minimised < stat.value - 1e-6;
  }
  EXPECT_GT(differ, 0) << "the heuristic Goliath never played differently from the minimiser";
}

TEST(OpponentModel, TheAgentOptionIsListedInTheSpecAndChecked) {
  const duel::DuelGame game(duel_positions::pitch3_without_god());
  EXPECT_NE(make_agent(game, "expectimax:nodes=100")->spec().find(",opponent=minimax"),
            std::string::npos);
  EXPECT_NE(make_agent(game, "expectimax:nodes=100,opponent=heuristic")
                ->spec()
                .find(",opponent=heuristic"),
            std::string::npos);
  EXPECT_THROW(make_agent(game, "expectimax:opponent=oracle"), OptionError);
}

}  // namespace
}  // namespace sling
