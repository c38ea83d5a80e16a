#include "solvers/duel/strategy_improvement.h"

#include <algorithm>
#include <cstdio>
#include <numeric>

#include "solvers/duel/passes.h"
#include "solvers/duel/policy_evaluation.h"

namespace sling::duel::detail {

constexpr double kStrategyConverged = 1e-13;  // max |T x - x| at which a layer is solved
constexpr double kStrategyTarget = 1e-12;     // BiCGSTAB: least relative residual reduction
constexpr double kStrategyAbsolute = 1e-14;   // BiCGSTAB: absolute residual (Euclidean) to stop at
constexpr int kResponseRounds = 30;           // Goliath's policy-iteration rounds per step

// The termination pass's evaluation of a layer is two BiCGSTAB solves, from zero and then refined
// (a best-response round is one): a product budget per solve, and the residual reduction at which
// the termination pass's solves stop.
constexpr int kEvaluationProducts = 400;
constexpr double kEvaluationTarget = 1e-9;

// Returns the number of steps taken; report.certified says whether the layer converged.
// `after_step` is called after every step, when x is a sub-solution again (a checkpoint).
int improve_layer(const LatticeTables& lattice, std::vector<double>& x, std::vector<double>& sigma,
                  int layer, double continuation, int max_steps, const SolverOptions& options,
                  PassReport& report, const std::function<void()>& after_step) {
  const std::size_t begin = lattice.index.at(layer, 0, 0), end = lattice.index.at(layer + 1, 0, 0);
  PolicyEvaluation<Mode::kDavidFixed> evaluation(lattice, layer, continuation);
  evaluation.set_forcing(true);
  report.certified = false;
  int steps = 0;
  for (; steps < max_steps && !report.certified; ++steps) {
    // sigma fixes David's policy (greedy on it); x is Goliath's guide and the iterate.
    std::copy(x.begin() + begin, x.begin() + end, sigma.begin() + begin);
    int products = 0, rounds = 0;
    double start_residual = 0;
    bool settled = false;
    for (int round = 0; round < kResponseRounds; ++round) {
      evaluation.set_david_destinations_recorded(round > 0);
      const auto r =
          evaluation.solve(sigma.data(), x.data(), x.data(), Triple{1, 1, 1}, Triple{0, 0, 0},
                           false, kEvaluationProducts, kStrategyTarget, kStrategyAbsolute);
      products += r.products + 1;
      ++rounds;
      if (round == 0) start_residual = r.max_residual;
      if (r.max_residual <= kStrategyConverged) {  // Goliath's response has settled
        settled = true;
        break;
      }
    }
    report.certified = start_residual <= kStrategyConverged;
    report.sweeps += products;
    report.rounds += rounds;
    report.max_change.push_back(start_residual);
    if (!settled) {  // sigma still holds the values at the start of the step
      std::copy(sigma.begin() + begin, sigma.begin() + end, x.begin() + begin);
      if (options.log) options.log("  improve: Goliath's response did not settle; step undone");
      ++steps;
      break;
    }
    // (not after the last step: its values would only be swept, not improved)
    if (options.improvement_sweeps > 0 && !report.certified && steps + 1 < max_steps) {
      SolveSummary scratch;
      SolverOptions quiet = options;
      quiet.log = {};
      const PassOptions sweeps{"improve-sweeps",           PassKind::kSolve, 0.0,
                               options.improvement_sweeps, continuation,     false};
      run_pass<Mode::kOptimal>(lattice, x.data(), x.data(), 1.0, 0.0, {layer}, sweeps, quiet,
                               scratch);
      report.sweeps += scratch.sweeps;
    }
    if (options.log) {
      // The sum of the layer's values shows the climb: it never falls, and it stops rising
      // once the layer has converged.
      const double layer_sum = std::accumulate(x.begin() + static_cast<std::ptrdiff_t>(begin),
                                               x.begin() + static_cast<std::ptrdiff_t>(end), 0.0);
      char line[240];
      std::snprintf(line, sizeof(line),
                    "  improve %-22s step %2d: |T x - x| %.3g, Goliath's response %2d rounds, "
                    "%3d products, layer sum %.3f",
                    layer_name(layer), steps + 1, start_residual, rounds, products, layer_sum);
      options.log(line);
    }
    after_step();
  }
  // Later layers read this one through David's guide too.
  std::copy(x.begin() + begin, x.begin() + end, sigma.begin() + begin);
  return steps;
}

// Evaluates the pair of policies greedy on `guide` (both fixed) into `values`'s layer: the
// probability of reaching `win` rather than `lose`, each turn continuing with `continuation`.
// Solved from zero (the least solution: zero where the pair's play never ends), then refined from
// the result.  Serves the upper pass's shaped start and the termination pass.
PassReport evaluate_pair(const LatticeTables& lattice, const std::vector<double>& guide,
                         std::vector<double>& values, int layer, double continuation, Pair win,
                         Pair lose, const char* pass) {
  const auto start = Clock::now();
  PolicyEvaluation<Mode::kBothFixed> evaluation(lattice, layer, continuation);
  PassReport report;
  report.layer = layer_name(layer);
  report.pass = pass;
  for (const bool from_zero : {true, false}) {
    const auto r = evaluation.solve(guide.data(), nullptr, values.data(), win, lose, from_zero,
                                    kEvaluationProducts, kEvaluationTarget);
    report.sweeps += r.products + 1;
    report.max_change.push_back(r.residual * r.reduction);
  }
  report.seconds = seconds_since(start);
  return report;
}

}  // namespace sling::duel::detail
