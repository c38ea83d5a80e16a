#pragma once
// How a duel solve runs: the options of solve_duel and the route the commands take.

#include <functional>
#include <string>
#include <vector>

namespace sling::duel {

struct SolveSummary;

struct SolverOptions {
  int threads = 2;           // TBB worker threads
  double tolerance = 1e-13;  // a layer's iteration stops when no value moves by more
  // The solve pass counts each turn as ending without a David win with this probability.  It
  // makes the greedy David policy prefer finishing to stalling in positions whose undiscounted
  // values tie (a maximiser of a reachability objective can otherwise stall forever on a tie);
  // the values it costs (about discount times the game's length) are covered by the bracket.
  double discount = 1e-10;
  int max_sweeps = 20000;  // per layer and per pass
  bool accelerate = true;  // extrapolate (reduced-rank) in the solve passes
  // The certification passes start this far below (lower) and above (upper) the solved values;
  // a margin that does not certify is retried larger.  The solved values are a sub-solution, so
  // the lower pass certifies them as they are; the bracket is then about the upper margin.
  double lower_margin = 0;
  double upper_margin = 1e-8;
  // A bracket wider than this is not a result (SolveSummary::certified is false).
  double bracket_tolerance = 1e-6;
  // The upper pass starts higher where the solve was still moving: by upper_slack times the
  // state's last change more (about the distance left when the iteration shrinks it by 0.999 a
  // sweep).  Retries scale it with the margin.
  double upper_slack = 1e3;
  // Once the upper pass has certified (a sweep raised nothing), each further sweep only lowers the
  // bound and still leaves a pre-fixed point: it tightens until a sweep lowers no value by more
  // than rounding, for at most this many sweeps per layer.
  int upper_tightening_sweeps = 100;
  // The upper pass starts each layer from the undiscounted value of the pair of policies greedy
  // on the solved values where it lies above them (docs/solver.md), instead of from the solved
  // values alone.
  bool shaped_upper_start = true;
  // The upper pass raises the states of a stand-off plateau, where the discounted solution slopes
  // and the exact value is flat, to the plateau's top (solvers/duel/plateau.h, docs/solver.md).
  bool flatten_plateaus = true;
  // After each layer's solve, strategy improvement: at most this many times per layer, the
  // layer's values become those of David's policy greedy on them against Goliath's best response
  // (0: off).  From a loosely converged solve it reaches the value in a few steps (see
  // docs/solver.md); from a tightly converged one its first step only confirms it.
  int policy_improvements = 0;
  // Gauss-Seidel sweeps of the solve between two strategy-improvement steps (docs/solver.md).
  int improvement_sweeps = 10;
  bool nontermination = true;  // also bound the probability that optimal play never ends
  // Values to start from instead of zero: those of an earlier solution of the same game (for
  // example a run whose strategy improvement stopped at its step limit).  A solution's values are
  // a certified sub-solution, so every pass stays valid from them (docs/solver.md).
  const std::vector<double>* start_values = nullptr;
  // Called with the values so far after a layer's solve and after each strategy-improvement step,
  // once at least checkpoint_seconds have passed since the start or the last call.  The values
  // are a sub-solution at every such point, so a run stopped after a checkpoint continues from it
  // with start_values (`sling solve duel --checkpoint FILE`, then `--start FILE`).
  std::function<void(const std::vector<double>& values, const SolveSummary& so_far)> checkpoint;
  double checkpoint_seconds = 600;
  std::function<void(const std::string&)> log;  // progress lines; may be empty
};

// The route `sling solve duel` and `sling study god` take unless told otherwise: value iteration
// to a per-sweep change of 1e-6, then strategy improvement until each layer converges.  On the
// default board (pitch 1) value iteration alone would need thousands of sweeps a layer to close
// the bracket; strategy improvement converged in 43 steps on the first layer and needs more
// than 100 on god/no-kit (docs/solver.md).  The step limit only guards against a layer that
// never settles.
inline constexpr double kRouteTolerance = 1e-6;
inline constexpr int kRouteImprovements = 1000;

}  // namespace sling::duel
