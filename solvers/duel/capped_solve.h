#pragma once
// The entry point of the capped duel's solver (docs/solver.md, "The capped duel").

#include <functional>
#include <string>

#include "engine/duel/duel.h"
#include "solvers/duel/capped_solution.h"

namespace sling::duel {

struct CappedOptions {
  int threads = 2;  // TBB worker threads
  // Keep the values of every this many turns left in the solution (float32, canonical states
  // only); play recomputes the turns between from the keyframe below.
  int keyframe_every = 10;
  // True: carry Goliath's win probability under the optimal pair beside the objective's value, so
  // the summary splits every value into David's win, the draw and Goliath's win.  False: the
  // objective's value alone, about twice as fast (play and the keyframes need nothing more); the
  // split is then NaN (under the win objective David's win is the value itself).
  bool outcomes = true;
  std::function<void(const std::string&)> log;  // progress lines; may be empty
};

// Throws RulesError for rules the capped solver does not support: no turn cap, or a David
// movement that can be negative.
void check_capped_solvable(const DuelGame& game);

// Solves the duel under the rules' turn cap for `objective`: the values of every state at every
// count of turns left by backward induction (exact, no iteration), and the probabilities of a
// David win, a draw and a Goliath win under the optimal pair.
CappedDuelSolution solve_capped_duel(const DuelGame& game, CappedObjective objective,
                                     const CappedOptions& options = {});

}  // namespace sling::duel
