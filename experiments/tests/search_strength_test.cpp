// Longer strength studies (label `experiment`; run with ./sling-test -L experiment).  Thresholds
// sit at least three standard deviations of the sample below the measured rates.

#include <gtest/gtest.h>

#include "engine/duel/duel.h"
#include "engine/pig/pig.h"
#include "experiments/match.h"

namespace sling {
namespace {

MatchOptions games(int count, std::uint64_t seed) {
  MatchOptions options;
  options.games = count;
  options.seed = seed;
  return options;
}

// 20,000 games a seat: optimal play against hold-at-20 (0.573 first, 0.509 second; sd 0.0035).
TEST(PigStrengthStudy, SolverAgainstHoldTwentyToThreeDecimals) {
  const pig::PigGame game;
  const MatchResult first = run_match(game, {"solver", "hold:20"}, games(20000, 1));
  const MatchResult second = run_match(game, {"hold:20", "solver"}, games(20000, 2));
  const double mean = (first.win_rate(0) + second.win_rate(1)) / 2;  // sd 0.0025
  EXPECT_NEAR(mean, 0.541, 4 * 0.0025);
}

// MCTS with 5,000 simulations as first player against the optimal policy: measured 53% over 100
// games (optimal play itself wins 53.06% as first).  Over 200 games the sd is 0.035; 0.42 is 3 sd
// below.
TEST(PigStrengthStudy, MctsNearlyMatchesTheSolver) {
  const pig::PigGame game;
  const MatchResult r = run_match(game, {"mcts:iterations=5000", "solver"}, games(200, 3));
  EXPECT_GT(r.win_rate(0), 0.42);
}

// Expectimax with 5,000 nodes as first player against hold:20: measured 57% over 200 games (the
// solver reaches 57.3%; hold:20 itself 53.5%).  Over 1,000 games the sd is 0.016.
TEST(PigStrengthStudy, ExpectimaxBeatsHoldTwenty) {
  const pig::PigGame game;
  const MatchResult r = run_match(game, {"expectimax:nodes=5000", "hold:20"}, games(1000, 4));
  EXPECT_GT(r.win_rate(0), 0.52);
}

// MCTS with 2,000 simulations as David against a random Goliath wins about half the games:
// measured 53.5% over these 400 games (95% interval 48.6% to 58.3%; 52% and 48% over 100 games of
// other seeds), so a threshold of 50% was a coin flip.  0.46 is 3 sd (0.025) below; that MCTS
// does far better than a random David is pinned by the default suite (match_strength_test.cpp).
// A clear margin over the random Goliath needs more than 2,000 simulations (docs/search.md).
TEST(DuelStrengthStudy, MctsDavidWinsAboutHalfAgainstRandomGoliath) {
  const duel::DuelGame game;
  const MatchResult r = run_match(game, {"mcts:iterations=2000", "random"}, games(400, 101));
  EXPECT_GT(r.win_rate(0), 0.46);
}

TEST(DuelStrengthStudy, MctsGoliathBeatsHeuristicDavid) {
  const duel::DuelGame game;
  const MatchResult r = run_match(game, {"heuristic", "mcts:iterations=2000"}, games(100, 78));
  EXPECT_GT(r.win_rate(1), 0.5);
}

}  // namespace
}  // namespace sling
