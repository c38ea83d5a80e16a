#pragma once
// The interpolated value function refined on the game's own lattice: a sub-solution below it,
// then sweeps of the exact turn operator (docs/search.md, "Refined values").
//
// Interpolated values (coarse_value.h) hold up a stand-off by themselves: on a plateau, where
// waiting another turn costs nothing, a David who waits keeps whatever value the interpolation
// gave him, so a greedy David waits for ever even where no exit from the plateau is worth that
// much.  Refinement removes every value that the game's own turns do not support:
//   1. Settle: Gauss-Seidel sweeps x <- min(x, c T x) with a discount 1 - c a turn (0.01), from
//      the interpolated values, until nothing falls by more than a tolerance.  A waiting loop
//      loses the discount each sweep, so a state keeps its value only where some line of play
//      that ends (a shot, a melee, a chase) is worth it.  The limit satisfies x <= c T x <= T x:
//      a sub-solution, so David's policy greedy on it wins at least x against any Goliath, and
//      x lies below the game's value everywhere.
//   2. Rise: up to `sweeps` Gauss-Seidel sweeps of the exact (1e-10-discounted) operator, never
//      lowering a value, until no value rises by more than `rise_tolerance`; from a sub-solution
//      each sweep leaves a sub-solution, closer to the value.
// Both work layer by layer, as the solver does (a layer reads only itself and finished layers).
// Cost: at pitch 3, 0.4 s on 2 threads; on the default board's 1 cm lattice about 66 s (492
// sweeps of 0.13 s: the movement discs read destination masks, disc_scan.h); a few percent of a
// solve of the same lattice.

#include <functional>
#include <stdexcept>
#include <string>

#include "engine/duel/duel.h"
#include "solvers/duel/solution.h"

namespace sling::duel {

class CoarseDuelValue;

struct RefinementOptions {
  double settle_discount = 0.01;                // discount a turn of the settling sweeps
  double settle_tolerance = 1e-6;               // settling stops when no value falls by more
  int sweeps = 20;                              // rising sweeps a layer after settling, at most
  double rise_tolerance = 0.0;                  // rising stops when no value rises by more
  int threads = 2;                              // TBB worker threads
  std::function<void(const std::string&)> log;  // progress lines; may be empty
  // Asked before every sweep; true stops the refinement with RefinementCancelled (a refinement in
  // the background whose agent is gone).  May be empty.
  std::function<bool()> cancelled;
};

struct RefinementCancelled : std::runtime_error {
  RefinementCancelled() : std::runtime_error("the refinement was cancelled") {}
};

// The refined values of `interpolated.game()`'s lattice (its own rules, uncapped), as an
// unfinished solution (DuelSolution::complete() is false: a sub-solution, not certified) whose
// summary holds the refined start values.
DuelSolution refine_interpolated_values(const CoarseDuelValue& interpolated,
                                        const RefinementOptions& options = {});

}  // namespace sling::duel
