#pragma once
// The exact solution of Pig by value iteration.
//
// P(i, j, k) is the probability that the player to move wins with banked score i, the opponent's j
// and turn total k, under optimal play by both.  Holding wins outright when i + k >= goal;
// otherwise
//   roll(i, j, k) = 1/6 (1 - P(j, i, 0)) + 1/6 sum_{f=2..6} P(i, j, k + f)
//   hold(i, j, k) = 1 - P(j, i + k, 0)
//   P(i, j, k)    = max(roll, hold)           for k > 0
//   P(i, j, 0)    = roll(i, j, 0)
// Rolling dominates holding at turn total 0: a 1 gives exactly the state that holding would, and
// every other face only adds points.  Excluding that pass keeps the system a contraction.
//
// States are solved in decreasing order of banked score sum s = i + j: holding with k > 0 reaches a
// larger sum, already solved, so only the pairs (i, j) and (j, i) of sum s refer to each other.
// Each partition is solved by Gauss-Seidel sweeps (a sweep walks k downwards for each pair) until
// the largest change is below 1e-14.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "engine/pig/pig.h"

namespace sling::pig {

class PigSolution {
 public:
  static constexpr int kFormatVersion = 1;
  static constexpr int kMaxSolvableGoal = 250;  // 250^3 / 2 doubles = 62 MB

  PigSolution() = default;

  // Solves the game to the given goal (1..kMaxSolvableGoal); throws RulesError outside that.
  static PigSolution solve(int goal);

  int goal() const { return goal_; }
  // The first player's win probability from the initial state.
  double first_player_win_probability() const { return win_probability(0, 0, 0); }

  // Win probability of the player to move at a decision with scores (mine, theirs) and turn total.
  double win_probability(int mine, int theirs, int turn_total) const {
    if (mine + turn_total >= goal_) return 1.0;
    return win_[index(mine, theirs, turn_total)];
  }
  double roll_value(int mine, int theirs, int turn_total) const;
  double hold_value(int mine, int theirs, int turn_total) const {
    if (mine + turn_total >= goal_) return 1.0;
    if (turn_total == 0) return 1.0 - win_probability(theirs, mine, 0);
    return 1.0 - win_probability(theirs, mine + turn_total, 0);
  }
  // The optimal action at a decision state of a game with this goal.
  Action best_action(const PigState& state) const;

  // A versioned cereal binary file: magic, version, goal, then the value and policy tables.
  std::string to_binary() const;
  static PigSolution from_binary(std::string_view bytes);  // throws FileFormatError
  void save(const std::string& path) const;
  static PigSolution load(const std::string& path);

 private:
  std::size_t index(int mine, int theirs, int turn_total) const {
    return row_start_[mine] + static_cast<std::size_t>(theirs) * (goal_ - mine) + turn_total;
  }
  void build_index();

  int goal_ = 0;
  std::vector<std::size_t> row_start_;  // first index of each banked score `mine`
  std::vector<double> win_;             // P(i, j, k) for i, j < goal, k < goal - i
  std::vector<std::uint8_t> roll_;      // 1 where rolling is optimal
};

}  // namespace sling::pig
