// Danelaw's English that search (docs/strength.md, "The English"; issue 54, item 2): the same
// `strong` Danes meet each English player on the same game seeds, so that the Danes' win rates are
// paired game by game (the dice of game i are the same in every match; only the English differ).
// The English are measured on their side alone, against the strongest Danes there are.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "engine/danelaw/danelaw.h"
#include "experiments/match.h"

namespace sling {
namespace {

// The presets as play/play_agents.h resolves them (spelled out here as in
// danelaw_strength_test.cpp; DanelawPresets.MatchTheStrengthStudy keeps them equal).
constexpr const char* kHeuristic = "heuristic";
constexpr const char* kNormal = "planner:plans=8,samples=2,battle=0,english_plans=32";
constexpr const char* kStrong =
    "planner:plans=64,samples=4,battle=0,reply=1,endgame=4,english_endgame=1,endgame_battle=64,"
    "endgame_mcts=32000,endgame_mcts_transpositions=1,endgame_mcts_c=2,"
    "english_endgame_mcts_halves=4,danes_endgame_mcts=128000,danes_endgame_mcts_trees=2,"
    "danes_endgame_mcts_work=80000000";
constexpr int kGames = 400;
constexpr std::uint64_t kSeed = 54;

// Whether the Danes won each game of `kGames` between `strong` Danes and `english`.
std::vector<int> danish_wins(const char* english) {
  const danelaw::DanelawGame game;
  MatchOptions options;
  options.games = kGames;
  options.seed = kSeed;
  options.threads = 2;  // the machine's share; a match's games are the same on any count
  std::vector<int> won(kGames, 0);
  options.on_game = [&](int index, const GameResult& played) { won[index] = played.winner == 0; };
  const MatchResult result = run_match(game, {kStrong, english}, options);
  std::printf("strong Danes vs %s English: %d of %d\n", english, result.wins[0], result.games);
  return won;
}

// The cut in the Danes' win rate from English `before` to English `after` (positive: `after` holds
// out more often), and its standard error from the paired per-game differences.
struct Cut {
  double points = 0;
  double standard_error = 0;
};

Cut cut(const std::vector<int>& before, const std::vector<int>& after) {
  const double n = static_cast<double>(before.size());
  double sum = 0, squares = 0;
  for (std::size_t i = 0; i < before.size(); ++i) {
    const double d = before[i] - after[i];
    sum += d;
    squares += d * d;
  }
  const double mean = sum / n;
  const double variance = (squares - n * mean * mean) / (n - 1);
  Cut c{mean, std::sqrt(variance / n)};
  std::printf("cut %.1f points, standard error %.1f (95%% interval %.1f to %.1f)\n", 100 * mean,
              100 * c.standard_error, 100 * (mean - 1.96 * c.standard_error),
              100 * (mean + 1.96 * c.standard_error));
  return c;
}

// The claim: against `strong` Danes, `strong` English cut the Danes' win rate by at least
// 10 points compared with heuristic English.  On this fixed seed the cut must reach 10 points
// within one standard error of the 400 paired games, and be above zero by 1.96 of them (a real
// cut, not luck).
TEST(DanelawEnglishStudy, StrongEnglishCutStrongDanesWinsByTenPoints) {
  const Cut c = cut(danish_wins(kHeuristic), danish_wins(kStrong));
  EXPECT_GE(c.points, 0.10 - c.standard_error);
  EXPECT_GT(c.points - 1.96 * c.standard_error, 0.0);
}

// The presets climb on the English side: `normal` English hold out against `strong` Danes more
// often than the heuristic does, and `strong` English at least as often as `normal` (within one
// standard error of the paired games).
TEST(DanelawEnglishStudy, EnglishPresetsClimb) {
  const std::vector<int> heuristic = danish_wins(kHeuristic);
  const std::vector<int> normal = danish_wins(kNormal);
  const std::vector<int> strong = danish_wins(kStrong);
  const Cut normal_over_heuristic = cut(heuristic, normal);
  EXPECT_GT(normal_over_heuristic.points - 1.96 * normal_over_heuristic.standard_error, 0.0);
  const Cut strong_over_normal = cut(normal, strong);
  EXPECT_GE(strong_over_normal.points, -strong_over_normal.standard_error);
}

}  // namespace
}  // namespace sling
