// The analysis of played games (experiments/analysis/, `sling analyse`), checked where the answer
// is known: Pig's exact solution and a small duel solved exactly.

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <string>

#include "agents/registry.h"
#include "engine/core/io.h"
#include "experiments/analysis/analysis_report.h"
#include "experiments/analysis/analysis_values.h"
#include "experiments/play_game.h"
#include "run_sling.h"
#include "solvers/duel/solver.h"
#include "solvers/pig/solver.h"
#include "svg_check.h"

namespace sling {
namespace {

// Luck and the decisions' losses explain the result's deviation from the start, game by game:
// result - start = luck(0) - loss(0) + loss(1), exactly for exact values.
void expect_reconciled(const GameAnalysis& a) {
  const double explained = a.totals[0].luck - a.totals[0].total_loss + a.totals[1].total_loss;
  EXPECT_NEAR(a.result - a.start, explained, 1e-9) << a.seed;
  EXPECT_NEAR(a.drift, 0.0, 1e-9) << a.seed;
  EXPECT_NEAR(a.totals[0].luck + a.totals[1].luck, 0.0, 1e-12);
  EXPECT_NEAR(a.totals[0].adjusted + a.totals[1].adjusted, 1.0, 1e-9);
}

TEST(PigAnalysis, OptimalDecisionsLoseNothingAndLuckExplainsTheResult) {
  const pig::PigGame game;
  const AnalysisValue<pig::PigGame> values = analysis_value(game, {});
  ASSERT_TRUE(values.exact);
  auto first = make_agent(game, "solver");
  auto second = make_agent(game, "solver");
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    const GameResult played = play_game(game, *first, *second, seed);
    const GameAnalysis a = analyse_record(game, played.record, values.value);
    EXPECT_TRUE(a.finished);
    for (const PlyAnalysis& p : a.plies) {
      if (p.side >= 0) {
        EXPECT_NEAR(p.loss, 0.0, 1e-12) << "seed " << seed << " ply " << p.ply;
      }
    }
    EXPECT_EQ(a.totals[0].errors() + a.totals[1].errors(), 0);
    EXPECT_NEAR(a.result - a.start, a.totals[0].luck, 1e-9);
    expect_reconciled(a);
  }
}

TEST(PigAnalysis, AKnownMistakeLosesItsExactAmount) {
  const pig::PigGame game;
  const pig::PigSolution solution = pig::PigSolution::solve(game.goal());
  // The first player rolls a 6, then holds at 6: the solution rolls there.
  GameRecord record{"pig", game.rules_json(), 1, {pig::kRoll, 6, pig::kHold}};
  const GameAnalysis a = analyse_record(game, record, analysis_value(game, {}).value);
  ASSERT_EQ(a.plies.size(), 3u);
  const PlyAnalysis& hold = a.plies[2];
  EXPECT_EQ(hold.side, 0);
  EXPECT_EQ(hold.text, "hold");
  EXPECT_EQ(hold.best_text, "roll");
  const double exact_loss = solution.roll_value(0, 0, 6) - solution.hold_value(0, 0, 6);
  EXPECT_GT(exact_loss, 0.01);
  EXPECT_NEAR(hold.loss, exact_loss, 1e-12);
  EXPECT_NEAR(hold.chosen, solution.hold_value(0, 0, 6), 1e-12);
  EXPECT_EQ(hold.error, classify_loss(exact_loss));
  // The 6 was lucky for the first player by exactly its value over the expected roll.
  const PlyAnalysis& six = a.plies[1];
  EXPECT_EQ(six.side, -1);
  EXPECT_NEAR(six.luck, solution.win_probability(0, 0, 6) - solution.roll_value(0, 0, 0), 1e-12);
  EXPECT_FALSE(a.finished);
  expect_reconciled(a);
}

TEST(PigAnalysis, MistakesOfWeakPlayersAreCountedAndStillReconcile) {
  const pig::PigGame game;
  const AnalysisValue<pig::PigGame> values = analysis_value(game, {});
  auto weak = make_agent(game, "random");
  auto solver = make_agent(game, "solver");
  std::vector<GameAnalysis> analyses;
  for (std::uint64_t seed = 1; seed <= 10; ++seed) {
    GameResult played = play_game(game, *weak, *solver, seed);
    played.record.agents = {"random", "solver"};
    analyses.push_back(analyse_record(game, played.record, values.value));
    expect_reconciled(analyses.back());
    EXPECT_GT(analyses.back().totals[0].errors(), 0);
    EXPECT_EQ(analyses.back().totals[1].errors(), 0);
  }
  const std::vector<PlayerSummary> players = player_summaries(analyses);
  ASSERT_EQ(players.size(), 2u);
  EXPECT_EQ(players[0].player, "random");
  EXPECT_EQ(players[0].games, 10);
  EXPECT_GT(players[0].totals.total_loss, 0.5);
  EXPECT_NEAR(players[1].totals.total_loss, 0.0, 1e-9);
  EXPECT_THROW(player_summaries(analyses, "nobody"), OptionError);
  EXPECT_NE(players_text(players, values.source).find("random: scored"), std::string::npos);
}

// The duel with an exact solution: decisions of the solver lose nothing, and the totals reconcile
// (God's decisions and mid-turn chance included).
TEST(DuelAnalysis, TheExactSolverLosesNothingAndTheTotalsReconcile) {
  duel::DuelRules rules;
  rules.board_cm = 16;
  rules.pitch_cm = 3;
  const duel::DuelGame game(rules);
  duel::SolverOptions options;
  options.threads = 2;
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "analysis";
  std::filesystem::create_directories(dir);
  const std::string file = (dir / "duel.sol").string();
  duel::solve_duel(game, options).save(file);
  AnalysisValueOptions value_options;
  value_options.solution_file = file;
  const AnalysisValue<duel::DuelGame> values = analysis_value(game, value_options);
  ASSERT_TRUE(values.exact) << values.source;
  auto solver = make_agent(game, "solver:file=" + file);
  auto heuristic = make_agent(game, "heuristic");
  int god_decisions = 0;
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    const GameResult played = play_game(game, *solver, *heuristic, seed);
    const GameAnalysis a = analyse_record(game, played.record, values.value);
    for (const PlyAnalysis& p : a.plies) {
      if (p.side == 0) {
        EXPECT_LT(p.loss, 1e-9) << "seed " << seed << " ply " << p.ply;
      }
      god_decisions += p.side == 0 && (p.text == "accept" || p.text.rfind("reroll", 0) == 0);
    }
    EXPECT_NEAR(a.result - a.start, a.totals[0].luck + a.totals[1].total_loss, 1e-9);
    expect_reconciled(a);
    const std::string svg = analysis_svg(a);
    EXPECT_EQ(testing_support::render_svg(svg, "duel-analysis"), "");
    const std::vector<std::string> problems = testing_support::svg_label_problems(svg, 10);
    EXPECT_TRUE(problems.empty()) << problems.front();
    EXPECT_NE(analysis_json(a).find("\"luck\""), std::string::npos);
  }
  EXPECT_GT(god_decisions, 0);  // God's question was rated like any decision
}

