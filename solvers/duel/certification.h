#pragma once
// Certification of a solve's bracket: a sub-solution from below, a pre-fixed point from above.

#include <string>
#include <vector>

#include "solvers/duel/lattice_tables.h"
#include "solvers/duel/solve_options.h"
#include "solvers/duel/solve_summary.h"
#include "solvers/duel/values.h"

namespace sling::duel::detail {

// What the passes of one solve share.
struct SolveContext {
  const LatticeTables& lattice;
  const std::vector<int>& layers;  // the layers solved, in order
  const SolverOptions& options;
  SolveSummary& summary;  // passes and sweeps are added to it
  double continuation;    // 1 - the discount
};

// Certifies a lower bound: from the estimate `v` minus a margin, Gauss-Seidel sweeps of the
// discounted operator until one lowers nothing.  The vector left satisfies v <= T v, and with
// a discount (T a contraction) that makes it a lower bound of T's fixed point, which lies below
// the undiscounted value.  A margin too small to certify within kCertificationSweeps is
// retried larger.
// Returns whether it certified; `v` holds the certified values.
// `layer_certified`, when given, receives whether each layer (in the order of context.layers)
// certified in the last attempt.
template <Mode M>
bool certify_lower(const SolveContext& context, const double* guide, std::vector<double>& v,
                   typename Ops<M>::T win, typename Ops<M>::T lose, const std::string& name,
                   std::vector<bool>* layer_certified = nullptr);

// 3. Upper bound: value iteration of T from above.  Start above x and sweep; once a whole
//    Gauss-Seidel sweep raises nothing, the vector it leaves is a pre-fixed point (T y <= y:
//    each value was computed from values at least as large as the final ones).  A pre-fixed
//    point bounds the least fixed point, the game's value, from above; and since T y <= y,
//    Goliath's policy greedy on y holds David's best response to at most y.  Further sweeps
//    only lower y and keep T y <= y, so the bound is then tightened.  The layers are
//    certified one by one (a layer reads only the layers before it); a layer whose start is
//    not high enough to certify within kCertificationSweeps is retried with a larger margin.
// Returns whether every layer certified; `y` holds the pre-fixed point, `layer_certified`
// whether each layer (in the order of context.layers) did.  `last_change` is each state's last
// change in the solve (the upper start's slack).  A layer that fails does not stop the pass: the
// layers that do not read it (the no-God layers, for a God layer) keep their certificate.
bool certify_upper(const SolveContext& context, const std::vector<double>& x,
                   const std::vector<float>& last_change, std::vector<double>& y,
                   std::vector<bool>& layer_certified);

}  // namespace sling::duel::detail
