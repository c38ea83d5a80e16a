#pragma once
// A solved duel: its values, exact play anywhere, and the solution file.

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "engine/duel/duel.h"
#include "solvers/duel/index.h"
#include "solvers/duel/solve_summary.h"

namespace sling::duel {

class DuelSolution {
 public:
  // Version 6 records whether each bracket is certified; versions 4 (solutions only) and 5
  // (checkpoints marked) are still read, their certificate inferred from the bracket's width.
  static constexpr std::uint32_t kFormatVersion = 6;

  // A checkpoint (complete = false) holds the values of an unfinished solve: a sub-solution to
  // continue from, not a solution to play or study.
  DuelSolution(const DuelGame& game, std::vector<double> values, SolveSummary summary,
               bool complete = true);

  const DuelGame& game() const { return game_; }
  const DuelIndex& index() const { return index_; }
  const SolveSummary& summary() const { return summary_; }
  const std::vector<double>& values() const { return values_; }
  bool complete() const { return complete_; }
  // Whether the bracket of the game as the rules set it (with God when enabled) is a certified
  // result (SolveSummary::certified).
  bool certified() const { return summary_.certified; }
  // One line describing an uncertified solution (the layer, the bracket and its gap), for
  // warnings and refusals; empty for a certified one.
  std::string certificate_problem() const;

  // David's optimal win probability at any state (decision, chance or terminal): an exact
  // expectimax over the rest of the current turn with the stored values at the next turn's start.
  double value(const DuelState& s) const;
  // The value (David's win probability) after each legal action of a decision state, in the
  // order of DuelGame::legal_actions.
  std::vector<std::pair<Action, double>> action_values(const DuelState& s) const;
  // The optimal action for the side to move: David maximises, Goliath minimises; the first of
  // equal values wins.
  Action best_action(const DuelState& s) const;

  // Cereal binary with a header (magic, version, whether complete, rules JSON, sizes) and a
  // checksum.
  void save(const std::string& path) const;
  // The same file for values held elsewhere (a checkpoint of a running solve), without copying
  // them into a DuelSolution first.
  static void save(const std::string& path, const DuelGame& game, const std::vector<double>& values,
                   const SolveSummary& summary, bool complete);
  // Throws FileFormatError for a corrupted file or another version, RulesError when `expected`
  // is given and the file was solved for other rules.  A checkpoint is refused unless accepted.
  enum class Accept { kSolution, kSolutionOrCheckpoint };
  static DuelSolution load(const std::string& path, const DuelGame* expected = nullptr,
                           Accept accept = Accept::kSolution);

 private:
  double turn_value(const DuelState& s, bool root) const;
  double initiative_value(bool god) const;

  DuelGame game_;
  DuelIndex index_;
  std::vector<double> values_;
  SolveSummary summary_;
  bool complete_ = true;
};

}  // namespace sling::duel
