#pragma once
// A pass: sweeps of one or more layers until a stopping rule (solve, or certify from below or from
// above), with extrapolation and per-layer reports.

#include <chrono>
#include <functional>
#include <string>
#include <vector>

#include "solvers/duel/lattice_tables.h"
#include "solvers/duel/solve_options.h"
#include "solvers/duel/solve_summary.h"
#include "solvers/duel/values.h"

namespace sling::duel::detail {

using Clock = std::chrono::steady_clock;
inline double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// What a pass does with a layer.
enum class PassKind {
  kSolve,  // iterate until no value moves by more than the tolerance
  kLower,  // certify: iterate until a whole sweep lowers nothing; then x <= T x
  kUpper,  // certify: iterate until a whole sweep raises nothing; then T y <= y
};

struct PassOptions {
  std::string name;
  PassKind kind = PassKind::kSolve;
  double tolerance = 1e-13;
  int max_sweeps = 20000;
  double continuation = 1.0;     // each turn is discounted by this factor
  bool accelerate = false;       // extrapolate (solve passes; see kExtrapolationDepth)
  float* last_change = nullptr;  // when given, receives |change| of every state's last update
  int tightening_sweeps = 0;     // upper passes: sweeps allowed after certifying, to tighten
  bool flatten_plateaus = true;  // upper passes: raise stand-off plateaus to their top (plateau.h)
};

// Runs one pass over every layer in order; per-layer reports go to the summary.  `before_layer`
// may set a layer's starting values.
template <Mode M>
bool run_pass(const LatticeTables& lattice, const double* guide, double* eval,
              typename Ops<M>::T win, typename Ops<M>::T lose, const std::vector<int>& layers,
              const PassOptions& po, const SolverOptions& options, SolveSummary& summary,
              const std::function<void(int layer)>& before_layer = {});

// Records the start values of `values` (before and after the initiative roll, with God and
// without) in the summary.
void record_start_values(const LatticeTables& lattice, const double* values, bool god,
                         SolveSummary& summary);

}  // namespace sling::duel::detail
