#pragma once
// Flattening of stand-off plateaus in the upper pass (docs/solver.md, "Plateaus").
//
// Where neither side gains by acting first (David waiting with a stone out of Goliath's reach, a
// two-handed Goliath waiting too), the exact value is flat, but the discounted solution the upper
// pass starts from slopes across the plateau by the discount's cost of each turn of the way.  The
// upper iteration then spreads the plateau's highest value over it only geometrically (an
// expectation over the movement dice of a maximum over the reachable disc), a few 1e-12 a sweep
// for hundreds of sweeps, and never reaches a sweep that raises nothing.  A margin added to every
// state cannot help: it leaves the slope where it was.
//
// The flattening raises each state still rising to the highest value among its neighbours (one
// lattice step of either figure, any slot of the same layer) that lies within a threshold above
// it, and repeats until nothing changes: every plateau becomes flat at its own top.  It is only a
// new start of the upper iteration, and any start is sound: the certificate is still a whole
// sweep that raises nothing (then T y <= y, and y bounds the value from above).  What it costs
// the bound is at most the plateau's slope, a few 1e-9.

#include <cstddef>
#include <vector>

#include "solvers/duel/lattice_tables.h"

namespace sling::duel::detail {

// Raises the rising states of `layer` (those above their value in `before`, the layer's values
// before the last sweep, indexed like layer 0) to the top of their plateau: the highest value
// within `threshold` above them among their neighbours, repeated until stable (Jacobi rounds, so
// the result does not depend on the thread count).  Keeps mirror images and the transposed copy
// of David's slots in step.  Returns how many states were raised.
std::size_t flatten_plateaus(const LatticeTables& lattice, double* values, double* transposed,
                             int layer, const std::vector<double>& before, double threshold);

}  // namespace sling::duel::detail
