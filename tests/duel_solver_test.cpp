// The exact duel solver: its turn formulas against DuelGame, its value against an independent
// exhaustive expectimax of the same game, simulated optimal play, the bracket, and the file checks.

#include <unistd.h>

#include <gtest/gtest.h>

#include <map>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <deque>
#include <fstream>
#include <stdexcept>
#include <unordered_map>

#include "agents/duel_solver_agent.h"
#include "engine/core/errors.h"
#include "engine/core/io.h"
#include "experiments/play_game.h"
#include "solvers/duel/solver.h"
#include "tests/run_sling.h"

namespace sling::duel {
namespace {

// A small board with a coarse lattice: every test here runs in seconds.
DuelRules small_rules() {
  DuelRules r;
  r.board_cm = 16;
  r.pitch_cm = 3;
  return r;
}

const DuelSolution& small_solution() {
  static const DuelSolution solution = [] {
    SolverOptions options;
    options.threads = 2;
    return solve_duel(DuelGame(small_rules()), options);
  }();
  return solution;
}

// The message of the `Error` that f() throws, or "" when it throws none.
template <class Error, class F>
std::string error_message(const F& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

std::string temp_path(const std::string& name) {
  return ::testing::TempDir() + "sling_duel_solver_" + std::to_string(::getpid()) + "_" + name;
}

struct StateHash {
  std::size_t operator()(const DuelState& s) const { return DuelGame::hash(s); }
};

// Every state reachable from the start (the turn counter set to 0: without a cap it decides
// nothing), as an explicit graph, solved by plain value iteration from zero.  It shares nothing
// with the solver but DuelGame.
double exhaustive_expectimax(const DuelGame& game, std::size_t* node_count) {
  struct Node {
    Player player;
    double terminal = 0;
    std::vector<std::pair<std::uint32_t, double>> next;  // successor, probability (chance only)
  };
  std::vector<Node> nodes;
  std::vector<DuelState> states;
  std::unordered_map<DuelState, std::uint32_t, StateHash> ids;
  auto id_of = [&](DuelState s) {
    s.turn = 0;
    const auto [it, inserted] = ids.emplace(s, static_cast<std::uint32_t>(states.size()));
    if (inserted) states.push_back(s);
    return it->second;
  };
  id_of(game.initial_state());
  for (std::size_t i = 0; i < states.size(); ++i) {
    const DuelState s = states[i];
    Node node;
    node.player = game.current_player(s);
    if (game.is_terminal(s)) {
      node.terminal = s.winner == kDavid ? 1.0 : 0.0;
    } else if (node.player == kChancePlayer) {
      ChanceList<DuelGame> outcomes;
      game.chance_outcomes(s, outcomes);
      for (const ChanceOutcome& o : outcomes) {
        DuelState t = s;
        game.apply_chance(t, o.outcome);
        node.next.emplace_back(id_of(t), o.probability);
      }
    } else {
      ActionList<DuelGame> actions;
      game.legal_actions(s, actions);
      for (Action a : actions) {
        DuelState t = s;
        game.apply_action(t, a);
        node.next.emplace_back(id_of(t), 0.0);
      }
    }
    nodes.push_back(std::move(node));
  }
  *node_count = nodes.size();
  std::vector<double> value(nodes.size(), 0.0);
  for (int sweep = 0; sweep < 200000; ++sweep) {
    double change = 0;
    for (std::size_t k = nodes.size(); k-- > 0;) {
      const Node& n = nodes[k];
      double v;
      if (n.player == kTerminalPlayer) {
        v = n.terminal;
      } else if (n.player == kChancePlayer) {
        v = 0;
        for (const auto& [to, p] : n.next) v += p * value[to];
      } else {
        v = value[n.next[0].first];
        for (const auto& [to, p] : n.next) {
          v = n.player == kDavid ? std::max(v, value[to]) : std::min(v, value[to]);
        }
      }
      change = std::max(change, std::abs(v - value[k]));
      value[k] = v;
    }
    if (change < 1e-14) break;
  }
  return value[0];
}

TEST(DuelSolver, ValueEqualsAnIndependentExhaustiveExpectimax) {
  // A coarser lattice than the other tests keeps the explicit graph small (every intermediate
  // node of every turn is a node here); every rule is still in play.
  DuelRules rules = small_rules();
  rules.pitch_cm = 4;
  const DuelSolution solution = solve_duel(DuelGame(rules));
  std::size_t nodes = 0;
  const double reference = exhaustive_expectimax(solution.game(), &nodes);
  EXPECT_GT(nodes, 10000u);
  // The solver discounts each turn by 1e-10 to pick a non-stalling David policy; its value sits
  // below the game's by about that times the game's length.
  EXPECT_NEAR(solution.summary().start, reference, 1e-7);
  EXPECT_LE(solution.summary().lower_bound, reference + 1e-12);
  EXPECT_GE(solution.summary().upper_bound, reference - 1e-12);
}

TEST(DuelSolver, TurnFormulasAgreeWithDuelGameAtEveryDeclareState) {
  // The stored value of each declare state is the discounted turn value computed by the solver's
  // formulas; DuelSolution::value recomputes the turn with DuelGame itself from the same values.
  const DuelSolution& solution = small_solution();
  const DuelGame& game = solution.game();
  const DuelIndex& index = solution.index();
  const double continuation = 1.0 - SolverOptions{}.discount;
  int checked = 0;
  DuelState s = game.initial_state();
  s.phase = Phase::kDeclare;
  s.roll = Roll::kNone;
  for (int flags = 0; flags < 128; ++flags) {
    for (int actor = 0; actor < 2; ++actor) {
      s.flags = static_cast<std::uint8_t>(flags);
      s.actor = static_cast<std::uint8_t>(actor);
      for_each_placement(game, s, [&] {
        const auto i = index.index_of(s);
        if (!i || (actor == kGoliath && s.has(kGoliathDazed) && s.has(kGoliathSkipsTurn))) return;
        EXPECT_NEAR(solution.values()[*i], continuation * solution.value(s), 1e-12)
            << game.state_to_string(s);
        ++checked;
      });
    }
  }
  EXPECT_GT(checked, 10000);
}

TEST(DuelSolver, BracketIsCertifiedTightAndGodIsWorthSomething) {
  const SolveSummary& s = small_solution().summary();
  EXPECT_LE(s.lower_bound, s.upper_bound);
  EXPECT_LE(s.upper_bound - s.lower_bound, 1e-6);
  EXPECT_LE(s.upper_bound_without_god - s.lower_bound_without_god, 1e-6);
  EXPECT_GE(s.start, s.lower_bound - 1e-7);
  EXPECT_LE(s.start, s.upper_bound + 1e-12);
  EXPECT_GE(s.start - s.start_without_god, 0.0);
  EXPECT_GT(s.start - s.start_without_god, 0.01);
  // The initiative: the start value is the average of the two orders when God is disabled.
  EXPECT_NEAR(s.start_without_god, 0.5 * (s.david_first_without_god + s.goliath_first_without_god),
              1e-12);
  EXPECT_TRUE(s.nontermination_computed);
  EXPECT_LE(s.nontermination_upper, 1e-6);
  for (const PassReport& p : s.passes) EXPECT_TRUE(p.certified) << p.pass << " " << p.layer;
}

TEST(DuelSolver, SimulatedOptimalGamesAgreeWithTheSolvedValue) {
  const DuelSolution& solution = small_solution();
  const DuelGame& game = solution.game();
  const std::string file = temp_path("sim.sol");
  solution.save(file);
  const AgentSpec spec = parse_agent_spec("solver:file=" + file);
  auto david = make_duel_solver_agent(game, spec);
  auto goliath = make_duel_solver_agent(game, spec);
  // 4000 games: the standard error of a win rate near 0.3 is 0.0072; the tolerance is 4 of them.
  const int games = 4000;
  int wins = 0;
  for (int i = 0; i < games; ++i) {
    const GameResult r = play_game(game, *david, *goliath, 9000 + static_cast<std::uint64_t>(i));
    ASSERT_TRUE(r.error.empty()) << r.error;
    ASSERT_NE(r.end_reason, "ply limit");
    wins += r.winner == kDavid;
  }
  const double p = solution.summary().start;
  EXPECT_NEAR(static_cast<double>(wins) / games, p, 4 * std::sqrt(p * (1 - p) / games));
}

TEST(DuelSolver, AgentReportsExactValuesForHints) {
  const DuelSolution& solution = small_solution();
  const std::string file = temp_path("hints.sol");
  solution.save(file);
  auto agent = make_duel_solver_agent(solution.game(), parse_agent_spec("solver:file=" + file));
  DuelState s = solution.game().initial_state();
  solution.game().apply_chance(s, act::dice_pair(6, 1));  // David wins the initiative...
  ASSERT_EQ(s.phase, Phase::kGod);
  agent->act(s);
  const Analysis a = agent->last_analysis();
  EXPECT_TRUE(a.exact);
  ASSERT_EQ(a.actions.size(), 3u);                                     // accept, re-roll either die
  EXPECT_NEAR(a.value, 2 * solution.summary().david_first - 1, 1e-9);  // ...and keeps it
  EXPECT_EQ(a.actions.front().action, act::kAccept);
}

TEST(DuelSolver, SolutionFilesRoundTripAndRefuseOtherRulesVersionsAndCorruption) {
  const DuelSolution& solution = small_solution();
  const std::string file = temp_path("roundtrip.sol");
  solution.save(file);
  const DuelGame& game = solution.game();
  const DuelSolution loaded = DuelSolution::load(file, &game);
  EXPECT_TRUE(loaded.complete());
  EXPECT_EQ(loaded.values(), solution.values());
  EXPECT_EQ(loaded.summary().start, solution.summary().start);

  DuelRules other = small_rules();
  other.david_shooting = 4;
  const DuelGame other_game(other);
  const std::string other_rules =
      error_message<RulesError>([&] { DuelSolution::load(file, &other_game); });
  EXPECT_NE(other_rules.find("david_shooting"), std::string::npos) << other_rules;
  EXPECT_THROW(make_duel_solver_agent(other_game, parse_agent_spec("solver:file=" + file)),
               RulesError);
  EXPECT_THROW(make_duel_solver_agent(game, parse_agent_spec("solver")), OptionError);
  EXPECT_THROW(make_duel_solver_agent(game, parse_agent_spec("solver:file=" + file + ",depth=3")),
               OptionError);

  std::string bytes = read_file(file);
  std::string corrupt = bytes;
  corrupt[corrupt.size() / 2] ^= 0x5a;  // a flipped byte among the values: the checksum catches it
  write_file_atomic(temp_path("corrupt.sol"), corrupt);
  EXPECT_THROW(DuelSolution::load(temp_path("corrupt.sol")), FileFormatError);
  write_file_atomic(temp_path("truncated.sol"), bytes.substr(0, bytes.size() / 3));
  EXPECT_THROW(DuelSolution::load(temp_path("truncated.sol")), FileFormatError);
  std::string version = bytes;
  version[8 + std::string("sling-duel-solution").size()] = 99;  // the version follows the magic
  write_file_atomic(temp_path("version.sol"), version);
  const std::string other_version =
      error_message<FileFormatError>([] { DuelSolution::load(temp_path("version.sol")); });
  EXPECT_NE(other_version.find("version"), std::string::npos) << other_version;
  // Version 4, the format before the checkpoint mark (the byte after the version), is still read.
  std::string version4 = bytes;
  const std::size_t version_at = 8 + std::string("sling-duel-solution").size();
  version4[version_at] = 4;
  // (and before the certificate of version 6: two flags and two empty strings before the values)
  version4.erase(version4.size() - 16 - 8 * solution.values().size() - 18, 18);
  version4.erase(version_at + 4, 1);
  write_file_atomic(temp_path("version4.sol"), version4);
  const DuelSolution old = DuelSolution::load(temp_path("version4.sol"), &game);
  EXPECT_TRUE(old.complete());
  EXPECT_EQ(old.values(), solution.values());
  write_file_atomic(temp_path("garbage.sol"), "not a solution");
  EXPECT_THROW(DuelSolution::load(temp_path("garbage.sol")), FileFormatError);
  EXPECT_THROW(DuelSolution::load(temp_path("missing.sol")), FileFormatError);
}

TEST(DuelSolver, RefusesATurnCap) {
  DuelRules r = small_rules();
  r.turn_cap = 50;
  EXPECT_THROW(solve_duel(DuelGame(r)), RulesError);
}

TEST(DuelSolver, OnlyTheLeftRightMirrorMapsBothLatticesOntoThemselves) {
  // The symmetry the solver uses: x -> mirror for both figures keeps the rules and the start.
  const DuelGame game;
  const DuelIndex index(game);
  const int dc = game.lattice_width(kDavid), gc = game.lattice_width(kGoliath);
  for (int x = 0; x < dc; ++x) {
    EXPECT_EQ(game.centre_x(kDavid, x) + game.centre_x(kDavid, dc - 1 - x),
              30 * DuelGame::kUnitsPerCm);
  }
  for (int x = 0; x < gc; ++x) {
    EXPECT_EQ(game.centre_x(kGoliath, x) + game.centre_x(kGoliath, gc - 1 - x),
              30 * DuelGame::kUnitsPerCm);
  }
  // The half-turn (and so the quarter turns and diagonal reflections) does not: a David row
  // centre reflected through the board's centre is not a David row centre.
  const int reflected = 30 * DuelGame::kUnitsPerCm - game.centre_y(kDavid, 0);
  bool found = false;
  for (int y = 0; y < game.lattice_height(kDavid); ++y)
    found |= game.centre_y(kDavid, y) == reflected;
  EXPECT_FALSE(found);
  const DuelState start = game.initial_state();
  const std::size_t p = index.pair(start.david_x, start.david_y, start.goliath_x, start.goliath_y);
  EXPECT_EQ(index.mirror(p), p);
}

}  // namespace
}  // namespace sling::duel

namespace sling::duel {
namespace {

int kept_jumps(const SolveSummary& s) {
  int jumps = 0;
  for (const PassReport& p : s.passes) jumps += p.pass == "solve" ? p.extrapolations : 0;
  return jumps;
}

// The extrapolation (with its undo on a failed check) and strategy improvement (compiled rows,
// BiCGSTAB reductions) run in parallel; their results must not depend on the thread count either.
TEST(DuelSolver, SameValuesOnAnyThreadCount) {
  const DuelRules rules = small_rules();
  SolverOptions one, two;
  one.threads = 1;
  two.threads = 2;
  one.nontermination = two.nontermination = false;
  one.tolerance = two.tolerance = 1e-6;  // loose, so that strategy improvement has work to do
  one.policy_improvements = two.policy_improvements = 8;
  const DuelSolution a = solve_duel(DuelGame(rules), one);
  const DuelSolution b = solve_duel(DuelGame(rules), two);
  EXPECT_GT(kept_jumps(a.summary()), 0);
  EXPECT_GT(a.summary().improvements, 1);
  EXPECT_EQ(a.values(), b.values());
  EXPECT_EQ(a.summary().lower_bound, b.summary().lower_bound);
  EXPECT_EQ(a.summary().upper_bound, b.summary().upper_bound);
}

// The termination pass solves a linear system per layer by BiCGSTAB over the compiled rows of the
// layer (PolicyEvaluation): its compiling, products and reductions run in parallel, and the bound
// must not depend on the thread count.  Under the
// solved policies David wins with the solved value, so Goliath's win probability plus it is 1 less
// the games that never end: an evaluation that were wrong anywhere the start reaches would show up
// in the non-termination bound.
TEST(DuelSolver, TerminationBoundIsTheSameOnAnyThreadCountAndTight) {
  const DuelRules rules = small_rules();
  SolverOptions one, two;
  one.threads = 1;
  two.threads = 2;
  const SolveSummary a = solve_duel(DuelGame(rules), one).summary();
  const SolveSummary b = solve_duel(DuelGame(rules), two).summary();
  ASSERT_TRUE(a.nontermination_computed);
  EXPECT_EQ(a.goliath_win_lower, b.goliath_win_lower);
  EXPECT_GT(a.goliath_win_lower, 0.5);
  EXPECT_LE(a.nontermination_upper, 1e-8);
  EXPECT_NEAR(a.lower_bound + a.goliath_win_lower, 1.0, 1e-8);
  int termination_passes = 0;
  for (const PassReport& p : a.passes) {
    if (p.pass != "termination") continue;
    ++termination_passes;
    ASSERT_FALSE(p.max_change.empty());
    EXPECT_LE(p.max_change.back(), 1e-12) << p.layer;  // the residual after the refinement
  }
  EXPECT_EQ(termination_passes, 6);
}

// Extrapolated jumps are kept only while the layer stays a sub-solution, so the accelerated solve
// converges to the same least fixed point as plain value iteration.  (Its speed is measured by
// BM_SolveDuel in bench/duel_solver_bench.cpp: on boards this small the chase is short and the
// checks cost about what the jumps save.)
TEST(DuelSolver, ExtrapolationReachesTheSameValueAsPlainIteration) {
  DuelRules rules = small_rules();
  rules.board_cm = 20;
  SolverOptions plain, accelerated;
  plain.accelerate = false;
  plain.nontermination = accelerated.nontermination = false;
  const DuelSolution a = solve_duel(DuelGame(rules), plain);
  const DuelSolution b = solve_duel(DuelGame(rules), accelerated);
  EXPECT_EQ(kept_jumps(a.summary()), 0);
  EXPECT_GT(kept_jumps(b.summary()), 0);
  EXPECT_NEAR(a.summary().start, b.summary().start, 1e-10);
  EXPECT_NEAR(a.summary().start_without_god, b.summary().start_without_god, 1e-10);
  // Both brackets are certified and contain the other run's value.
  EXPECT_LE(b.summary().lower_bound, a.summary().start + 1e-12);
  EXPECT_GE(b.summary().upper_bound, a.summary().start - 1e-12);
}

// A loose tolerance stops the solve early, with values still below the least fixed point: without
// strategy improvement the bracket stays certified and contains the fully converged value, only
// wider.  Once the upper pass has certified, its further sweeps only lower the bound.
TEST(DuelSolver, ALooseToleranceGivesAWiderBracketThatStillHoldsTheValue) {
  DuelRules rules = small_rules();
  rules.board_cm = 20;
  SolverOptions tight, loose, untightened;
  tight.nontermination = loose.nontermination = untightened.nontermination = false;
  loose.tolerance = untightened.tolerance = 1e-9;
  untightened.upper_tightening_sweeps = 0;
  const SolveSummary a = solve_duel(DuelGame(rules), tight).summary();
  const SolveSummary b = solve_duel(DuelGame(rules), loose).summary();
  const SolveSummary c = solve_duel(DuelGame(rules), untightened).summary();
  for (const SolveSummary* s : {&b, &c}) {
    for (const PassReport& p : s->passes) EXPECT_TRUE(p.certified) << p.pass << " " << p.layer;
    EXPECT_LE(s->lower_bound, a.lower_bound);
    EXPECT_GE(s->upper_bound, a.upper_bound);
    EXPECT_LE(s->lower_bound, a.start);
    EXPECT_GE(s->upper_bound, a.start);
    EXPECT_LE(s->lower_bound_without_god, a.start_without_god);
    EXPECT_GE(s->upper_bound_without_god, a.start_without_god);
  }
  EXPECT_GT(b.upper_bound - b.lower_bound, a.upper_bound - a.lower_bound);
  // The same solve (the upper pass comes after it), so the same lower bound; tightening lowers
  // the upper one.
  EXPECT_EQ(b.lower_bound, c.lower_bound);
  EXPECT_LT(b.upper_bound, c.upper_bound);
  int tightening = 0;
  for (const PassReport& p : b.passes) tightening += p.tightening_sweeps;
  EXPECT_GT(tightening, 0);
  for (const PassReport& p : c.passes) EXPECT_EQ(p.tightening_sweeps, 0);
}

// Strategy improvement from a loose solve: each step is the value of David's greedy policy against
// Goliath's best response, so it rises and stays below the value; within a few steps per layer it
// reaches the fully converged solve's values, and the bracket is as tight as the tight solve's.
TEST(DuelSolver, StrategyImprovementFromALooseSolveReachesTheConvergedValue) {
  DuelRules rules = small_rules();
  rules.board_cm = 20;
  SolverOptions tight, loose, unimproved;
  tight.nontermination = loose.nontermination = unimproved.nontermination = false;
  loose.tolerance = unimproved.tolerance = 1e-5;
  tight.policy_improvements = loose.policy_improvements = 8;
  const SolveSummary a = solve_duel(DuelGame(rules), tight).summary();
  const SolveSummary b = solve_duel(DuelGame(rules), loose).summary();
  const SolveSummary c = solve_duel(DuelGame(rules), unimproved).summary();
  EXPECT_EQ(a.improvements, 1);  // from converged values the first step moves nothing
  EXPECT_GT(b.improvements, 1);
  EXPECT_LT(b.improvements, loose.policy_improvements);  // it stopped: converged
  EXPECT_EQ(c.improvements, 0);
  for (const PassReport& p : b.passes) EXPECT_TRUE(p.certified) << p.pass << " " << p.layer;
  // Every layer's improvement converged (|T x - x| <= 1e-13) and left a sub-solution up to the
  // rounding of its last evaluation, which the lower pass absorbs in a few sweeps.
  int improved_layers = 0;
  for (const PassReport& p : b.passes) {
    if (p.pass == "improve") {
      ++improved_layers;
      ASSERT_FALSE(p.max_change.empty());
      EXPECT_LE(p.max_change.back(), 1e-13) << p.layer;
    }
    if (p.pass == "lower") {
      EXPECT_LE(p.sweeps, 3) << p.layer;
    }
  }
  EXPECT_EQ(improved_layers, 6);
  EXPECT_NEAR(b.lower_bound, a.lower_bound, 1e-12);
  EXPECT_NEAR(b.lower_bound_without_god, a.lower_bound_without_god, 1e-12);
  EXPECT_LE(b.upper_bound - b.lower_bound, 1e-7);
  EXPECT_GT(c.upper_bound - c.lower_bound, 10 * (b.upper_bound - b.lower_bound));
  // a.start is itself a certified lower bound of the same value, so the two agree to rounding.
  EXPECT_LE(b.lower_bound, a.start + 1e-12);
  EXPECT_GE(b.upper_bound, a.start);
}

// The upper pass starts each layer from the undiscounted value of the pair of policies greedy on
// the solved values (docs/solver.md): both starts certify a bracket around the same value, the
// shaped one at its first start in every layer.  It lies above the solved values by about the
// discount times the remaining game's length, which the tightening sweeps nearly remove: its
// bracket is at most 1e-10 wider here (on the default board at pitch 2 it is half as wide, since
// the uniform margin must be retried ten times larger for the first layer).
TEST(DuelSolver, TheShapedUpperStartCertifiesAtTheFirstStart) {
  DuelRules rules = small_rules();
  rules.board_cm = 20;
  const DuelGame game(rules);
  SolverOptions shaped, uniform;
  shaped.nontermination = uniform.nontermination = false;
  shaped.tolerance = uniform.tolerance = 1e-6;
  shaped.policy_improvements = uniform.policy_improvements = 20;
  uniform.shaped_upper_start = false;
  const SolveSummary a = solve_duel(game, shaped).summary();
  const SolveSummary b = solve_duel(game, uniform).summary();
  EXPECT_EQ(a.lower_bound, b.lower_bound);  // the same solve: the upper pass comes after it
  auto upper_starts = [](const SolveSummary& s) {
    std::map<std::string, int> starts;
    for (const PassReport& p : s.passes) {
      EXPECT_TRUE(p.certified) << p.pass << " " << p.layer;
      if (p.pass == "upper") ++starts[p.layer];
    }
    return starts;
  };
  const auto starts_a = upper_starts(a), starts_b = upper_starts(b);
  EXPECT_EQ(starts_a.size(), 6u);
  for (const auto& [layer, starts] : starts_a) EXPECT_EQ(starts, 1) << layer;
  int shaped_evaluations = 0;
  for (const PassReport& p : a.passes) shaped_evaluations += p.pass == "upper-start";
  EXPECT_EQ(shaped_evaluations, 6);
  for (const PassReport& p : b.passes) EXPECT_NE(p.pass, "upper-start");
  EXPECT_EQ(starts_b.size(), 6u);
  EXPECT_LE(a.upper_bound, b.upper_bound + 1e-10);
  EXPECT_LE(a.upper_bound_without_god, b.upper_bound_without_god + 1e-10);
  EXPECT_LE(a.upper_bound - a.lower_bound, 1e-7);
  EXPECT_GE(a.upper_bound, b.upper_bound - 1e-7);  // both are bounds of one value
  EXPECT_GE(b.upper_bound, a.lower_bound);
}

// A run stopped early (one strategy-improvement step a layer, from a loose solve) is finished by
// a run that starts from its values: the same bracket as a run that converged in one go, and the
// first layer's solve starts near its end.  A start for another state space is refused.
TEST(DuelSolver, AWarmStartFromAnUnfinishedSolutionReachesTheConvergedBracket) {
  DuelRules rules = small_rules();
  rules.board_cm = 20;
  const DuelGame game(rules);
  SolverOptions direct, stopped, resumed;
  direct.nontermination = stopped.nontermination = resumed.nontermination = false;
  direct.tolerance = stopped.tolerance = resumed.tolerance = 1e-5;
  direct.policy_improvements = resumed.policy_improvements = 20;
  stopped.policy_improvements = 1;
  const SolveSummary a = solve_duel(game, direct).summary();
  const DuelSolution first = solve_duel(game, stopped);
  EXPECT_GT(first.summary().upper_bound - first.summary().lower_bound,
            10 * (a.upper_bound - a.lower_bound));
  resumed.start_values = &first.values();
  const SolveSummary b = solve_duel(game, resumed).summary();
  EXPECT_NEAR(b.lower_bound, a.lower_bound, 1e-12);
  EXPECT_NEAR(b.upper_bound, a.upper_bound, 1e-9);
  EXPECT_NEAR(b.lower_bound_without_god, a.lower_bound_without_god, 1e-12);
  // The resumed run starts from a certified lower bound, so its start value never falls.
  EXPECT_GE(b.lower_bound, first.summary().lower_bound);
  auto first_layer_sweeps = [](const SolveSummary& s) {
    for (const PassReport& p : s.passes) {
      if (p.pass == "solve" && p.layer == "no-god/no-kit") return p.sweeps;
    }
    return -1;
  };
  EXPECT_LT(first_layer_sweeps(b), first_layer_sweeps(a));
  const std::vector<double> wrong_size(first.values().size() + 1, 0.0);
  SolverOptions bad;
  bad.start_values = &wrong_size;
  EXPECT_THROW(solve_duel(game, bad), std::invalid_argument);
}

TEST(DuelSolver, ACheckpointIsNoSolutionAndContinuesToTheConvergedBracket) {
  DuelRules rules = small_rules();
  rules.board_cm = 20;
  const DuelGame game(rules);
  SolverOptions direct;
  direct.nontermination = false;
  direct.tolerance = 1e-5;
  direct.policy_improvements = 20;
  const SolveSummary a = solve_duel(game, direct).summary();
  // A run killed at its third checkpoint (after the first layer's solve and two of its steps).
  const std::string file = temp_path("checkpoint.sol");
  struct Killed {};
  int checkpoints = 0;
  SolverOptions killed = direct;
  killed.checkpoint_seconds = 0;
  killed.checkpoint = [&](const std::vector<double>& values, const SolveSummary& so_far) {
    DuelSolution(game, values, so_far, false).save(file);
    if (++checkpoints == 3) throw Killed{};
  };
  EXPECT_THROW(solve_duel(game, killed), Killed);
  const std::string refused =
      error_message<FileFormatError>([&] { DuelSolution::load(file, &game); });
  EXPECT_NE(refused.find("checkpoint"), std::string::npos) << refused;
  EXPECT_THROW(make_duel_solver_agent(game, parse_agent_spec("solver:file=" + file)),
               FileFormatError);
  const DuelSolution saved =
      DuelSolution::load(file, &game, DuelSolution::Accept::kSolutionOrCheckpoint);
  EXPECT_FALSE(saved.complete());
  SolverOptions resumed = direct;
  resumed.start_values = &saved.values();
  const SolveSummary b = solve_duel(game, resumed).summary();
  EXPECT_NEAR(b.lower_bound, a.lower_bound, 1e-12);
  EXPECT_NEAR(b.upper_bound, a.upper_bound, 1e-9);
  EXPECT_NEAR(b.lower_bound_without_god, a.lower_bound_without_god, 1e-12);
}

TEST(DuelSolver, TheSolveCommandChecksItsOutputsBeforeSolving) {
  const std::string rules = temp_path("cli_rules.json");
  write_file_atomic(rules, rules_to_json(small_rules()));
  const std::string unwritable = "/nonexistent-sling-dir/duel.sol";
  for (const std::string& args : {"solve duel --rules " + rules + " --out " + unwritable,
                                  "solve duel --rules " + rules + " --checkpoint " + unwritable +
                                      " --out " + temp_path("cli.sol")}) {
    const auto r = testing_support::run_sling(args);
    EXPECT_NE(r.status, 0) << args;
    EXPECT_EQ(testing_support::count_lines(r.output), 1) << args << ": " << r.output;
    EXPECT_NE(r.output.find("cannot write"), std::string::npos) << r.output;
  }
  // A checkpoint is written, refused as a solution, and continued with --start.
  const std::string checkpoint = temp_path("cli_checkpoint.sol");
  const auto first = testing_support::run_sling("solve duel --rules " + rules + " --checkpoint " +
                                                checkpoint + " --checkpoint-minutes 0 --out " +
                                                temp_path("cli.sol") + " --json");
  ASSERT_EQ(first.status, 0) << first.output;
  const auto refused = testing_support::run_sling("match duel --rules " + rules +
                                                  " --david solver:file=" + checkpoint +
                                                  " --goliath random --games 1");
  EXPECT_NE(refused.status, 0);
  EXPECT_NE(refused.output.find("checkpoint of an unfinished solve"), std::string::npos)
      << refused.output;
  const auto continued =
      testing_support::run_sling("solve duel --rules " + rules + " --start " + checkpoint +
                                 " --out " + temp_path("cli.sol") + " --json");
  EXPECT_EQ(continued.status, 0) << continued.output;
}

// A solve cut short (two sweeps a pass) cannot certify its upper bound: the summary, the file,
// the solve command, the solver agent and the God study all say so, and the command's exit status
// is 3.
TEST(DuelSolver, AnUncertifiedBracketIsReportedRecordedAndRefused) {
  const DuelGame game(small_rules());
  SolverOptions options;
  options.max_sweeps = 2;
  options.nontermination = false;
  const DuelSolution cut = solve_duel(game, options);
  EXPECT_FALSE(cut.certified());
  EXPECT_FALSE(cut.summary().certified_without_god);
  EXPECT_EQ(cut.summary().failed_layer, "no-god/no-kit");
  EXPECT_EQ(cut.summary().failed_pass, "upper");
  EXPECT_NE(cut.certificate_problem().find("no-god/no-kit"), std::string::npos);
  EXPECT_TRUE(small_solution().certified());
  EXPECT_TRUE(small_solution().summary().certified_without_god);
  EXPECT_EQ(small_solution().certificate_problem(), "");

  const std::string file = temp_path("uncertified.sol");
  cut.save(file);
  const DuelSolution loaded = DuelSolution::load(file, &game);
  EXPECT_FALSE(loaded.certified());
  EXPECT_EQ(loaded.summary().failed_layer, "no-god/no-kit");
  const std::string refusal = error_message<OptionError>(
      [&] { make_duel_solver_agent(game, parse_agent_spec("solver:file=" + file)); });
  EXPECT_NE(refusal.find("not certified"), std::string::npos) << refusal;
  EXPECT_NE(refusal.find("allow_uncertified=1"), std::string::npos) << refusal;
  const auto allowed = make_duel_solver_agent(
      game, parse_agent_spec("solver:file=" + file + ",allow_uncertified=1"));
  EXPECT_NE(allowed->spec().find("allow_uncertified=1"), std::string::npos);

  const std::string rules = temp_path("uncertified_rules.json");
  write_file_atomic(rules, rules_to_json(small_rules()));
  const std::string out = temp_path("uncertified_cli.sol");
  const auto solve = testing_support::run_sling(
      "solve duel --rules " + rules + " --max-sweeps 2 --improvements 0 --skip-termination --out " +
      out + " --json");
  EXPECT_EQ(solve.status, 4) << solve.output;
  EXPECT_NE(solve.output.find("\"certified\": false"), std::string::npos) << solve.output;
  EXPECT_NE(solve.output.find("\"certified_without_god\": false"), std::string::npos);
  EXPECT_NE(solve.output.find("\"failed_layer\": \"no-god/no-kit\""), std::string::npos);
  EXPECT_NE(solve.output.find("sling: warning: the solution in " + out +
                              " is not certified: the upper pass failed on layer no-god/no-kit"),
            std::string::npos)
      << solve.output;
  const auto certified = testing_support::run_sling("solve duel --rules " + rules + " --out " +
                                                    temp_path("certified_cli.sol") + " --json");
  EXPECT_EQ(certified.status, 0) << certified.output;
  EXPECT_NE(certified.output.find("\"certified\": true"), std::string::npos);
  EXPECT_EQ(certified.output.find("warning"), std::string::npos) << certified.output;

  const auto match =
      testing_support::run_sling("match duel --rules " + rules + " --david solver:file=" + out +
                                 " --goliath random --games 1");
  EXPECT_NE(match.status, 0);
  EXPECT_NE(match.output.find("allow_uncertified=1"), std::string::npos) << match.output;
  const auto study =
      testing_support::run_sling("study god --solution " + out + " --out " +
                                 temp_path("uncertified_study") + " --games 1 --matchup-games 0");
  EXPECT_NE(study.status, 0);
  EXPECT_EQ(testing_support::count_lines(study.output), 1) << study.output;
  EXPECT_NE(study.output.find("--allow-uncertified"), std::string::npos) << study.output;
}

// A file of format version 5 (before the certificate was recorded) is still read; its certificate
// is inferred from the width of its brackets.
TEST(DuelSolver, AVersion5FileIsReadWithItsCertificateInferred) {
  const DuelSolution& solution = small_solution();
  const std::string file = temp_path("v6.sol");
  solution.save(file);
  std::string bytes = read_file(file);
  // Version 6 = version 5 + the certificate (two flags and two empty strings: 18 bytes) just
  // before the values (a 64-bit count, the doubles, a 64-bit checksum).
  const std::size_t values_at = bytes.size() - 16 - 8 * solution.values().size();
  bytes.erase(values_at - 18, 18);
  const std::uint32_t five = 5;
  const std::size_t version_at = 8 + std::string("sling-duel-solution").size();
  std::memcpy(bytes.data() + version_at, &five, sizeof five);
  const std::string old = temp_path("v5.sol");
  write_file_atomic(old, bytes);
  const DuelSolution loaded = DuelSolution::load(old, &solution.game());
  EXPECT_EQ(loaded.values(), solution.values());
  EXPECT_TRUE(loaded.certified());
  EXPECT_TRUE(loaded.summary().certified_without_god);
}

}  // namespace
}  // namespace sling::duel
