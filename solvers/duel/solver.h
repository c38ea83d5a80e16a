#pragma once
// The exact solver of the duel (docs/solver.md).
//
// Values are stored only where a turn begins: "David declares" and "Goliath declares" states,
// indexed by (layer, slot, position pair).  Everything inside a turn (the dice, David's God
// decisions, the movement disc, a tied melee) is evaluated exactly from those values each sweep.
// The turn counter of DuelState is not part of the index: without a turn cap the game is
// stationary.  A game that never ends counts as no David win.
//
// The layers are the irreversible flags: God (available -> used) and Goliath's kit (shield and
// javelin -> shield -> neither); they are solved one after another, each by Gauss-Seidel value
// iteration from zero, accelerated by reduced-rank extrapolation whose jumps are kept only when
// the layer is still a sub-solution (x <= T x).  Strategy improvement follows: the values become
// those of David's policy greedy on them against Goliath's best response (policy iteration for
// Goliath, each pair of policies evaluated exactly by BiCGSTAB over the pair's compiled operator),
// until they stop moving; this is what reaches the value where a stand-off makes value iteration
// crawl.  Then the answer is certified by a bracket: the solved values, checked to be a
// sub-solution of the discounted game, bound the value of David's greedy policy against any
// Goliath from below; a vector y with T y <= y, found by value iteration from above, bounds the
// game's value and that of Goliath's policy greedy on y against David's best response from above.
//
// This header gathers the solver's public pieces: solve_options.h, solve_summary.h, index.h,
// solution.h and solve.h.  The rest of solvers/duel/ is the solver's inside (README.md there).

#include "solvers/duel/index.h"
#include "solvers/duel/solution.h"
#include "solvers/duel/solve.h"
#include "solvers/duel/solve_options.h"
#include "solvers/duel/solve_summary.h"
