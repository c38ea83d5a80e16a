// The danelaw referee: the exact solver of small scenarios (solvers/danelaw/exact_solver.h), its
// agent `exact` and `sling solve danelaw`.

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <unordered_map>

#include "agents/danelaw_exact_agent.h"
#include "agents/registry.h"
#include "engine/danelaw/danelaw.h"
#include "experiments/match.h"
#include "solvers/danelaw/exact_key.h"
#include "solvers/danelaw/exact_scenario.h"
#include "solvers/danelaw/exact_solver.h"
#include "tests/build_paths.h"
#include "tests/danelaw_strip.h"
#include "tests/run_sling.h"

namespace sling::danelaw {
namespace {

// One Danish army, one turn, one town to win, on the strip (tests/danelaw_strip.h): the English
// field army at Gamma cannot reach Alpha's neighbours within 12 points, so once the Danes are
// next to Alpha only their own battle decides the game.
DanelawGame one_army_strip() {
  const std::string path = testing::TempDir() + "danelaw_exact_strip.json";
  std::ofstream(path) << strip_map();
  DanelawRules rules;
  rules.map = path;
  rules.pool = 1;
  rules.danes_at_sea = 1;
  rules.turn_limit = 1;
  rules.towns_to_win = 1;
  rules.field_army_towns = {"Gamma"};
  return DanelawGame(rules);
}

DanelawGame scenario(const std::string& name) {
  return load_scenario(SLING_SOURCE_DIR, name);
}

// The ford scenario cut down to one army a side (and the militia) and one turn.
DanelawGame one_army_ford() {
  DanelawRules rules = scenario("ford-2").rules();
  rules.pool = 1;
  rules.danes_at_sea = 1;
  rules.turn_limit = 1;
  return DanelawGame(rules);
}

// P(the Danes win) by plain expectimax on the whole state's bytes: no packed key, no sorting of
// armies, no cut-off at a won or lost bound.  Memoised on the full state only to finish quickly.
class BruteForce {
 public:
  explicit BruteForce(const DanelawGame& game) : game_(game) {}
  double value(const State& s) {
    if (game_.is_terminal(s)) return s.winner == kDanes ? 1.0 : 0.0;
    const auto found = memo_.find(s);
    if (found != memo_.end()) return found->second;
    double v = 0;
    if (game_.current_player(s) == kChancePlayer) {
      ChanceList<DanelawGame> outcomes;
      game_.chance_outcomes(s, outcomes);
      for (const ChanceOutcome& o : outcomes) {
        State next = s;
        game_.apply_chance(next, o.outcome);
        v += o.probability * value(next);
      }
    } else {
      ActionList<DanelawGame> actions;
      game_.legal_actions(s, actions);
      const bool danes = game_.current_player(s) == kDanes;
      v = danes ? 0.0 : 1.0;
      for (const Action a : actions) {
        State next = s;
        game_.apply_action(next, a);
        v = danes ? std::max(v, value(next)) : std::min(v, value(next));
      }
    }
    memo_.emplace(s, v);
    return v;
  }
  const auto& memo() const { return memo_; }

