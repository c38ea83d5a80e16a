#pragma once
// Reduced-rank extrapolation of a layer's value iteration.

#include <vector>

#include "solvers/duel/lattice_tables.h"

namespace sling::duel::detail {

// Reduced-rank extrapolation (RRE) over David's values of a layer (slots 0-3; Goliath's values are
// a function of David's).  It keeps the changes of the last depth + 1 sweeps, u_0 .. u_m, finds
// the weights xi (summing to 1) that minimise |sum xi_i u_i|, and proposes
// sum xi_i x_(i+1), the iterates' combination whose change cancels best: for a linear iteration
// this is a Krylov (GMRES-like) estimate of the fixed point that removes the slow modes that plain
// sweeps only shrink by their ratio each time.  Reductions run over fixed blocks summed in order,
// so the result does not depend on the thread count.
class RankExtrapolation {
 public:
  RankExtrapolation(const LatticeTables& lattice, int depth)
      : lattice_(lattice),
        depth_(depth),
        history_(static_cast<std::size_t>(depth + 1),
                 std::vector<double>(4 * lattice.index.pairs(), 0.0)) {}

  // Where the next sweep writes David's changes.
  double* next_change() { return history_[static_cast<std::size_t>(count_ % (depth_ + 1))].data(); }
  void recorded() { ++count_; }
  void restart() { count_ = 0; }
  bool ready() const { return count_ >= depth_ + 1; }

  // Coefficients c_j of the step sum_j c_j u_j from the latest iterate to the estimate; false
  // when the changes are degenerate (all zero).
  bool coefficients(std::vector<double>& c) const;
  // The change u_j (oldest first) at David state (slot, pair).
  double change(int j, std::size_t index) const {
    const int m = depth_ + 1;
    return history_[static_cast<std::size_t>((count_ - m + j) % m)][index];
  }
  int size() const { return depth_ + 1; }

 private:
  const LatticeTables& lattice_;
  int depth_;
  int count_ = 0;
  std::vector<std::vector<double>> history_;
};

// Moves David's values of the layer (slots 0-3) up by `factor` times the extrapolation's step
// where it is positive (clamped to 1).  Goliath's values are not extrapolated: they are a function
// of David's (a Goliath turn leads to David declaring) and the next sweep recomputes them.
void extrapolate(const LatticeTables& lattice, double* values, double* transposed,
                 const RankExtrapolation& rre, const std::vector<double>& c, int layer,
                 double factor);

}  // namespace sling::duel::detail