TEST(AnalyseCommand, AnalysesASaveAndRefusesCorruptRecordsInOneLine) {
  using testing_support::run_sling;
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "analyse-cli";
  std::filesystem::create_directories(dir);
  const std::string records = (dir / "games").string();
  const auto match =
      run_sling("match pig --first hold:20 --second random --games 3 --seed 2 --record " + records);
  ASSERT_EQ(match.status, 0) << match.output;
  const std::string game = records + "/game-000000.json";
  const std::string svg = (dir / "game.svg").string();
  const std::string json = (dir / "game.json").string();
  const auto one = run_sling("analyse " + game + " --svg " + svg + " --json " + json);
  EXPECT_EQ(one.status, 0) << one.output;
  EXPECT_NE(one.output.find("Values: the exact solution (goal 100) (exact)"), std::string::npos);
  EXPECT_NE(one.output.find("First (hold:20)"), std::string::npos) << one.output;
  EXPECT_EQ(testing_support::render_svg(read_file(svg), "pig-analysis"), "");
  EXPECT_NE(read_file(json).find("\"plies\""), std::string::npos);
  const auto alias = run_sling("analyze " + game);
  EXPECT_EQ(alias.status, 0);
  const auto players =
      run_sling("analyse " + records + "/game-000000.json " + records + "/game-000001.json " +
                records + "/game-000002.json --player random");
  EXPECT_EQ(players.status, 0) << players.output;
  EXPECT_NE(players.output.find("random: scored"), std::string::npos) << players.output;
  // Corrupt and illegal records: one line, non-zero, nothing written.
  const std::string corrupt = (dir / "corrupt.json").string();
  std::string text = read_file(game);
  write_file_atomic(corrupt, text.substr(0, text.size() / 2));
  const std::string out_svg = (dir / "never.svg").string();
  const auto bad = run_sling("analyse " + corrupt + " --svg " + out_svg);
  EXPECT_NE(bad.status, 0);
  EXPECT_EQ(testing_support::count_lines(bad.output), 1) << bad.output;
  EXPECT_FALSE(std::filesystem::exists(out_svg));
  const std::string illegal = (dir / "illegal.json").string();
  GameRecord record = load_record(game);
  record.history.insert(record.history.begin(), 17);  // a decision where the die is due
  save_record(illegal, record);
  const auto wrong = run_sling("analyse " + illegal);
  EXPECT_NE(wrong.status, 0);
  EXPECT_EQ(testing_support::count_lines(wrong.output), 1) << wrong.output;
  const auto missing = run_sling("analyse " + (dir / "none.json").string());
  EXPECT_NE(missing.status, 0);
  EXPECT_EQ(testing_support::count_lines(missing.output), 1) << missing.output;
}

}  // namespace
}  // namespace sling
