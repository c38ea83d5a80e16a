// Danelaw under the generic search and agents: MCTS (with the candidate set, heuristic ordering
// and rollouts, and the value model's leaves) finds a winning move, and whole games between agents
// run.

#include <gtest/gtest.h>

#include "agents/registry.h"
#include "engine/danelaw/danelaw.h"
#include "experiments/play_game.h"
#include "search/mcts.h"

namespace sling::danelaw {
namespace {

// The last Danish half-turn: the Danes hold 14 towns and one army can walk into an empty 15th; the
// English have no army left to retake a town, so taking one wins and anything else loses.
TEST(DanelawSearch, MctsTakesTheFifteenthTownOnTheLastTurn) {
  const DanelawGame game;
  const HexMap& map = game.map();
  const int stamford = map.find_hex("Stamford");
  int start = -1;
  for (int n : map.hex(stamford).neighbours) {
    if (n >= 0 && map.hex(n).terrain == Terrain::kPlain && !map.river_between(n, stamford))
      start = n;
  }
  ASSERT_GE(start, 0);
  State s;
  s.side = kDanes;
  s.phase = Phase::kMoveDestination;
  s.turn = static_cast<std::uint8_t>(game.rules().turn_limit);
  s.points = 5;
  s.selected = static_cast<std::uint16_t>(start);
  s.armies[0] = Army{static_cast<std::uint16_t>(start), kDanes, 0};
  s.army_count = 1;
  int held = 0;
  for (std::size_t t = 0; t < map.towns().size() && held < 14; ++t) {
    const int hex = map.towns()[t].hex;
    if (map.distance(hex, stamford) > 8) {  // leaves the towns around Stamford to take
      s.danish_towns |= std::uint64_t{1} << t;
      ++held;
    }
  }
  s.pool = {0, 0};  // no English army is left to retake a town
  ASSERT_EQ(held, 14);
  search::MctsConfig config;
  config.iterations = 1500;
  config.rollout = search::RolloutPolicy::kHeuristic;
  search::Mcts<DanelawGame> mcts(game, config);
  mcts.new_game(3);
  const search::SearchResult result = mcts.search(s);
  // Any English-held town in reach wins (Stamford, or Torksey further on).
  ASSERT_EQ(action_kind(result.best), ActionKind::kMoveTo);
  const int town = map.hex(action_payload(result.best)).town;
  ASSERT_GE(town, 0) << game.action_to_string(s, result.best);
  EXPECT_FALSE(game.town_held_by_danes(s, town));
  ASSERT_FALSE(result.actions.empty());
  EXPECT_GT(result.actions[0].value, 0.5);
}

TEST(DanelawSearch, AgentsPlayWholeGames) {
  const DanelawGame game;
  auto mcts = make_agent(game, "mcts:iterations=30,leaf=value");
  auto heuristic = make_agent(game, "heuristic");
  const GameResult result = play_game(game, *mcts, *heuristic, 17);
  EXPECT_TRUE(result.error.empty()) << result.error;
  EXPECT_TRUE(result.winner == 0 || result.winner == 1);
  EXPECT_FALSE(result.end_reason.empty());
  const DanelawGame replay_game = DanelawGame::from_rules_json(result.record.rules);
  EXPECT_TRUE(replay_game.is_terminal(replay(replay_game, result.record)));
}

}  // namespace
}  // namespace sling::danelaw
