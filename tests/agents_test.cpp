// Agents: spec strings, the catalogue, and that every listed agent is buildable and plays legally.

#include <gtest/gtest.h>

#include "agents/registry.h"
#include "engine/duel/duel.h"
#include "engine/pig/pig.h"
#include "experiments/play_game.h"

namespace sling {
namespace {

using pig::PigGame;

std::string error_of(const PigGame& game, const std::string& spec) {
  try {
    make_agent(game, spec);
  } catch (const OptionError& e) {
    return e.what();
  }
  return "";
}

TEST(AgentSpec, ErrorsNameTheProblemAndTheValidChoices) {
  const PigGame game;
  const std::string unknown = error_of(game, "alphazero");
  EXPECT_NE(unknown.find("alphazero"), std::string::npos);
  EXPECT_NE(unknown.find("mcts"), std::string::npos);
  EXPECT_NE(unknown.find("hold"), std::string::npos);
  const std::string key = error_of(game, "mcts:iteratoins=5");
  EXPECT_NE(key.find("iteratoins"), std::string::npos);
  EXPECT_NE(key.find("iterations"), std::string::npos);
  EXPECT_NE(error_of(game, "mcts:c=-1").find("[0, 100]"), std::string::npos);
  EXPECT_NE(error_of(game, "mcts:rollout=smart").find("random, heuristic"), std::string::npos);
  EXPECT_NE(error_of(game, "expectimax:pruning=star3").find("star1"), std::string::npos);
  EXPECT_FALSE(error_of(game, "mcts:iterations=0").empty());  // no budget at all
  EXPECT_FALSE(error_of(game, "random:x=1").empty());
  EXPECT_FALSE(error_of(game, "hold:20,at=30").empty());  // the same option twice
  EXPECT_FALSE(error_of(game, "mcts:500").empty());       // mcts takes no bare value
}

TEST(AgentSpec, HoldTakesABareThreshold) {
  const PigGame game;
  EXPECT_EQ(make_agent(game, "hold:25")->spec(), "hold:25");
  EXPECT_EQ(make_agent(game, "hold:at=25")->spec(), "hold:25");
  EXPECT_EQ(make_agent(game, "hold")->spec(), "hold:20");
}

// An agent's full spec names every option its catalogue entry declares, with the value it was given
// (or the default), and builds an agent with the same spec: the spec is a complete description.
TEST(AgentSpec, SpecNamesEveryDeclaredOptionWithItsValueAndParsesBack) {
  const PigGame game;
  const std::vector<AgentInfo> catalogue = agent_catalogue(game);
  auto declared = [&](const std::string& name) {
    for (const AgentInfo& info : catalogue)
      if (info.name == name) return info.options;
    ADD_FAILURE() << name << " is not in the catalogue";
    return decltype(catalogue.front().options){};
  };
  struct Case {
    std::string text;
    std::vector<std::string> given;
  };
  for (const Case& c : {Case{"mcts:iterations=123,c=2,rollout=heuristic,trees=3",
                             {"iterations=123", "c=2", "rollout=heuristic", "trees=3"}},
                        Case{"expectimax:nodes=777,pruning=star2,leaf=rollout",
                             {"nodes=777", "pruning=star2", "leaf=rollout"}}}) {
    const std::string full = make_agent(game, c.text)->spec();
    const std::string name = c.text.substr(0, c.text.find(':'));
    ASSERT_EQ(full.rfind(name + ":", 0), 0u) << full;
    const std::string options = "," + full.substr(name.size() + 1) + ",";
    for (const std::string& option : c.given)
      EXPECT_NE(options.find("," + option + ","), std::string::npos) << option << " in " << full;
    for (const auto& option : declared(name))
      EXPECT_NE(options.find("," + option.key + "="), std::string::npos)
          << option.key << " missing from " << full;
    EXPECT_EQ(make_agent(game, full)->spec(), full);
    EXPECT_NE(make_agent(game, name)->spec(), full) << "the given options must change the spec";
  }
}

TEST(AgentCatalogue, ListsGameSpecificAgentsOnlyWhereTheyExist) {
  auto names = [](const auto& catalogue) {
    std::vector<std::string> out;
    for (const auto& info : catalogue) out.push_back(info.name);
    return out;
  };
  const auto pig_names = names(agent_catalogue(PigGame{}));
  EXPECT_EQ(pig_names, (std::vector<std::string>{"random", "heuristic", "expectimax", "mcts",
                                                 "solver", "hold", "pace", "external"}));
  const auto duel_names = names(agent_catalogue(duel::DuelGame{}));
  EXPECT_EQ(std::count(duel_names.begin(), duel_names.end(), "hold"), 0);
  for (const auto& info : agent_catalogue(PigGame{})) {
    if (info.name != "mcts") continue;
    ASSERT_FALSE(info.options.empty());
    EXPECT_EQ(info.options[0].key, "iterations");
    EXPECT_EQ(info.options[0].default_value, "10000");
  }
}

// Every agent of the catalogue plays a whole game legally (play_game checks every move).
template <class G>
void every_agent_plays(const G& game, const std::vector<std::string>& small_budgets) {
  for (const std::string& spec : small_budgets) {
    auto agent = make_agent(game, spec);
    auto opponent = make_agent(game, "random");
    const GameResult r = play_game(game, *agent, *opponent, 42);
    EXPECT_TRUE(r.error.empty()) << spec << ": " << r.error;
    EXPECT_NE(r.end_reason, "ply limit") << spec;
  }
}

TEST(AgentCatalogue, EveryPigAgentPlaysLegally) {
  every_agent_plays(PigGame{},
                    {"random", "heuristic", "expectimax:nodes=500", "mcts:iterations=100",
                     "mcts:iterations=100,trees=2", "solver", "hold:15"});
}

TEST(AgentCatalogue, EveryDuelAgentPlaysLegally) {
  every_agent_plays(duel::DuelGame{},
                    {"random", "heuristic", "expectimax:nodes=300",
                     "mcts:iterations=50,rollout=heuristic", "mcts:iterations=50,leaf=evaluate"});
}

// `heuristic:blunder=P`, the easy presets' weakening: P = 0 plays the plain heuristic's games
// move for move, and at P = 1/2 about half the decisions are replaced by a uniform random one.
TEST(HeuristicBlunder, ZeroIsThePlainHeuristicAndOtherwiseBlundersAtItsRate) {
  const duel::DuelGame duel_game;
  for (std::uint64_t seed : {3, 8, 21}) {
    auto plain = make_agent(duel_game, "heuristic");
    auto zero = make_agent(duel_game, "heuristic:blunder=0");
    auto goliath_a = make_agent(duel_game, "heuristic");
    auto goliath_b = make_agent(duel_game, "heuristic");
    EXPECT_EQ(play_game(duel_game, *plain, *goliath_a, seed).record.history,
              play_game(duel_game, *zero, *goliath_b, seed).record.history)
        << seed;
  }
  EXPECT_EQ(make_agent(duel_game, "heuristic:blunder=0")->spec(), "heuristic");
  EXPECT_EQ(make_agent(duel_game, "heuristic:blunder=0.25")->spec(), "heuristic:blunder=0.25");
  EXPECT_THROW(make_agent(duel_game, "heuristic:blunder=1.5"), OptionError);

  // Pig's opening decision: the heuristic rolls; a blunder is a uniform choice of roll or hold,
  // so at P = 1/2 a quarter of the decisions hold.  n = 4,000: one standard error is 0.0068,
  // and the tolerance is five of them.
  const PigGame pig;
  const auto state = pig.initial_state();
  auto heuristic = make_agent(pig, "heuristic");
  heuristic->new_game(5);
  const Action usual = heuristic->act(state);
  auto blunders = make_agent(pig, "heuristic:blunder=0.5");
  blunders->new_game(5);
  constexpr int kDecisions = 4000;
  int different = 0;
  for (int i = 0; i < kDecisions; ++i) different += !(blunders->act(state) == usual);
  EXPECT_NEAR(static_cast<double>(different) / kDecisions, 0.25, 5 * 0.0068);
}

TEST(Agents, SearchAgentsReportTheirAnalysis) {
  const PigGame game;
  auto mcts = make_agent(game, "mcts:iterations=500");
  mcts->new_game(1);
  const pig::PigState start = game.initial_state();
  mcts->act(start);
  const Analysis a = mcts->last_analysis();
  EXPECT_EQ(a.nodes, 500);
  ASSERT_EQ(a.actions.size(), 2u);
  EXPECT_GE(a.actions[0].visits, a.actions[1].visits);
  auto solver = make_agent(game, "solver");
  EXPECT_EQ(solver->act(start), pig::kRoll);
  EXPECT_TRUE(solver->last_analysis().exact);
  EXPECT_NEAR(solver->last_analysis().value, 2 * 0.530592725 - 1, 1e-8);
}

}  // namespace
}  // namespace sling
