#pragma once
// Strategy improvement of a layer, and the evaluation of the pair of policies greedy on a guide.

#include <functional>
#include <vector>

#include "solvers/duel/lattice_tables.h"
#include "solvers/duel/solve_options.h"
#include "solvers/duel/solve_summary.h"
#include "solvers/duel/values.h"

namespace sling::duel::detail {

// Strategy improvement for one layer (Hoffman-Karp), from a sub-solution x of the discounted T
// (the solve's values): each step makes David's policy sigma greedy on x and replaces x by
// sigma's value against Goliath's best response, found by policy iteration for Goliath (each
// round evaluates the pair of policies by BiCGSTAB and makes Goliath greedy on the result).  Why it
// is safe: x <= T x = T_sigma x, so x lies below sigma's value against any Goliath, and that value
// lies below the game's; sigma's value v also satisfies v = T_sigma v <= T v, so every step
// leaves a sub-solution (up to the rounding of its last evaluation, which the lower pass absorbs
// in a sweep or two).  A response that does not settle within kResponseRounds is not Goliath's
// best, and its value could lie above the game's: the step is undone and the layer's improvement
// ends there.  Why it is fast where value iteration crawls: a stand-off that value iteration
// crosses one turn a sweep is a few slow eigenvalues of a fixed pair of policies, which a Krylov
// method removes in a few products.
//
// Between two steps, options.improvement_sweeps Gauss-Seidel sweeps of the solve (never lowering
// a value, so the iterate stays a sub-solution) carry each step's gains a few turns further
// before David's next policy is chosen: at pitch 2 with 10 sweeps the first layer took 6 steps
// and 639 products (sweeps included) instead of 8 and 911, god/no-kit 3 and 243 instead of 7 and
// 621.
//
// The round's evaluation starts from the current values (the discounted system has one solution)
// and is inexact far from the solution (PolicyEvaluation::set_forcing): only the policies it
// selects matter there.  The first round of a step starts from Goliath greedy on x too, so its
// starting residual is |T x - x|: when that is below kStrategyConverged, x is the fixed point.
// Both sides greedy at once (Newton's method) is not used: it makes both sides wait where each
// expected the other to move, the pair is worth nothing there, and the iteration cycles (measured
// on the default board at pitch 2 and 3, docs/solver.md).
// Returns the number of steps taken; report.certified says whether the layer converged.
// `after_step` is called after every step, when x is a sub-solution again (a checkpoint).
int improve_layer(const LatticeTables& lattice, std::vector<double>& x, std::vector<double>& sigma,
                  int layer, double continuation, int max_steps, const SolverOptions& options,
                  PassReport& report, const std::function<void()>& after_step);

// Evaluates the pair of policies greedy on `guide` (both fixed) into `values`'s layer: the
// probability of reaching `win` rather than `lose`, each turn continuing with `continuation`.
// Solved from zero (the least solution: zero where the pair's play never ends), then refined from
// the result.  Serves the upper pass's shaped start and the termination pass.
PassReport evaluate_pair(const LatticeTables& lattice, const std::vector<double>& guide,
                         std::vector<double>& values, int layer, double continuation, Pair win,
                         Pair lose, const char* pass);

}  // namespace sling::duel::detail
