#pragma once
// What a duel solve reports: the values at the start, the certified bracket and every pass.

#include <cstdint>
#include <string>
#include <vector>

namespace sling::duel {

// One pass over one layer: how many sweeps and the largest change of each sweep.
struct PassReport {
  std::string layer;
  std::string pass;  // "solve", "improve", "lower", "upper", "termination", "termination-lower"
  int sweeps = 0;    // best-response and termination passes: products, one sweep each
  int extrapolations = 0;      // solve passes: extrapolation jumps kept; upper: flattenings
  int check_sweeps = 0;        // sweeps spent checking the jumps (x <= T x at every state)
  std::uint64_t rejected = 0;  // jumps that failed the check and were undone
  std::uint64_t put_back = 0;  // states put back to their value before a kept jump; upper passes:
                               // states raised to the top of their plateau (plateau.h)
  int tightening_sweeps = 0;   // upper passes: sweeps after certifying that lowered the bound
  int rounds = 0;              // best-response passes: policy-iteration rounds
  double seconds = 0;
  bool certified = true;  // upper pass: a sweep changed no value upwards; best response: settled
  // Per sweep; best-response passes: the largest move of each round; termination: the residual
  // left by each BiCGSTAB solve.
  std::vector<double> max_change;
};

struct SolveSummary {
  // David's win probability at the start (before the initiative roll) and once the initiative is
  // settled (David acts first / Goliath acts first); with God and without God.
  double start = 0, david_first = 0, goliath_first = 0;
  double start_without_god = 0, david_first_without_god = 0, goliath_first_without_god = 0;
  // The certified bracket for the start value, with God and without.
  double lower_bound = 0, upper_bound = 1;
  double lower_bound_without_god = 0, upper_bound_without_god = 1;
  // Whether each bracket is a result: the certificates of the layers it reads hold (the lower
  // and the upper pass) and it is no wider than SolverOptions::bracket_tolerance.  The game
  // without God reads only the no-God layers, so it is certified or not on its own.
  bool certified = false, certified_without_god = false;
  // The first layer whose certificate failed and its pass ("lower" or "upper"); empty when every
  // certificate held (a bracket can then still be wider than the tolerance).
  std::string failed_layer, failed_pass;
  double gap() const { return upper_bound - lower_bound; }
  double gap_without_god() const { return upper_bound_without_god - lower_bound_without_god; }
  // Under the computed policies of both sides, a lower bound on Goliath's win probability, and
  // so an upper bound on the probability that the game never ends (1 - lower - goliath).
  double goliath_win_lower = 0;
  double nontermination_upper = 1;
  bool nontermination_computed = false;
  std::uint64_t states = 0;            // declare states in the index (both sides, every layer)
  std::uint64_t canonical_states = 0;  // after the left-right symmetry
  int layers = 0;
  int sweeps = 0;        // all passes (a policy-evaluation product counts as a sweep)
  int improvements = 0;  // strategy-improvement steps run by the layer that ran the most
  double seconds = 0;
  std::uint64_t peak_memory_bytes = 0;
  int threads = 0;
  std::vector<PassReport> passes;
};

}  // namespace sling::duel
