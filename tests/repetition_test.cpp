// Stand-offs: the duel's repetition keys (engine/core/game.h, HasRepetition) and how expectimax,
// MCTS and the `lookahead` agent charge a line or a game that comes back to a position.

#include <gtest/gtest.h>

#include <algorithm>

#include "agents/registry.h"
#include "engine/core/errors.h"
#include "engine/duel/duel.h"
#include "engine/pig/pig.h"
#include "search/expectimax.h"
#include "search/mcts.h"
#include "tests/duel_positions.h"

namespace sling {
namespace {

static_assert(HasRepetition<duel::DuelGame>);

// A leaf value that is the same everywhere: whatever a search finds apart from it comes from
// terminal states (none within reach here) or from the repetition rule.
struct FlatValue {
  double value = 0.2;
  double operator()(const duel::DuelState&) const { return value; }
};

using duel_positions::david_declares;
using duel_positions::moving;

duel::DuelRules pitch3_rules() {
  return duel_positions::pitch3_without_god();
}

Action stay(const duel::DuelState& s) {
  return s.actor == duel::kDavid ? duel::act::destination(s.david_x, s.david_y)
                                 : duel::act::destination(s.goliath_x, s.goliath_y);
}

TEST(DuelRepetition, KeysNameThePositionAtATurnsStart) {
  const duel::DuelGame game(pitch3_rules());
  const duel::DuelState declare = david_declares(game);
  const std::uint64_t key = game.repetition_key(declare);
  EXPECT_NE(key, 0u);
  EXPECT_EQ(game.turn_repetition_key(declare), key);

  // Inside the turn: no position of its own, but the turn's start is known until a destination.
  duel::DuelState destination = moving(game, declare, 3);
  EXPECT_EQ(game.repetition_key(destination), 0u);
  EXPECT_EQ(game.turn_repetition_key(destination), key);

  // David stands still and so does Goliath: the same position, a turn later.
  duel::DuelState goliath = destination;
  game.apply_unchecked(goliath, stay(goliath));
  EXPECT_EQ(goliath.actor, duel::kGoliath);
  EXPECT_NE(game.repetition_key(goliath), key) << "the side to act is part of the position";
  duel::DuelState back = moving(game, goliath, 2);
  game.apply_unchecked(back, stay(back));
  EXPECT_EQ(back.actor, duel::kDavid);
  EXPECT_NE(back.turn, declare.turn);
  EXPECT_EQ(game.repetition_key(back), key);

  // Any other place or flag is another position.
  duel::DuelState moved = destination;
  game.apply_unchecked(moved, duel::act::destination(destination.david_x + 1, destination.david_y));
  EXPECT_NE(game.repetition_key(moved), game.repetition_key(goliath));
  duel::DuelState with_stone = declare;
  with_stone.flags |= duel::kDavidHasStone;
  EXPECT_NE(game.repetition_key(with_stone), key);

  // A declaration that throws other dice may already have changed the position.
  duel::DuelState searching = declare;
  game.apply_unchecked(searching, duel::act::kSearch);
  EXPECT_EQ(game.turn_repetition_key(searching), 0u);
}

search::ExpectimaxConfig flat_expectimax(double penalty) {
  search::ExpectimaxConfig c;
  c.value_leaves = true;
  c.nodes = 0;
  c.max_depth = 3;  // David's destination, then Goliath's whole turn
  c.repetition_penalty = penalty;
  return c;
}

double root_value(const search::SearchResult& result, Action action) {
  for (const search::RootActionStat& stat : result.actions) {
    if (stat.action == action) return stat.value;
  }
  ADD_FAILURE() << "action not searched";
  return 0;
}

double best_root_value(const search::SearchResult& result) {
  double best = -2;
  for (const search::RootActionStat& stat : result.actions) best = std::max(best, stat.value);
  return best;
}

// Standing still lets Goliath hand the same position back: with the rule that line is worth the
// leaf value less the penalty (Goliath, minimising, takes it); every other destination keeps the
// flat value.  Without the rule standing still is as good as anything.
TEST(DuelRepetition, ExpectimaxChargesALineBackToItsRoot) {
  const duel::DuelGame game(pitch3_rules());
  const FlatValue flat;
  const duel::DuelState destination = moving(game, david_declares(game), 3);
  for (double penalty : {0.0, 0.1}) {
    search::Expectimax<duel::DuelGame, FlatValue> search(game, flat_expectimax(penalty), &flat);
    search.new_game(1);
    const search::SearchResult result = search.search(destination);
    EXPECT_DOUBLE_EQ(root_value(result, stay(destination)), flat.value - penalty) << penalty;
    EXPECT_DOUBLE_EQ(best_root_value(result), flat.value) << penalty;
    if (penalty > 0) {
      EXPECT_NE(result.best, stay(destination));
    }
  }
}

// The charge falls on the side that searches: Goliath's line back to his turn's start is worth the
// leaf value plus the penalty to David (David, maximising, takes it), so Goliath does not stand
// still either; a Goliath charged nothing would welcome every stand-off.
TEST(DuelRepetition, ExpectimaxChargesTheSideThatSearches) {
  const duel::DuelGame game(pitch3_rules());
  const FlatValue flat;
  duel::DuelState goliath = moving(game, david_declares(game), 3);
  game.apply_unchecked(goliath, stay(goliath));
  ASSERT_EQ(goliath.actor, duel::kGoliath);
  const duel::DuelState destination = moving(game, goliath, 2);
  const double penalty = 0.1;
  search::Expectimax<duel::DuelGame, FlatValue> search(game, flat_expectimax(penalty), &flat);
  search.new_game(1);
  const search::SearchResult result = search.search(destination);
  // Root values are the mover's: Goliath's are side 0's negated.
  EXPECT_DOUBLE_EQ(root_value(result, stay(destination)), -(flat.value + penalty));
  EXPECT_DOUBLE_EQ(best_root_value(result), -flat.value);
  EXPECT_NE(result.best, stay(destination));
}

// The game's positions count too, once for each turn that began there (both sides stood still in
// between, so each search sees new states), and new_game forgets them.
TEST(DuelRepetition, ExpectimaxChargesEachTimeTheGameWasThere) {
  const duel::DuelGame game(pitch3_rules());
  const FlatValue flat;
  const double penalty = 0.1;
  search::Expectimax<duel::DuelGame, FlatValue> search(game, flat_expectimax(penalty), &flat);
  search.new_game(1);
  duel::DuelState declare = david_declares(game);
  for (int times = 1; times <= 3; ++times) {
    search.search(declare);  // a turn begins at the position
    duel::DuelState destination = moving(game, declare, 3);
    const search::SearchResult result = search.search(destination);
    EXPECT_NEAR(root_value(result, stay(destination)), flat.value - penalty * times, 1e-12)
        << times;
    game.apply_unchecked(destination, stay(destination));
    declare = moving(game, destination, 2);
    game.apply_unchecked(declare, stay(declare));
  }
  search.new_game(2);
  const duel::DuelState destination = moving(game, declare, 3);
  EXPECT_NEAR(root_value(search.search(destination), stay(destination)), flat.value - penalty,
              1e-12);
}

// MCTS: with a flat value every simulation returns it, until the rule charges the lines that come
// back; then standing still is worth clearly less than the best destination and is not chosen.
TEST(DuelRepetition, MctsChargesALineBackToItsRoot) {
  const duel::DuelGame game(pitch3_rules());
  const FlatValue flat;
  const duel::DuelState destination = moving(game, david_declares(game), 3);
  for (double penalty : {0.0, 0.2}) {
    search::MctsConfig c;
    c.iterations = 4000;
    c.value_leaves = true;
    c.repetition_penalty = penalty;
    search::Mcts<duel::DuelGame, FlatValue> search(game, c, &flat);
    search.new_game(1);
    const search::SearchResult result = search.search(destination);
    if (penalty == 0) {
      for (const search::RootActionStat& stat : result.actions) {
        EXPECT_NEAR(stat.value, flat.value, 1e-12);
      }
    } else {
      EXPECT_LT(root_value(result, stay(destination)), best_root_value(result) - penalty / 10);
      EXPECT_NE(result.best, stay(destination));
    }
  }
}

TEST(DuelRepetition, SearchSpecsListThePenaltyOnlyWhereAGameHasRepetitions) {
  const duel::DuelGame duel_game(pitch3_rules());
  EXPECT_NE(
      make_agent(duel_game, "expectimax:nodes=100,repetition=0")->spec().find(",repetition=0"),
      std::string::npos);
  EXPECT_NE(make_agent(duel_game, "mcts:iterations=10")->spec().find(",repetition=0.02"),
            std::string::npos);
  EXPECT_THROW(make_agent(duel_game, "mcts:repetition=-1"), OptionError);
  static_assert(!HasRepetition<pig::PigGame>);
  const pig::PigGame pig_game;
  EXPECT_EQ(make_agent(pig_game, "mcts:iterations=10")->spec().find("repetition"),
            std::string::npos);
  EXPECT_THROW(make_agent(pig_game, "mcts:repetition=0.1"), OptionError);
}

// `lookahead` keeps the positions David handed Goliath in the game: handing him one again costs
// the penalty (in win probability) each time, and new_game forgets them.
TEST(DuelRepetition, LookaheadChargesPositionsDavidHandedGoliathBefore) {
  duel::DuelRules rules = pitch3_rules();
  rules.board_cm = 16;  // a small board: the coarse solution takes a second or less
  const duel::DuelGame game(rules);
  const duel::DuelState destination = moving(game, david_declares(game), 3);
  auto agent = make_agent(game, "lookahead:value_pitch=4,repetition=0.1");
  EXPECT_NE(agent->spec().find(",repetition=0.1"), std::string::npos);
  agent->new_game(1);
  auto value_of = [](const Analysis& analysis, Action action) {
    for (const ActionStat& stat : analysis.actions) {
      if (stat.action == action) return stat.value;
    }
    ADD_FAILURE() << "action not analysed";
    return 0.0;
  };
  const Action first = agent->act(destination);
  const Analysis before = agent->last_analysis();
  agent->act(destination);
  const Analysis again = agent->last_analysis();
  // Payoffs are 2p - 1: a penalty of 0.1 in p is 0.2 of payoff; only the first choice changed.
  EXPECT_NEAR(value_of(again, first), value_of(before, first) - 0.2, 1e-9);
  int unchanged = 0;
  for (const ActionStat& stat : before.actions) {
    if (stat.action != first && value_of(again, stat.action) == stat.value) ++unchanged;
  }
  EXPECT_EQ(unchanged, static_cast<int>(before.actions.size()) - 1);
  agent->new_game(2);
  EXPECT_EQ(agent->act(destination), first);
  EXPECT_NEAR(value_of(agent->last_analysis(), first), value_of(before, first), 1e-12);
}

}  // namespace
}  // namespace sling
