// Danelaw's presets (docs/strength.md, "Danelaw"): paired matches, each pair one game with A as the
// Danes and one with B as the Danes on the same game seed (common dice).  These encode the targets;
// docs/strength.md reports what they measured.

#include <gtest/gtest.h>

#include <cmath>

#include "engine/danelaw/danelaw.h"
#include "experiments/match.h"

namespace sling {
namespace {

// The presets as play/play_agents.h resolves them (experiments sit below play/, so they are
// spelled out here; DanelawPresets.MatchTheStrengthStudy in the default suite keeps them equal).
constexpr const char* kEasy = "heuristic:blunder=0.1";
constexpr const char* kHeuristic = "heuristic";
constexpr const char* kNormal = "planner:plans=8,samples=2,battle=0,english_plans=32";
constexpr const char* kStrong =
    "planner:plans=64,samples=4,battle=0,reply=1,endgame=4,english_endgame=1,endgame_battle=64,"
    "endgame_mcts=32000,endgame_mcts_transpositions=1,endgame_mcts_c=2,"
    "english_endgame_mcts_halves=4,danes_endgame_mcts=128000,danes_endgame_mcts_trees=2,"
    "danes_endgame_mcts_work=80000000";

struct Paired {
  int wins = 0, losses = 0, games = 0;
  double score() const { return static_cast<double>(wins) / games; }
  // Likelihood of superiority from the decisive games (normal approximation).
  double los() const {
    return 0.5 * (1 + std::erf((wins - losses) / std::sqrt(2.0 * (wins + losses))));
  }
};

Paired paired(const char* a, const char* b, int pairs, std::uint64_t seed) {
  const danelaw::DanelawGame game;
  MatchOptions options;
  options.games = pairs;
  options.seed = seed;
  // One thread: the study shares its machine, and a match's result is the same on any count.
  options.threads = 1;
  const MatchResult a_danes = run_match(game, {a, b}, options);
  const MatchResult b_danes = run_match(game, {b, a}, options);
  Paired p;
  p.wins = a_danes.wins[0] + b_danes.wins[1];
  p.losses = a_danes.wins[1] + b_danes.wins[0];
  p.games = 2 * pairs;
  std::printf("%s vs %s: %d-%d of %d, score %.3f, LOS %.4f\n", a, b, p.wins, p.losses, p.games,
              p.score(), p.los());
  return p;
}

TEST(DanelawStrengthStudy, NormalBeatsEasy) {
  EXPECT_GE(paired(kNormal, kEasy, 200, 1).los(), 0.99);
}

TEST(DanelawStrengthStudy, StrongBeatsNormal) {
  EXPECT_GE(paired(kStrong, kNormal, 200, 2).los(), 0.99);
}

TEST(DanelawStrengthStudy, StrongScoresSixtyPercentAgainstTheHeuristic) {
  EXPECT_GE(paired(kStrong, kHeuristic, 200, 3).score(), 0.60);
}

}  // namespace
}  // namespace sling
