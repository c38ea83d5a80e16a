// Value functions at the leaves of search (search/value.h), the duel's value function from a
// coarse exact solution (solvers/duel/coarse_value.h), its disk cache, and the presets.

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <utility>
#include <vector>

#include "agents/registry.h"
#include "engine/core/io.h"
#include "engine/duel/duel.h"
#include "engine/pig/pig.h"
#include "experiments/play_game.h"
#include "search/expectimax.h"
#include "search/mcts.h"
#include "solvers/duel/capped_cache.h"
#include "solvers/duel/capped_solve.h"
#include "solvers/duel/solution_cache.h"
#include "solvers/duel/solver.h"
#include "solvers/pig/solver.h"
#include "tests/run_sling.h"

namespace sling {
namespace {

static_assert(!search::LeafValue<search::NoLeafValue, pig::PigGame>);
static_assert(search::LeafValue<pig::SolutionValue, pig::PigGame>);
static_assert(search::LeafValue<duel::CoarseDuelValue, duel::DuelGame>);

// The whole test binary (and every `sling` it runs) caches duel solutions in a temporary
// directory of its own, removed at the end: tests never touch the user's cache.
class TestBinaryCache : public ::testing::Environment {
 public:
  void SetUp() override {
    path_ = ::testing::TempDir() + "sling_test_cache_" + std::to_string(::getpid());
    std::filesystem::create_directories(path_);
    ::setenv("XDG_CACHE_HOME", path_.c_str(), 1);
    disk_cache_settings.set_directory("");
  }
  void TearDown() override { std::filesystem::remove_all(path_); }

 private:
  std::string path_;
};
const auto* const kTestBinaryCache = ::testing::AddGlobalTestEnvironment(new TestBinaryCache);

// A directory of its own for a test that checks the cache, removed at the end.
class TempCache {
 public:
  TempCache()
      : path_(::testing::TempDir() + "sling_value_cache_" + std::to_string(::getpid()) + "_" +
              ::testing::UnitTest::GetInstance()->current_test_info()->name()) {
    std::filesystem::remove_all(path_);
    disk_cache_settings.set_directory(path_);
    disk_cache_settings.set_log([this](const std::string& line) { log_ += line + "\n"; });
  }
  ~TempCache() {
    disk_cache_settings.set_directory("");  // back to the test binary's own ($XDG_CACHE_HOME)
    disk_cache_settings.set_log([](const std::string&) {});
    std::filesystem::remove_all(path_);
  }
  const std::string& path() const { return path_; }
  const std::string& log() const { return log_; }

