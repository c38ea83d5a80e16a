// The capped duel's exact solver (docs/solver.md, "The capped duel"): its values against an
// independent exhaustive expectimax of DuelGame with the turn counter in the state, its turn
// formulas against DuelGame at every declare state, the cap's monotonicity and convergence, the
// thread count, the keyframes, and the capped solution file.

#include <unistd.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <string>
#include <unordered_map>
#include <vector>

#include "agents/duel_solver_agent.h"
#include "engine/core/errors.h"
#include "engine/core/io.h"
#include "experiments/play_game.h"
#include "solvers/duel/capped_solve.h"
#include "solvers/duel/solver.h"
#include "tests/run_sling.h"

namespace sling::duel {
namespace {

// A small board with a coarse lattice: every test here runs in seconds.
DuelRules small_rules(int pitch, int cap) {
  DuelRules r;
  r.board_cm = 16;
  r.pitch_cm = pitch;
  r.turn_cap = cap;
  return r;
}

CappedDuelSolution solve(const DuelRules& rules, CappedObjective objective, int threads = 2,
                         int keyframe_every = 10) {
  CappedOptions options;
  options.threads = threads;
  options.keyframe_every = keyframe_every;
  return solve_capped_duel(DuelGame(rules), objective, options);
}

std::string temp_path(const std::string& name) {
  return ::testing::TempDir() + "sling_duel_capped_" + std::to_string(::getpid()) + "_" + name;
}

template <class Error, class F>
std::string error_message(const F& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

struct StateHash {
  std::size_t operator()(const DuelState& s) const { return DuelGame::hash(s); }
};

// Every state reachable from `root` with its turn counter (which the cap reads), as an explicit
// graph solved by plain value iteration: the turn counter makes it acyclic but for the
// initiative's ties, which iteration settles.  It shares nothing with the solver but DuelGame.
double exhaustive_expectimax(const DuelGame& game, const DuelState& root, double draw,
                             std::size_t* node_count) {
  struct Node {
    Player player;
    double terminal = 0;
    std::vector<std::pair<std::uint32_t, double>> next;
  };
  std::vector<Node> nodes;
  std::vector<DuelState> states;
  std::unordered_map<DuelState, std::uint32_t, StateHash> ids;
  auto id_of = [&](const DuelState& s) {
    const auto [it, inserted] = ids.emplace(s, static_cast<std::uint32_t>(states.size()));
    if (inserted) states.push_back(s);
    return it->second;
  };
  id_of(root);
  for (std::size_t i = 0; i < states.size(); ++i) {
    const DuelState s = states[i];
    Node node;
    node.player = game.current_player(s);
    if (game.is_terminal(s)) {
      node.terminal = s.winner == kDavid ? 1.0 : s.winner == kGoliath ? 0.0 : draw;
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
  for (int sweep = 0; sweep < 100000; ++sweep) {
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
        for (const auto& [to, p] : n.next)
          v = n.player == kDavid ? std::max(v, value[to]) : std::min(v, value[to]);
      }
      change = std::max(change, std::abs(v - value[k]));
      value[k] = v;
    }
    if (change == 0) break;
  }
  return value[0];
}

// The state where `first` declares the game's first turn (the initiative settled, God kept).
DuelState first_turn(const DuelGame& game, Side first) {
  DuelState s = game.initial_state();
  game.apply_chance(s, first == kDavid ? act::dice_pair(6, 1) : act::dice_pair(1, 6));
  if (s.phase == Phase::kGod) game.apply_action(s, act::kAccept);
  EXPECT_EQ(s.phase, Phase::kDeclare);
  EXPECT_EQ(s.actor, first);
  return s;
}

TEST(DuelCappedSolver, ValuesEqualAnIndependentExhaustiveExpectimax) {
  for (const CappedObjective objective : {CappedObjective::kScore, CappedObjective::kWin}) {
    const double draw = objective == CappedObjective::kScore ? 0.5 : 0.0;
    for (int cap = 1; cap <= 4; ++cap) {
      const CappedDuelSolution solution = solve(small_rules(4, cap), objective);
      const DuelGame& game = solution.game();
      const CappedSummary& s = solution.summary();
      std::size_t nodes = 0;
      EXPECT_NEAR(s.start.value, exhaustive_expectimax(game, game.initial_state(), draw, &nodes),
                  1e-12)
          << objective_name(objective) << " cap " << cap;
      EXPECT_NEAR(s.david_first.value,
                  exhaustive_expectimax(game, first_turn(game, kDavid), draw, &nodes), 1e-12);
      EXPECT_NEAR(s.goliath_first.value,
                  exhaustive_expectimax(game, first_turn(game, kGoliath), draw, &nodes), 1e-12);
      if (cap == 4) {
        EXPECT_GT(nodes, 10000u);
      }
      // Without God: the same rules with God disabled.
      DuelRules no_god = small_rules(4, cap);
      no_god.god_enabled = false;
      const DuelGame plain(no_god);
      EXPECT_NEAR(s.start_without_god.value,
                  exhaustive_expectimax(plain, plain.initial_state(), draw, &nodes), 1e-12);
      // The outcome's probabilities add up and give the value.
      for (const CappedOutcome& o :
           {s.start, s.david_first, s.goliath_first, s.start_without_god}) {
        EXPECT_NEAR(o.david_wins + o.draw + o.goliath_wins, 1.0, 1e-12);
        EXPECT_NEAR(o.david_wins + draw * o.draw, o.value, 1e-12);
        EXPECT_GE(o.david_wins, 0.0);
        EXPECT_GE(o.goliath_wins, 0.0);
      }
    }
  }
}

TEST(DuelCappedSolver, TurnFormulasAgreeWithDuelGameAtEveryDeclareState) {
  // At every declare state and count of turns left, the solver's value equals an expectimax over
  // DuelGame's own turn (its cap, the lost turn after a stone's daze, the behead) from the stored
  // values of the next turns: CappedDuelSolution::value recomputes the turn with DuelGame.
  const int cap = 5;
  const CappedDuelSolution solution = solve(small_rules(4, cap), CappedObjective::kScore, 2, 1000);
  const DuelGame& game = solution.game();
  const DuelIndex& index = solution.index();
  int checked = 0;
  DuelState s = game.initial_state();
  s.phase = Phase::kDeclare;
  s.roll = Roll::kNone;
  for (const int turns_left : {1, 2, 3, cap}) {
    const auto values = solution.values_at(turns_left);
    s.turn = static_cast<std::uint16_t>(cap - turns_left + 1);
    for (int flags = 0; flags < 128; ++flags) {
      for (int actor = 0; actor < 2; ++actor) {
        s.flags = static_cast<std::uint8_t>(flags);
        s.actor = static_cast<std::uint8_t>(actor);
        for_each_placement(game, s, [&] {
          const auto i = index.index_of(s);
          if (!i) return;
          EXPECT_NEAR((*values)[*i], solution.value(s), 1e-12)
              << turns_left << " turns left: " << game.state_to_string(s);
          ++checked;
        });
      }
    }
  }
  EXPECT_GT(checked, 5000);
}

TEST(DuelCappedSolver, UnderTheWinObjectiveALongerCapNeverHurtsDavidAndTendsToTheUncappedValue) {
  DuelRules rules = small_rules(3, 150);
  const CappedDuelSolution capped = solve(rules, CappedObjective::kWin, 2, 1000);
  const CappedSummary& s = capped.summary();
  ASSERT_EQ(s.start_by_cap.size(), 150u);
  for (std::size_t k = 1; k < s.start_by_cap.size(); ++k) {
    EXPECT_GE(s.start_by_cap[k].value, s.start_by_cap[k - 1].value);
    EXPECT_GE(s.start_by_cap_without_god[k].value, s.start_by_cap_without_god[k - 1].value);
  }
  // Every state, not only the start.
  const auto shorter = capped.values_at(40), longer = capped.values_at(41);
  for (std::size_t i = 0; i < shorter->size(); ++i) ASSERT_GE((*longer)[i], (*shorter)[i]);
  // The uncapped game's value is the limit from below: each cap's is a value of a game David wins
  // only sooner.
  rules.turn_cap = 0;
  const DuelSolution uncapped = solve_duel(DuelGame(rules));
  EXPECT_LE(s.start.value, uncapped.summary().upper_bound);
  EXPECT_NEAR(s.start.value, uncapped.summary().start, 2e-3);
  EXPECT_NEAR(s.start_without_god.value, uncapped.summary().start_without_god, 2e-3);
  EXPECT_GT(uncapped.summary().start - s.start_by_cap[19].value,
            10 * (uncapped.summary().start - s.start.value));
}

TEST(DuelCappedSolver, SameValuesOnAnyThreadCountAndKeyframesRecomputeTheTurnsBetween) {
  const DuelRules rules = small_rules(3, 12);
  const CappedDuelSolution one = solve(rules, CappedObjective::kScore, 1, 4);
  const CappedDuelSolution two = solve(rules, CappedObjective::kScore, 2, 4);
  ASSERT_EQ(one.keyframes().size(), 3u);
  for (std::size_t k = 0; k < one.keyframes().size(); ++k) {
    EXPECT_EQ(one.keyframes()[k].values, two.keyframes()[k].values);
    EXPECT_EQ(one.keyframes()[k].lost_turn, two.keyframes()[k].lost_turn);
  }
  for (std::size_t k = 0; k < 12; ++k) {
    EXPECT_EQ(one.summary().start_by_cap[k].value, two.summary().start_by_cap[k].value);
    EXPECT_EQ(one.summary().start_by_cap[k].goliath_wins,
              two.summary().start_by_cap[k].goliath_wins);
  }
  // A solution keeping every 4th turn recomputes the others from its float32 keyframes; one
  // keeping none recomputes every turn from the cap's draw: they agree to float rounding.
  const CappedDuelSolution none = solve(rules, CappedObjective::kScore, 2, 1000);
  EXPECT_TRUE(none.keyframes().empty());
  EXPECT_EQ(*one.values_at(3), *none.values_at(3));  // (below the first keyframe: both exact)
  for (const int k : {5, 9, 12}) {
    const auto a = one.values_at(k), b = none.values_at(k);
    double worst = 0;
    for (std::size_t i = 0; i < a->size(); ++i)
      worst = std::max(worst, std::abs((*a)[i] - (*b)[i]));
    EXPECT_LT(worst, 1e-6) << k;
    EXPECT_GT(worst, 0.0) << k;  // (the float32 rounding is there: the test can fail)
  }
}

TEST(DuelCappedSolver, FilesRoundTripAndRefuseCorruptTruncatedForeignAndOtherRules) {
  const CappedDuelSolution solution = solve(small_rules(4, 7), CappedObjective::kWin, 2, 3);
  const std::string file = temp_path("roundtrip.csol");
  solution.save(file);
  const DuelGame& game = solution.game();
  const CappedDuelSolution loaded = CappedDuelSolution::load(file, &game);
  EXPECT_EQ(loaded.objective(), CappedObjective::kWin);
  EXPECT_EQ(loaded.turn_cap(), 7);
  EXPECT_EQ(loaded.summary().start.value, solution.summary().start.value);
  EXPECT_EQ(loaded.summary().start_by_cap.size(), 7u);
  ASSERT_EQ(loaded.keyframes().size(), 2u);
  EXPECT_EQ(loaded.keyframes()[1].values, solution.keyframes()[1].values);
  EXPECT_EQ(*loaded.values_at(5), *solution.values_at(5));

  auto one_line = [](const std::string& message) {
    EXPECT_FALSE(message.empty());
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    return message;
  };
  const std::string bytes = read_file(file);
  std::string corrupt = bytes;
  corrupt[corrupt.size() / 2] ^= 0x5a;
  write_file_atomic(temp_path("corrupt.csol"), corrupt);
  EXPECT_NE(one_line(error_message<FileFormatError>([&] {
              CappedDuelSolution::load(temp_path("corrupt.csol"));
            })).find("checksum"),
            std::string::npos);
  for (const std::size_t keep : {bytes.size() - 1, bytes.size() / 2, std::size_t{40}}) {
    write_file_atomic(temp_path("truncated.csol"), bytes.substr(0, keep));
    one_line(error_message<FileFormatError>(
        [&] { CappedDuelSolution::load(temp_path("truncated.csol")); }));
  }
  std::string version = bytes;
  version[8 + std::string("sling-duel-capped-solution").size()] = 99;
  write_file_atomic(temp_path("version.csol"), version);
  EXPECT_NE(one_line(error_message<FileFormatError>([&] {
              CappedDuelSolution::load(temp_path("version.csol"));
            })).find("version"),
            std::string::npos);
  // Foreign files: an uncapped solution, text, nothing.
  DuelRules uncapped_rules = small_rules(4, 0);
  const DuelSolution uncapped = solve_duel(DuelGame(uncapped_rules));
  uncapped.save(temp_path("uncapped.sol"));
  EXPECT_NE(one_line(error_message<FileFormatError>([&] {
              CappedDuelSolution::load(temp_path("uncapped.sol"));
            })).find("without a turn cap"),
            std::string::npos);
  write_file_atomic(temp_path("garbage.csol"), "not a solution at all");
  one_line(
      error_message<FileFormatError>([&] { CappedDuelSolution::load(temp_path("garbage.csol")); }));
  one_line(
      error_message<FileFormatError>([&] { CappedDuelSolution::load(temp_path("missing.csol")); }));
  // The uncapped loader refuses a capped file too.
  one_line(error_message<FileFormatError>([&] { DuelSolution::load(file); }));
  // Other rules: another cap is another game.
  const DuelGame other(small_rules(4, 8));
  EXPECT_NE(one_line(error_message<RulesError>([&] {
              CappedDuelSolution::load(file, &other);
            })).find("turn_cap"),
            std::string::npos);
}

// Without the outcome split the values are the same to the bit (the split only rides along the
// same choices), the split is NaN and survives the file, and under the win objective David's win
// is the value itself.
TEST(DuelCappedSolver, ValueOnlySolveHasTheSameValuesWithoutTheSplit) {
  const DuelRules rules = small_rules(4, 9);
  for (const CappedObjective objective : {CappedObjective::kScore, CappedObjective::kWin}) {
    const CappedDuelSolution full = solve(rules, objective, 2, 3);
    CappedOptions options;
    options.keyframe_every = 3;
    options.outcomes = false;
    const CappedDuelSolution fast = solve_capped_duel(DuelGame(rules), objective, options);
    const CappedSummary &a = full.summary(), &b = fast.summary();
    ASSERT_EQ(b.start_by_cap.size(), 9u);
    for (std::size_t k = 0; k < 9; ++k) {
      EXPECT_EQ(a.start_by_cap[k].value, b.start_by_cap[k].value) << k;
      EXPECT_EQ(a.start_by_cap_without_god[k].value, b.start_by_cap_without_god[k].value) << k;
      EXPECT_TRUE(std::isnan(b.start_by_cap[k].draw)) << k;
      EXPECT_TRUE(std::isnan(b.start_by_cap[k].goliath_wins)) << k;
    }
    EXPECT_EQ(a.david_first.value, b.david_first.value);
    EXPECT_EQ(a.goliath_first_without_god.value, b.goliath_first_without_god.value);
    if (objective == CappedObjective::kWin) {
      EXPECT_EQ(a.start.david_wins, b.start.david_wins);
    } else {
      EXPECT_TRUE(std::isnan(b.start.david_wins));
    }
    ASSERT_EQ(full.keyframes().size(), fast.keyframes().size());
    for (std::size_t k = 0; k < full.keyframes().size(); ++k) {
      EXPECT_EQ(full.keyframes()[k].values, fast.keyframes()[k].values);
      EXPECT_EQ(full.keyframes()[k].lost_turn, fast.keyframes()[k].lost_turn);
    }
    const std::string path = temp_path("value_only.csol");
    fast.save(path);
    const CappedDuelSolution loaded = CappedDuelSolution::load(path);
    EXPECT_TRUE(std::isnan(loaded.summary().start.goliath_wins));
    EXPECT_EQ(loaded.summary().start.value, b.start.value);
    std::filesystem::remove(path);
  }
}

TEST(DuelCappedSolver, TheSolveCommandTakesTheCapAndRefusesTheUncappedOptions) {
  using testing_support::run_sling;
  const std::string out = temp_path("command.csol");
  const auto solved =
      run_sling("solve duel --turn-cap 6 --pitch 5 --objective win --json --out " + out);
  ASSERT_EQ(solved.status, 0) << solved.output;
  EXPECT_NE(solved.output.find("\"turn_cap\": 6"), std::string::npos) << solved.output;
  EXPECT_NE(solved.output.find("\"objective\": \"win\""), std::string::npos);
  const CappedDuelSolution loaded = CappedDuelSolution::load(out);
  EXPECT_EQ(loaded.turn_cap(), 6);
  EXPECT_EQ(loaded.objective(), CappedObjective::kWin);
  const auto refused = run_sling("solve duel --turn-cap 6 --pitch 5 --tolerance 1e-9 --out " + out);
  EXPECT_EQ(refused.status, 2) << refused.output;
  EXPECT_EQ(testing_support::count_lines(refused.output), 1) << refused.output;
  const auto stray = run_sling("solve duel --pitch 5 --objective win --out " + out);
  EXPECT_EQ(stray.status, 2) << stray.output;
  EXPECT_EQ(testing_support::count_lines(stray.output), 1) << stray.output;
  // --value-only: the split is null in JSON and "-" in text; without a cap it is refused.
  const auto fast = run_sling("solve duel --turn-cap 6 --pitch 5 --value-only --json --out " + out);
  ASSERT_EQ(fast.status, 0) << fast.output;
  EXPECT_NE(fast.output.find("\"draw\": null"), std::string::npos) << fast.output;
  const auto text =
      run_sling("solve duel --turn-cap 6 --pitch 5 --value-only --quiet --out " + out);
  ASSERT_EQ(text.status, 0) << text.output;
  EXPECT_NE(text.output.find("-         -         -"), std::string::npos) << text.output;
  EXPECT_EQ(text.output.find("nan"), std::string::npos) << text.output;
  const auto stray_fast = run_sling("solve duel --pitch 5 --value-only --out " + out);
  EXPECT_EQ(stray_fast.status, 2) << stray_fast.output;
}

TEST(DuelCappedSolver, TheSolverAgentPlaysCappedRulesAndItsGamesAgreeWithTheSolvedOutcome) {
  const DuelRules rules = small_rules(4, 10);
  const CappedDuelSolution solution = solve(rules, CappedObjective::kScore, 2, 4);
  const DuelGame& game = solution.game();
  const std::string file = temp_path("agent.csol");
  solution.save(file);
  const AgentSpec spec = parse_agent_spec("solver:file=" + file);
  auto david = make_duel_solver_agent(game, spec);
  auto goliath = make_duel_solver_agent(game, spec);
  ASSERT_NE(dynamic_cast<DuelCappedSolverAgent*>(david.get()), nullptr);
  // 1000 games: each result's frequency within 4 standard errors of the solved probability.
  const int games = 1000;
  int wins = 0, draws = 0;
  for (int i = 0; i < games; ++i) {
    const GameResult r = play_game(game, *david, *goliath, 7000 + static_cast<std::uint64_t>(i));
    ASSERT_TRUE(r.error.empty()) << r.error;
    wins += r.winner == kDavid;
    draws += r.winner == -1;
    if (r.winner == -1) {
      ASSERT_EQ(r.end_reason, "turn cap");
    }
  }
  const CappedOutcome& o = solution.summary().start;
  auto within = [&](double frequency, double p) {
    EXPECT_NEAR(frequency, p, 4 * std::sqrt(p * (1 - p) / games) + 1e-9);
  };
  within(static_cast<double>(wins) / games, o.david_wins);
  within(static_cast<double>(draws) / games, o.draw);
  EXPECT_GT(o.draw, 0.05);
  EXPECT_GT(o.david_wins, 0.05);

  // A capped file under uncapped rules and an uncapped one under capped rules: one-line errors.
  DuelRules uncapped = rules;
  uncapped.turn_cap = 0;
  const DuelGame uncapped_game(uncapped);
  const std::string wrong =
      error_message<SlingError>([&] { make_duel_solver_agent(uncapped_game, spec); });
  EXPECT_FALSE(wrong.empty());
  EXPECT_EQ(wrong.find('\n'), std::string::npos) << wrong;
  solve_duel(uncapped_game).save(temp_path("uncapped_agent.sol"));
  const std::string foreign = error_message<SlingError>([&] {
    make_duel_solver_agent(game,
                           parse_agent_spec("solver:file=" + temp_path("uncapped_agent.sol")));
  });
  EXPECT_NE(foreign.find("without a turn cap"), std::string::npos) << foreign;

  // `sling match` with capped rules.
  const std::string rules_file = temp_path("capped_rules.json");
  write_file_atomic(rules_file, game.rules_json());
  const auto match = testing_support::run_sling("match duel --rules " + rules_file +
                                                " --david solver:file=" + file +
                                                " --goliath solver:file=" + file + " --games 20");
  EXPECT_EQ(match.status, 0) << match.output;
}

}  // namespace
}  // namespace sling::duel