 private:
  struct BytesHash {
    std::size_t operator()(const State& s) const { return hash_bytes(s); }
  };
  const DanelawGame& game_;
  std::unordered_map<State, double, BytesHash> memo_;
};

TEST(DanelawExact, OneBattleFromTheSeaIsWonOnlyByADoubleSix) {
  const DanelawGame game = one_army_strip();
  State s = game.initial_state();
  game.apply_action(s, game.parse_action(s, "place 0,0"));  // at sea, next to Alpha's militia
  game.apply_chance(s, game.parse_action(s, "dice 1+2"));
  game.apply_action(s, game.parse_action(s, "end move"));
  // Danish roll 2d6 + 1 - 2 (a town): only a 12 destroys the militia and lets the army advance
  // into Alpha; a rout of the militia leaves Alpha empty and the army has moved.
  ExactSolver solver(game);
  EXPECT_NEAR(solver.solve(s), 1.0 / 36.0, 1e-12);
  // From the start the Danes can do no better than that attack.
  EXPECT_NEAR(solver.solve(game.initial_state()), 1.0 / 36.0, 1e-12);
}

TEST(DanelawExact, AgreesWithPlainExpectimaxAtEveryState) {
  for (const DanelawGame& game : {one_army_strip(), one_army_ford()}) {
    BruteForce brute(game);
    const double expected = brute.value(game.initial_state());
    ExactSolver solver(game);
    EXPECT_NEAR(solver.solve(game.initial_state()), expected, 1e-12);
    int checked = 0;
    for (const auto& [state, value] : brute.memo()) {
      if (checked++ % 7 != 0) continue;  // a seventh of the states keeps the test to seconds
      ASSERT_NEAR(solver.solve(state), value, 1e-12) << game.state_to_string(state);
    }
    EXPECT_GT(checked, 100);
  }
}

TEST(DanelawExact, KeysRoundTripAndIgnoreTheOrderOfArmies) {
  const DanelawGame game = scenario("ford-2");
  State s = game.initial_state();
  Rng rng(5, 0);
  for (int ply = 0; ply < 40 && !game.is_terminal(s); ++ply) {
    const ExactKey key = exact_key(s);
    EXPECT_EQ(exact_key(state_of_key(key)), key);
    State reversed = s;
    std::reverse(reversed.armies.begin(), reversed.armies.begin() + s.army_count);
    EXPECT_EQ(exact_key(reversed), key);
    EXPECT_FALSE(is_empty_exact_key(key));
    const Action a = game.current_player(s) == kChancePlayer ? sample_chance(game, s, rng)
                                                             : sample_uniform_action(game, s, rng);
    apply_any(game, s, a);
  }
}

TEST(DanelawExact, ASolveIsTheSameWhenRunAgain) {
  const DanelawGame game = scenario("holt-3v");
  ExactSolver first(game), second(game);
  const double a = first.solve(game.initial_state());
  EXPECT_EQ(second.solve(game.initial_state()), a);
  EXPECT_EQ(first.states(), second.states());
  EXPECT_NEAR(a, 0.084755285335, 1e-12);  // the report's figure (docs/results/danelaw-referee)
}

TEST(DanelawExact, TooManyStatesIsAOneLineRefusal) {
  const DanelawGame game = scenario("ford-2");
  ExactSolver solver(game, ExactOptions{1000});
  try {
    solver.solve(game.initial_state());
    FAIL() << "a scenario past the state limit was solved";
  } catch (const ScenarioTooLargeError& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.find('\n'), std::string::npos);
    EXPECT_NE(what.find("more than 1000 states"), std::string::npos) << what;
  }
  EXPECT_LE(solver.states(), 1000u);
  // England is far beyond the packed key: refused before any solving.
  EXPECT_THROW(ExactSolver{DanelawGame{}}, RulesError);
  // A scenario of 200 turns: its games outrun the recursion's limit long before the state limit.
  DanelawRules long_rules = game.rules();
  long_rules.turn_limit = 200;
  ExactSolver long_solver{DanelawGame(long_rules)};
  try {
    long_solver.solve(long_solver.game().initial_state());
    FAIL() << "a 200-turn scenario was solved";
  } catch (const ScenarioTooLargeError& e) {
    EXPECT_NE(std::string(e.what()).find("plies"), std::string::npos) << e.what();
  }
}

TEST(DanelawExact, SolveCommandPrintsTheValueAndRefusesInOneLine) {
  const std::string dir = std::string(SLING_SOURCE_DIR) + "/solvers/danelaw/scenarios/";
  const std::string files = "--rules " + dir + "holt-3v.rules.json --map " + dir + "holt.json";
  const auto solved = testing_support::run_sling("solve danelaw --json " + files);
  ASSERT_EQ(solved.status, 0) << solved.output;
  EXPECT_NE(solved.output.find("\"danes_win_probability\": 0.084755285335"), std::string::npos)
      << solved.output;
  EXPECT_NE(solved.output.find("\"states\": "), std::string::npos);
  const auto refused = testing_support::run_sling("solve danelaw --max-states 500 " + files);
  EXPECT_NE(refused.status, 0);
  EXPECT_EQ(testing_support::count_lines(refused.output), 1) << refused.output;
  EXPECT_NE(refused.output.find("more than 500 states"), std::string::npos) << refused.output;
}

TEST(DanelawExact, TheAgentIsInTheRegistryAndReportsExactValues) {
  const DanelawGame game = scenario("holt-3v");
  const AgentPtr<DanelawGame> agent = make_agent(game, "exact");
  EXPECT_EQ(agent->spec(), "exact:max_states=6000000");
  EXPECT_EQ(make_agent(game, agent->spec())->spec(), agent->spec());
  const State start = game.initial_state();
  const Action chosen = agent->act(start);
  State after = start;
  game.apply_action(after, chosen);  // legal
  const Analysis analysis = agent->last_analysis();
  EXPECT_TRUE(analysis.exact);
  EXPECT_NEAR(analysis.value, 2 * 0.084755285335 - 1, 1e-12);  // the Danes place first
  EXPECT_EQ(analysis.actions.front().action, chosen);
  // England is far too big to solve: a one-line refusal, not an attempt.
  EXPECT_THROW(make_agent(DanelawGame{}, "exact"), RulesError);
}

// Against any opponent the exact side scores at least the value in expectation; the games'
// mean may fall short of it only by chance (three standard errors of the mean at most).
TEST(DanelawExact, TheExactAgentScoresAtLeastTheValueOnEitherSide) {
  const DanelawGame game = scenario("ford-2");
  const double value =
      shared_exact_solution(game, ExactOptions{}.max_states)->find(game.initial_state()).value();
  MatchOptions options;
  options.games = 300;
  options.seed = 54;
  options.threads = 2;
  for (const std::string opponent : {"random", "heuristic"}) {
    const MatchResult danes = run_match(game, {"exact", opponent}, options);
    const MatchResult english = run_match(game, {opponent, "exact"}, options);
    const double n = options.games;
    const double danes_se = std::sqrt(value * (1 - value) / n) + 1e-3;
    EXPECT_GE(danes.win_rate(kDanes), value - 3 * danes_se) << opponent;
    EXPECT_GE(english.win_rate(kEnglish), (1 - value) - 3 * danes_se) << opponent;
    EXPECT_EQ(danes.errors[kDanes] + english.errors[kEnglish], 0) << danes.first_error;
  }
}

}  // namespace
}  // namespace sling::danelaw