 private:
  std::string path_;
  std::string log_;
};

pig::PigState pig_decision(int mine, int theirs, int turn_total, int to_move) {
  pig::PigState s{};
  s.scores[to_move] = static_cast<std::uint16_t>(mine);
  s.scores[1 - to_move] = static_cast<std::uint16_t>(theirs);
  s.turn_total = static_cast<std::uint16_t>(turn_total);
  s.to_move = static_cast<std::uint8_t>(to_move);
  return s;
}

// With the exact value at its leaves, one decision of expectimax is the optimal policy: its root
// values are the solver's roll and hold values.
TEST(ValueSearch, ExpectimaxWithTheExactPigValueIsOptimalAtDepthOne) {
  const pig::PigGame game;
  const auto solution = pig::shared_solution(game.goal());
  const pig::SolutionValue value(solution);
  search::ExpectimaxConfig config;
  config.max_depth = 1;
  config.value_leaves = true;
  search::Expectimax<pig::PigGame, pig::SolutionValue> search(game, config, &value);
  search.new_game(1);
  int checked = 0;
  for (int mine = 0; mine < 100; mine += 9) {
    for (int theirs = 0; theirs < 100; theirs += 13) {
      for (int total = 0; mine + total < 100 && total < 40; total += 7) {
        for (int side = 0; side < 2; ++side) {
          const pig::PigState s = pig_decision(mine, theirs, total, side);
          const search::SearchResult r = search.search(s);
          const double roll = 2 * solution->roll_value(mine, theirs, total) - 1;
          const double hold = 2 * solution->hold_value(mine, theirs, total) - 1;
          for (const auto& a : r.actions) {
            EXPECT_NEAR(a.value, a.action == pig::kRoll ? roll : hold, 1e-12);
          }
          if (std::abs(roll - hold) > 1e-9) {
            EXPECT_EQ(r.best, roll > hold ? pig::kRoll : pig::kHold);
          }
          ++checked;
        }
      }
    }
  }
  EXPECT_GT(checked, 300);
}

// Without a value function (or with leaf=value unset) the searches behave exactly as before: the
// same move and statistics with the same seed.
TEST(ValueSearch, MctsWithoutValueLeavesIsUnchanged) {
  const pig::PigGame game;
  const auto solution = pig::shared_solution(game.goal());
  const pig::SolutionValue value(solution);
  search::MctsConfig config;
  config.iterations = 3000;
  search::Mcts<pig::PigGame> plain(game, config);
  search::Mcts<pig::PigGame, pig::SolutionValue> unused(game, config, &value);
  plain.new_game(7);
  unused.new_game(7);
  const auto a = plain.search(pig_decision(40, 60, 12, 0));
  const auto b = unused.search(pig_decision(40, 60, 12, 0));
  EXPECT_EQ(a.best, b.best);
  EXPECT_EQ(a.value, b.value);
  ASSERT_EQ(a.actions.size(), b.actions.size());
  for (std::size_t i = 0; i < a.actions.size(); ++i) {
    EXPECT_EQ(a.actions[i].visits, b.actions[i].visits);
  }
}

// MCTS with exact leaves estimates the root's value far better than with rollouts at the same
// budget, and the mixed leaf (AlphaGo's lambda) lies between.
TEST(ValueSearch, MctsValueLeavesAreAccurateAndMixable) {
  const pig::PigGame game;
  const auto solution = pig::shared_solution(game.goal());
  const pig::SolutionValue value(solution);
  const pig::PigState s = pig_decision(55, 70, 10, 1);
  const double exact = 2 * solution->win_probability(55, 70, 10) - 1;
  auto error = [&](bool value_leaves, double weight) {
    search::MctsConfig config;
    config.iterations = 2000;
    config.c = 2;
    config.value_leaves = value_leaves;
    config.value_rollout_weight = weight;
    search::Mcts<pig::PigGame, pig::SolutionValue> search(game, config, &value);
    search.new_game(3);
    return std::abs(search.search(s).value - exact);
  };
  // The root mixes near-optimal children with a few exploratory ones, so its mean is within a few
  // hundredths of the exact value with values alone, and with values mixed half and half with
  // random rollouts.
  EXPECT_LT(error(true, 0), 0.05);
  EXPECT_LT(error(true, 0.5), 0.08);
}

// Under expectimax backups with exact leaves, every node of the tree holds the exact value of its
// state (its leaf value counting for its unvisited children and outcomes), and the root chooses
// the optimal action.  With a decision node's best visited child alone, a node whose visits tried
// only the poorer action would hold that action's value.
TEST(ValueSearch, MctsExpectimaxBackupsWithExactLeavesHoldTheExactValues) {
  const pig::PigGame game;
  const auto solution = pig::shared_solution(game.goal());
  const pig::SolutionValue value(solution);
  search::MctsConfig config;
  config.iterations = 300;
  config.c = 0.3;
  config.value_leaves = true;
  config.backup = search::Backup::kExpectimax;
  int checked = 0;
  for (const pig::PigState& root :
       {pig_decision(55, 70, 10, 1), pig_decision(20, 90, 25, 0), pig_decision(80, 60, 14, 0)}) {
    search::MctsTree<pig::PigGame, pig::SolutionValue> tree(game, config, &value);
    tree.reset(11);
    tree.search(root, config.iterations, search::Deadline(0));
    // Depth first over the visited nodes, each with its state.
    std::vector<std::pair<std::uint32_t, pig::PigState>> stack{{0, root}};
    while (!stack.empty()) {
      const auto [id, state] = stack.back();
      stack.pop_back();
      const auto& node = tree.node(id);
      if (node.visits == 0) continue;
      const double expected = game.is_terminal(state) ? game.returns(state)[0] : value(state);
      EXPECT_NEAR(node.value_sum / node.visits, expected, 1e-6);
      ++checked;
      for (std::uint32_t c = node.first_child; c < node.first_child + node.child_count; ++c) {
        pig::PigState next = state;
        if (node.player == kChancePlayer) {
          game.apply_chance(next, tree.node(c).action);
        } else {
          game.apply_action(next, tree.node(c).action);
        }
        stack.emplace_back(c, next);
      }
    }
    search::Mcts<pig::PigGame, pig::SolutionValue> agent_search(game, config, &value);
    agent_search.new_game(11);
    const int mine = root.scores[root.to_move], theirs = root.scores[1 - root.to_move];
    const double roll = solution->roll_value(mine, theirs, root.turn_total);
    const double hold = solution->hold_value(mine, theirs, root.turn_total);
    EXPECT_EQ(agent_search.search(root).best, roll > hold ? pig::kRoll : pig::kHold);
  }
  EXPECT_GT(checked, 100);
}

TEST(ValueSearch, SpecsOfferLeafValueWhereAGameHasOne) {
  const pig::PigGame pig_game;
  const auto mcts = make_agent(pig_game, "mcts:iterations=500,leaf=value,value_mix=0.25");
  EXPECT_NE(mcts->spec().find("leaf=value,value_mix=0.25"), std::string::npos);
  const auto expectimax = make_agent(pig_game, "expectimax:nodes=500,leaf=value");
  EXPECT_NE(expectimax->spec().find("leaf=value"), std::string::npos);
  // The spec rebuilds the same agent.
  EXPECT_EQ(make_agent(pig_game, mcts->spec())->spec(), mcts->spec());
  EXPECT_THROW(make_agent(pig_game, "mcts:leaf=oracle"), OptionError);
  EXPECT_THROW(make_agent(pig_game, "mcts:value_mix=2"), OptionError);
}

// The duel on a small board, so that every solve here takes a second or less on an idle machine.
duel::DuelRules small_rules(int pitch_cm) {
  duel::DuelRules r;
  r.board_cm = 16;
  r.pitch_cm = pitch_cm;
  return r;
}

// Random playouts' states, each kind of phase included.
std::vector<duel::DuelState> sample_states(const duel::DuelGame& game, int games,
                                           std::uint64_t seed) {
  std::vector<duel::DuelState> out;
  Rng rng(seed, 1);
  for (int g = 0; g < games; ++g) {
    duel::DuelState s = game.initial_state();
    while (!game.is_terminal(s) && s.turn < 60) {
      out.push_back(s);
      const Action a = game.current_player(s) == kChancePlayer ? sample_chance(game, s, rng)
                                                               : game.heuristic_action(s, rng);
      apply_any(game, s, a);
    }
  }
  return out;
}

// Over its own lattice the value function is the exact solution: the stored value at every turn
// start, and the solver's exact expectation over the rest of a turn everywhere else.
TEST(DuelCoarseValue, SameLatticeIsTheExactSolution) {
  const duel::DuelGame game(small_rules(3));
  auto solution = std::make_shared<const duel::DuelSolution>(duel::solve_duel(game));
  const duel::CoarseDuelValue value(game, solution);
  EXPECT_TRUE(value.exact());
  const duel::DuelIndex index(game);
  int declares = 0;
  for (const duel::DuelState& s : sample_states(game, 30, 5)) {
    const double exact = solution->value(s);
    EXPECT_NEAR(value.win_probability(s, duel::CoarseDuelValue::Scope::kAllActions), exact, 1e-7)
        << game.state_to_string(s);
    if (const auto at = index.index_of(s)) {
      EXPECT_EQ(value.declare_value(s), solution->values()[*at]);
      ++declares;
    }
  }
  EXPECT_GT(declares, 50);
}

// A tied initiative roll is thrown again: the value of the game's start and of a decision on
// tied initiative dice is the solution's start value, not an expectation that recurses through
// tie after tie (which once hung a hint at the start of a game).
TEST(DuelCoarseValue, ATiedInitiativeIsTheSolutionsStartValue) {
  const duel::DuelGame game(small_rules(4));
  auto solution = std::make_shared<const duel::DuelSolution>(duel::solve_duel(game));
  const duel::CoarseDuelValue value(game, solution);
  const duel::DuelState start = game.initial_state();
  const double start_value = solution->value(start);
  EXPECT_NEAR(value.win_probability(start, duel::CoarseDuelValue::Scope::kAllActions), start_value,
              1e-12);
  ChanceList<duel::DuelGame> outcomes;
  game.chance_outcomes(start, outcomes);
  int ties = 0;
  for (const ChanceOutcome& o : outcomes) {
    duel::DuelState s = start;
    game.apply_chance(s, o.outcome);
    if (s.dice[0] != s.dice[1] || game.current_player(s) == kChancePlayer) continue;
    ++ties;  // a decision on tied dice (God's re-roll is still available)
    for (const auto& [action, v] : value.action_values(s)) {
      EXPECT_GE(v, 0) << game.action_to_string(s, action);
      EXPECT_LE(v, 1) << game.action_to_string(s, action);
    }
  }
  EXPECT_GT(ties, 0);
}

// From a coarser lattice the values are close to the exact ones (docs/strength.md measures the
// default board), stay probabilities, and the coarse lattice's own points are reproduced exactly
// where the two lattices share them.
TEST(DuelCoarseValue, InterpolationFromACoarserLatticeIsClose) {
  const duel::DuelGame fine(small_rules(2));
  const duel::DuelGame coarse(small_rules(4));
  auto fine_solution = std::make_shared<const duel::DuelSolution>(duel::solve_duel(fine));
  auto coarse_solution = std::make_shared<const duel::DuelSolution>(duel::solve_duel(coarse));
  const duel::CoarseDuelValue value(fine, coarse_solution);
  EXPECT_FALSE(value.exact());
  const duel::DuelIndex index(fine);
  double total_error = 0;
  int count = 0;
  for (const duel::DuelState& s : sample_states(fine, 40, 9)) {
    const auto at = index.index_of(s);
    if (!at) continue;
    const double v = value.declare_value(s);
    EXPECT_GE(v, 0);
    EXPECT_LE(v, 1);
    total_error += std::abs(v - fine_solution->values()[*at]);
    ++count;
  }
  ASSERT_GT(count, 100);
  EXPECT_LT(total_error / count, 0.05);
  const double start =
      value.win_probability(fine.initial_state(), duel::CoarseDuelValue::Scope::kAllActions);
  // The start is the coarse game's own start value; on this small board the lattices' start
  // values differ by about 0.05.
  EXPECT_NEAR(start, coarse_solution->value(coarse.initial_state()), 1e-12);
  EXPECT_NEAR(start, fine_solution->value(fine.initial_state()), 0.07);
  // A solution for other rules is refused.
  duel::DuelRules other = small_rules(4);
  other.david_shooting += 1;
  EXPECT_THROW(duel::CoarseDuelValue(fine, std::make_shared<const duel::DuelSolution>(
                                               duel::solve_duel(duel::DuelGame(other)))),
               RulesError);
}

// A corrupt, truncated or empty cache file in place of `good`: `command` solves it again with a
// one-line notice and writes the file back whole.
void expect_broken_cache_file_solved_again(const std::string& command, const std::string& file,
                                           const std::string& good) {
  for (const std::string& broken :
       {std::string("not a solution"), good.substr(0, good.size() / 2), std::string()}) {
    write_file_atomic(file, broken);
    const auto repaired = testing_support::run_sling(command);
    ASSERT_EQ(repaired.status, 0) << repaired.output;
    EXPECT_NE(repaired.output.find("is unusable"), std::string::npos) << repaired.output;
    EXPECT_EQ(read_file(file).size(), good.size());
  }
}

// The cache: computed on first use with a progress line, reused, and a corrupt, truncated or
// foreign file is solved again with a one-line notice.
TEST(DuelCoarseValue, CacheIsWrittenReusedAndRepaired) {
  using testing_support::run_sling;
  TempCache cache;
  std::filesystem::create_directories(cache.path());
  const std::string rules = cache.path() + "/rules.json";
  write_file_atomic(rules, duel::rules_to_json(small_rules(3)));
  const std::string command = "--cache " + cache.path() + " match duel --rules " + rules +
                              " --david lookahead --goliath heuristic --games 2 --threads 1";
  const auto first = run_sling(command);
  ASSERT_EQ(first.status, 0) << first.output;
  EXPECT_NE(first.output.find("solving the duel at pitch 4 cm"), std::string::npos) << first.output;
  const std::string file =
      duel::duel_solution_cache_path(duel::DuelGame(small_rules(4)), cache.path());
  ASSERT_TRUE(std::filesystem::exists(file));

  const auto second = run_sling(command);
  ASSERT_EQ(second.status, 0) << second.output;
  EXPECT_EQ(second.output.find("solving"), std::string::npos) << second.output;

  const std::string good = read_file(file);
  const std::string foreign = duel::duel_solution_cache_path(duel::DuelGame(small_rules(5)), "x");
  expect_broken_cache_file_solved_again(command, file, good);
  // A solution of other rules under this name (a foreign file).
  const duel::DuelGame pitch5(small_rules(5));
  duel::solve_duel(pitch5).save(file);
  const auto replaced = run_sling(command);
  ASSERT_EQ(replaced.status, 0) << replaced.output;
  EXPECT_NE(replaced.output.find("is unusable"), std::string::npos) << replaced.output;
  // The re-solved file holds the same values (its timings differ).
  const duel::DuelSolution resolved = duel::DuelSolution::load(file, nullptr);
  EXPECT_EQ(read_file(file).size(), good.size());
  EXPECT_EQ(resolved.game().rules().pitch_cm, 4);
  (void)foreign;
}

// In-process: the value function is built from the cache directory given, and the game's own
// solution is used instead where the cache holds it.
TEST(DuelCoarseValue, SameLatticeSolutionIsPreferredWhenCached) {
  TempCache cache;
  const duel::DuelGame game(small_rules(3));
  const auto coarse = duel::shared_coarse_value(game, 5, true);
  EXPECT_EQ(coarse->source_pitch_cm(), 5);
  EXPECT_NE(cache.log().find("solving the duel at pitch 5 cm"), std::string::npos);
  duel::cached_duel_solution(game);  // now the cache holds the game's own solution
  const auto exact = duel::shared_coarse_value(game, 4, true);
  EXPECT_TRUE(exact->exact());
  const auto forced = duel::shared_coarse_value(game, 4, false);
  EXPECT_EQ(forced->source_pitch_cm(), 4);
}

TEST(Presets, AcceptedWhereverAnAgentSpecIs) {
  TempCache cache;
  const duel::DuelGame game(small_rules(3));
  EXPECT_EQ(make_agent(game, "easy")->spec(), "heuristic:blunder=0.25");
  EXPECT_EQ(make_agent(game, "normal")->spec(),
            "lookahead:value_pitch=5,same_lattice=1,refine=0,tie=0.02,repetition=0");
  EXPECT_EQ(make_agent(game, "strong")->spec(),
            "lookahead:value_pitch=4,same_lattice=1,refine=100,refine_tolerance=1e-05,"
            "background=0,tie=0.02,repetition=0");
  const pig::PigGame pig_game;
  EXPECT_EQ(make_agent(pig_game, "strong")->spec(), "solver");
  // A match between presets plays.
  auto david = make_agent(game, "strong");
  auto goliath = make_agent(game, "easy");
  const GameResult result = play_game(game, *david, *goliath, 11);
  EXPECT_TRUE(result.error.empty()) << result.error;
  EXPECT_GT(result.plies, 0);
}

// Under a turn cap the value-lattice agents still play: their lattices are solved without the cap
// (the game itself scores the draw when the cap is reached), so their analysis is an estimate,
// never called exact, even on the solution's own lattice.
TEST(Presets, PlayCappedRulesValuedAsIfUncapped) {
  TempCache cache;
  duel::DuelRules rules = small_rules(4);
  rules.turn_cap = 12;
  const duel::DuelGame game(rules);
  for (const char* spec : {"normal", "lookahead:value_pitch=4"}) {
    auto david = make_agent(game, spec);
    auto goliath = make_agent(game, "easy");
    const GameResult result = play_game(game, *david, *goliath, 5);
    EXPECT_TRUE(result.error.empty()) << spec << ": " << result.error;
    EXPECT_LE(result.plies, 400) << spec;  // 12 turns at most
    EXPECT_FALSE(david->last_analysis().exact) << spec;
    EXPECT_FALSE(david->last_analysis().actions.empty()) << spec;
  }
}

// Under a cap that solves cheaply `strong` plays the capped game exactly: solved on first use with
// a progress line, cached, and exact in its analysis.  A cap that would take minutes keeps the
// lookahead.
TEST(Presets, StrongPlaysACheapCappedGameExactly) {
  TempCache cache;
  duel::DuelRules rules = small_rules(4);
  rules.turn_cap = 12;
  const duel::DuelGame game(rules);
  ASSERT_TRUE(duel::capped_solve_is_cheap(game));
  auto david = make_agent(game, "strong");
  EXPECT_EQ(david->spec(), "solver:objective=score");
  EXPECT_NE(cache.log().find("solving the duel capped at 12 turns"), std::string::npos)
      << cache.log();
  const std::string file =
      duel::capped_solution_cache_path(game, duel::CappedObjective::kScore, cache.path());
  EXPECT_TRUE(std::filesystem::exists(file));
  auto goliath = make_agent(game, "easy");
  const GameResult result = play_game(game, *david, *goliath, 5);
  EXPECT_TRUE(result.error.empty()) << result.error;
  EXPECT_TRUE(david->last_analysis().exact);
  // The win objective is a solve and a file of its own.
  EXPECT_EQ(make_agent(game, "solver:objective=win")->spec(), "solver:objective=win");
  EXPECT_TRUE(std::filesystem::exists(
      duel::capped_solution_cache_path(game, duel::CappedObjective::kWin, cache.path())));

  duel::DuelRules long_game;  // the default 1 cm lattice
  long_game.turn_cap = 100;
  EXPECT_FALSE(duel::capped_solve_is_cheap(duel::DuelGame(long_game)));
  EXPECT_EQ(preset_spec(duel::DuelGame(long_game), "strong"), duel::kStrongRefinedLookahead);
  long_game.pitch_cm = 2;  // about 40 s on two cores
  EXPECT_TRUE(duel::capped_solve_is_cheap(duel::DuelGame(long_game)));
  EXPECT_FALSE(duel::capped_solve_is_cheap(duel::DuelGame(small_rules(4))));  // no cap
  EXPECT_THROW(make_agent(duel::DuelGame(small_rules(4)), "solver"), OptionError);
}

// Across processes: the capped cache file is reused, and a corrupt, truncated or foreign one is
// solved again with a one-line notice.
TEST(Presets, CappedCacheIsReusedAndRepaired) {
  using testing_support::run_sling;
  TempCache cache;
  std::filesystem::create_directories(cache.path());
  duel::DuelRules rules = small_rules(4);
  rules.turn_cap = 10;
  const std::string rules_file = cache.path() + "/rules.json";
  write_file_atomic(rules_file, duel::rules_to_json(rules));
  const std::string command = "--cache " + cache.path() + " match duel --rules " + rules_file +
                              " --david strong --goliath heuristic --games 2 --threads 1";
  const auto first = run_sling(command);
  ASSERT_EQ(first.status, 0) << first.output;
  EXPECT_NE(first.output.find("solving the duel capped at 10 turns"), std::string::npos)
      << first.output;
  const std::string file = duel::capped_solution_cache_path(
      duel::DuelGame(rules), duel::CappedObjective::kScore, cache.path());
  const std::string good = read_file(file);
  const auto second = run_sling(command);
  ASSERT_EQ(second.status, 0) << second.output;
  EXPECT_EQ(second.output.find("solving"), std::string::npos) << second.output;
  expect_broken_cache_file_solved_again(command, file, good);
  // Another cap's solution under this name (a foreign file).
  duel::DuelRules other = rules;
  other.turn_cap = 6;
  duel::solve_capped_duel(duel::DuelGame(other), duel::CappedObjective::kScore).save(file);
  const auto replaced = run_sling(command);
  ASSERT_EQ(replaced.status, 0) << replaced.output;
  EXPECT_NE(replaced.output.find("is unusable"), std::string::npos) << replaced.output;
  EXPECT_EQ(read_file(file).size(), good.size());
}

}  // namespace
}  // namespace sling
