// The searches' options for games with dice and large move sets: whose decisions expand the
// game's candidate actions (`candidates=`), and what MCTS backs up (`backup=`).

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "agents/registry.h"
#include "engine/core/errors.h"
#include "engine/duel/duel.h"
#include "engine/pig/pig.h"
#include "search/common.h"
#include "search/mcts.h"
#include "tests/duel_positions.h"

namespace sling {
namespace {

using search::Candidates;

bool same_set(ActionList<duel::DuelGame> a, ActionList<duel::DuelGame> b) {
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  return std::equal(a.begin(), a.end(), b.begin(), b.end());
}

TEST(SearchCandidates, OnlyThePrunedSidesChooseAmongCandidates) {
  const duel::DuelGame game(duel_positions::pitch3_without_god());
  // David to choose a destination (a movement die of 3): more legal points than candidates.
  const duel::DuelState s = duel_positions::moving(game, duel_positions::david_declares(game), 3);
  ActionList<duel::DuelGame> legal, candidates, out;
  game.legal_actions(s, legal);
  game.candidate_actions(s, candidates);
  ASSERT_LT(candidates.size(), legal.size());

  search::search_actions(game, s, out, Candidates::kBoth, duel::kGoliath);
  EXPECT_TRUE(same_set(out, candidates));
  // David searches for himself: his own move is pruned.
  search::search_actions(game, s, out, Candidates::kOwn, duel::kDavid);
  EXPECT_TRUE(same_set(out, candidates));
  // Goliath searches: David's move is every legal destination, so no reply of his is missed.
  search::search_actions(game, s, out, Candidates::kOwn, duel::kGoliath);
  EXPECT_TRUE(same_set(out, legal));
  search::search_actions(game, s, out, Candidates::kNone, duel::kDavid);
  EXPECT_TRUE(same_set(out, legal));
}

TEST(SearchCandidates, TheAgentOptionIsInTheSpecAndChecked) {
  const duel::DuelGame game(duel_positions::pitch3_without_god());
  const auto mcts = make_agent(game, "mcts:iterations=50,candidates=own");
  EXPECT_NE(mcts->spec().find(",candidates=own"), std::string::npos) << mcts->spec();
  const auto expectimax = make_agent(game, "expectimax:nodes=500,candidates=none");
  EXPECT_NE(expectimax->spec().find(",candidates=none"), std::string::npos) << expectimax->spec();
  // The default is written too, so a spec read back is the same agent.
  EXPECT_NE(make_agent(game, "mcts:iterations=50")->spec().find(",candidates=both"),
            std::string::npos);
  EXPECT_THROW(make_agent(game, "mcts:candidates=some"), OptionError);
  // Pig has no candidate set: the option is not offered there.
  const pig::PigGame pig;
  EXPECT_THROW(make_agent(pig, "mcts:candidates=own"), OptionError);
  EXPECT_EQ(make_agent(pig, "mcts:iterations=50")->spec().find("candidates"), std::string::npos);
}

// The largest gap over the tree between a node's value and what its visited children make of
// it: at a chance node their probability-weighted mean (the rest of the outcomes at the node's
// leaf value), at a decision node (when `decisions`) the best of them for the side to move.
double largest_backup_gap(const search::MctsTree<pig::PigGame>& tree, bool decisions) {
  double gap = 0;
  for (std::uint32_t id = 0; id < tree.node_count(); ++id) {
    const auto& n = tree.node(id);
    const bool chance = n.player == kChancePlayer;
    const bool decision = n.player == 0 || n.player == 1;
    if (n.child_count == 0 || n.visits == 0 || !(chance || (decisions && decision))) continue;
    const double sign = n.player == 1 ? -1.0 : 1.0;
    double weighted = 0, mass = 0, best = -2;
    for (std::uint32_t c = n.first_child; c < n.first_child + n.child_count; ++c) {
      const auto& child = tree.node(c);
      if (child.visits == 0) continue;
      const double v = child.value_sum / child.visits;
      weighted += child.probability * v;
      mass += child.probability;
      best = std::max(best, sign * v);
    }
    // Outcomes not visited yet count at the chance node's own leaf value.
    const double expectation = std::isnan(n.leaf_value)
                                   ? weighted / mass
                                   : weighted + std::max(0.0, 1.0 - mass) * n.leaf_value;
    const double expected = chance ? expectation : sign * best;
    if (best > -2) gap = std::max(gap, std::abs(n.value_sum / n.visits - expected));
  }
  return gap;
}

search::MctsTree<pig::PigGame> searched(const pig::PigGame& game, search::MctsConfig& config,
                                        search::Backup backup) {
  pig::PigState s{};
  s.scores = {60, 70};
  s.turn_total = 10;
  s.phase = pig::Phase::kDecision;
  config.iterations = 4000;
  config.backup = backup;
  search::MctsTree<pig::PigGame> tree(game, config);
  tree.reset(7);
  tree.search(s, config.iterations, search::Deadline(0));
  return tree;
}

TEST(MctsBackup, ChanceNodesHoldTheExpectationOfTheirChildren) {
  const pig::PigGame game;
  search::MctsConfig config;
  EXPECT_LT(largest_backup_gap(searched(game, config, search::Backup::kExpectation), false), 1e-9);
  // Sampled payoffs: a chance node's mean follows the dice drawn, not their probabilities.
  EXPECT_GT(largest_backup_gap(searched(game, config, search::Backup::kSample), false), 0.01);
}

TEST(MctsBackup, DecisionNodesHoldTheirBestChildUnderExpectimaxBackups) {
  const pig::PigGame game;
  search::MctsConfig config;
  EXPECT_LT(largest_backup_gap(searched(game, config, search::Backup::kExpectimax), true), 1e-9);
  // Expectation backups still average the decisions' children (explored poor moves included).
  EXPECT_GT(largest_backup_gap(searched(game, config, search::Backup::kExpectation), true), 0.01);
}

TEST(MctsBackup, TheAgentOptionIsInTheSpecAndChecked) {
  const pig::PigGame game;
  EXPECT_NE(
      make_agent(game, "mcts:iterations=50,backup=expectation")->spec().find(",backup=expectation"),
      std::string::npos);
  EXPECT_NE(
      make_agent(game, "mcts:iterations=50,backup=expectimax")->spec().find(",backup=expectimax"),
      std::string::npos);
  EXPECT_NE(make_agent(game, "mcts:iterations=50")->spec().find(",backup=sample"),
            std::string::npos);
  EXPECT_THROW(make_agent(game, "mcts:backup=average"), OptionError);
}

TEST(MctsTranspositions, TheAgentOptionIsWrittenAndParsesBack) {
  const pig::PigGame game;
  const std::string on =
      make_agent(game, "mcts:iterations=50,backup=expectimax,transpositions=1")->spec();
  EXPECT_NE(on.find(",transpositions=1"), std::string::npos) << on;
  EXPECT_EQ(make_agent(game, on)->spec(), on);
  EXPECT_NE(make_agent(game, "mcts:iterations=50")->spec().find(",transpositions=0"),
            std::string::npos);
  EXPECT_THROW(make_agent(game, "mcts:transpositions=2"), OptionError);
}

}  // namespace
}  // namespace sling
