#pragma once
// The God study: "when should David invoke God?", answered from an exact duel solution.
// write_god_study() plays optimal-versus-optimal games from the solution, records every God
// decision (kind of roll, dice, situation, the exact value of accepting and of each re-roll),
// draws heat maps of the solved values, plays a table of matchups between agents, and writes
// DIR/report.md with SVG figures.

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "solvers/duel/solver.h"

namespace sling::duel {

struct GodStudyOptions {
  int games = 100000;       // optimal-versus-optimal games for the God statistics
  int matchup_games = 200;  // games per matchup
  // A simulated game stops after this many plies (decisions and dice) and is reported as cut,
  // not as a loss.  Optimal play on the default board waits long in stand-offs: at pitch 1 the
  // mean is 66,000 plies and the longest of 1,500 games 4.3 million; a limit of 100,000 took
  // 2.3 points off David's simulated win rate there (docs/solver.md).
  std::int64_t max_plies = 20'000'000;
  // A game still running after this many plies is settled: stopped at its next decision and
  // scored at that position's exact value (David's optimal win probability there) instead of
  // 0 or 1.  Under optimal play the exact value is a martingale, so settled games leave the
  // expected win rate unchanged and only lower its variance; what settling loses is the God
  // decisions after the stop, which the report counts.  0 plays every game to its end (or to
  // max_plies).  On the default board optimal play stands off for tens of thousands of plies;
  // on the 3 cm lattice no game of 100,000 lasted 5,000.
  std::int64_t settle_plies = 5'000;
  std::vector<std::string> agents = {"solver", "heuristic", "mcts:iterations=1000", "random"};
  std::uint64_t seed = 1;
  int threads = 2;
  std::string solution_file;  // the file the `solver` agents load (and the report cites)
  // Study a solution whose bracket is not certified: the solver agents accept it and the report
  // says so at the top.
  bool allow_uncertified = false;
  // Progress lines (the stages, and every tenth of the games), when set.
  std::function<void(const std::string&)> log;
};

// Statistics of the God decisions of one kind of roll in optimal play.
struct RollStudy {
  std::int64_t offered = 0;   // God decisions met (God still available after this roll)
  std::int64_t rerolled = 0;  // of which optimal play re-rolled
  double gain = 0;            // summed exact gain of the re-rolls (win probability)
};

struct GodStudyResult {
  int games = 0;
  int david_wins = 0;
  int cut_games = 0;         // games stopped at max_plies (neither side had won)
  int settled_games = 0;     // games settled at their exact value after settle_plies
  double settled_value = 0;  // the sum of those exact values (David's win probability)
  // Where the settled games stood: the edge-to-edge distance between the figures (cm) and the
  // layer (God available, Goliath's kit), each settled game counted once.
  std::vector<double> settled_distance_cm;
  int settled_with_god = 0, settled_with_shield = 0, settled_with_javelin = 0,
      settled_david_has_stone = 0;
  double mean_plies = 0;       // of the games that ended (decisions and dice)
  std::int64_t max_plies = 0;  // the longest game that was not settled
  int god_used_games = 0;
  std::vector<RollStudy> by_roll;         // indexed by Roll
  std::vector<std::int64_t> use_by_turn;  // God uses by the turn they happened in
};

// Writes DIR/report.md and DIR/*.svg; returns the optimal-play statistics.
GodStudyResult write_god_study(const DuelSolution& solution, const GodStudyOptions& options,
                               const std::string& out_dir);

}  // namespace sling::duel
