#include "solvers/duel/solve.h"

#include <tbb/task_arena.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "engine/core/errors.h"
#include "solvers/duel/certification.h"
#include "solvers/duel/passes.h"
#include "solvers/duel/strategy_improvement.h"
#include "solvers/duel/turn_evaluator.h"

namespace sling::duel {

using namespace detail;

std::uint64_t peak_memory_bytes() {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("VmHWM:", 0) == 0) {
      std::istringstream fields(line.substr(6));
      std::uint64_t kib = 0;
      fields >> kib;
      return kib * 1024;
    }
  }
  return 0;
}

void check_solvable(const DuelGame& game) {
  const DuelRules& r = game.rules();
  if (r.turn_cap != 0) {
    throw RulesError(
        "this solver needs turn_cap 0 (a turn cap makes the turn count part of the state; a "
        "capped duel is solved by backward induction, solve_capped_duel)");
  }
  if (r.david_move < 5) {
    throw RulesError(
        "the exact duel solver needs david_move >= 5 (a smaller value gives a "
        "negative movement allowance in the engine)");
  }
}

namespace {

// Whether every no-God layer (0-2) certified; `flags` follows the solve's layers, which begin with
// them.
bool no_god_layers_hold(const std::vector<bool>& flags) {
  for (std::size_t k = 0; k < flags.size() && k < 3; ++k)
    if (!flags[k]) return false;
  return flags.size() >= 3;
}

// Sets the summary's certificate: each game's bracket holds when its layers certified from below
// and above and it is no wider than the tolerance; the first failing layer is named.
void record_certificate(const std::vector<int>& layers, const std::vector<bool>& lower,
                        const std::vector<bool>& upper, double tolerance, bool god,
                        SolveSummary& summary) {
  for (std::size_t k = 0; k < layers.size() && summary.failed_layer.empty(); ++k) {
    const bool lower_held = k < lower.size() && lower[k];
    const bool upper_held = k < upper.size() && upper[k];
    if (!lower_held || !upper_held) {
      summary.failed_layer = layer_name(layers[k]);
      summary.failed_pass = !lower_held ? "lower" : "upper";
    }
  }
  summary.certified_without_god = no_god_layers_hold(lower) && no_god_layers_hold(upper) &&
                                  summary.gap_without_god() <= tolerance;
  if (!god) {
    summary.certified = summary.certified_without_god;
    return;
  }
  bool all = lower.size() == layers.size() && upper.size() == layers.size();
  for (std::size_t k = 0; all && k < layers.size(); ++k) all = lower[k] && upper[k];
  summary.certified = all && summary.gap() <= tolerance;
}

}  // namespace

DuelSolution solve_duel(const DuelGame& game, const SolverOptions& options) {
  check_solvable(game);
  const auto start = Clock::now();
  LatticeTables lattice(game);
  SolveSummary summary;
  summary.threads = options.threads;
  const bool god = game.rules().god_enabled;
  std::vector<int> layers = {0, 1, 2};
  if (god) layers.insert(layers.end(), {3, 4, 5});
  summary.layers = static_cast<int>(layers.size());
  summary.canonical_states = lattice.canonical_declare_states(layers.size());
  summary.states = lattice.declare_states(layers.size());
  if (options.log) {
    options.log("duel solver: " + std::to_string(summary.states) + " declare states (" +
                std::to_string(summary.canonical_states) + " after symmetry), " +
                std::to_string(layers.size()) + " layers, " + std::to_string(options.threads) +
                " threads");
  }

  const double continuation = 1.0 - options.discount;
  std::vector<double> x(lattice.index.size(), 0.0);
  if (options.start_values != nullptr) {
    if (options.start_values->size() != x.size())
      throw std::invalid_argument("duel solver: the start values are for another state space");
    x = *options.start_values;
  }
  tbb::task_arena arena(std::max(1, options.threads));
  const SolveContext context{lattice, layers, options, summary, continuation};

  arena.execute([&] {
    lattice.build_destination_masks();  // (disc_scan.h)
    // 1. Solve: value iteration from zero, layer by layer, both sides optimal, with
    //    extrapolation along the slowest mode.  The result is an estimate; 2 and 3 bound it.
    // The last change of every state: where the solve is still moving, the upper pass starts
    // higher (see 3).
    std::vector<float> last_change(lattice.index.size(), 0.0f);
    PassOptions solve{"solve",      PassKind::kSolve,  options.tolerance, options.max_sweeps,
                      continuation, options.accelerate};
    solve.last_change = last_change.data();
    // 1b. Strategy improvement (--improvements N): each layer's solved values are improved by at
    //     most N steps of improve_layer before the next layer is solved, since the next layer
    //     reads them.  A layer whose improvement converged (|T x - x| below kStrategyConverged)
    //     needs no slack above it in the upper pass.
    std::vector<double> sigma;
    if (options.policy_improvements > 0) sigma.assign(x.size(), 0.0);
    // Checkpoints: x is a sub-solution after every layer's solve and every improvement step.
    auto last_checkpoint = Clock::now();
    auto checkpoint = [&] {
      if (!options.checkpoint || seconds_since(last_checkpoint) < options.checkpoint_seconds)
        return;
      SolveSummary so_far = summary;
      so_far.seconds = seconds_since(start);
      so_far.peak_memory_bytes = peak_memory_bytes();
      options.checkpoint(x, so_far);
      last_checkpoint = Clock::now();
    };
    for (int layer : layers) {
      run_pass<Mode::kOptimal>(lattice, x.data(), x.data(), 1.0, 0.0, {layer}, solve, options,
                               summary);
      checkpoint();
      if (options.policy_improvements == 0) continue;
      const auto layer_start = Clock::now();
      PassReport report;
      report.layer = layer_name(layer);
      report.pass = "improve";
      const int steps = improve_layer(lattice, x, sigma, layer, continuation,
                                      options.policy_improvements, options, report, checkpoint);
      report.seconds = seconds_since(layer_start);
      summary.sweeps += report.sweeps;
      summary.improvements = std::max(summary.improvements, steps);
      if (report.certified) {
        std::fill(
            last_change.begin() + static_cast<std::ptrdiff_t>(lattice.index.at(layer, 0, 0)),
            last_change.begin() + static_cast<std::ptrdiff_t>(lattice.index.at(layer + 1, 0, 0)),
            0.0f);
      }
      if (options.log) {
        char line[200];
        std::snprintf(line, sizeof(line),
                      "%-17s %-22s steps %2d, %4d evaluations, %5d products and sweeps  %.1f s%s",
                      "improve", report.layer.c_str(), steps, report.rounds, report.sweeps,
                      report.seconds, report.certified ? "  converged" : "  NOT converged");
        options.log(line);
      }
      summary.passes.push_back(std::move(report));
    }
    record_start_values(lattice, x.data(), god, summary);

    // 2. Lower bound: certify x <= T x for the discounted game.  David's policy is greedy on the
    //    certified x, so x bounds the value of that policy against any Goliath from below.
    //    These certified values are the solution's values.
    //    Each game's bound needs only the layers it reads: the no-God layers for the game
    //    without God.
    std::vector<bool> lower_layers, upper_layers;
    const bool lower_certified =
        certify_lower<Mode::kOptimal>(context, nullptr, x, 1.0, 0.0, "lower", &lower_layers);
    {
      TurnEvaluator<Mode::kOptimal> ev(lattice, x.data(), x.data(), 1.0, 0.0);
      if (no_god_layers_hold(lower_layers))
        summary.lower_bound_without_god = ev.initiative(false, 0.0);
      if (lower_certified)
        summary.lower_bound = god ? ev.initiative(true, 0.0) : summary.lower_bound_without_god;
    }

    // 3. Upper bound (certify_upper).
    {
      std::vector<double> y;
      const bool certified = certify_upper(context, x, last_change, y, upper_layers);
      TurnEvaluator<Mode::kOptimal> ev(lattice, y.data(), y.data(), 1.0, 0.0);
      if (no_god_layers_hold(upper_layers))
        summary.upper_bound_without_god = ev.initiative(false, 1.0);
      if (certified)
        summary.upper_bound = god ? ev.initiative(true, 1.0) : summary.upper_bound_without_god;
    }
    record_certificate(layers, lower_layers, upper_layers, options.bracket_tolerance, god, summary);

    // 4. Termination: both policies fixed, Goliath's win probability, solved and certified from
    //    below like David's; 1 - lower_bound - goliath_win bounds the mass of games that never
    //    end.
    if (options.nontermination && lower_certified) {
      std::vector<double> w(lattice.index.size(), 0.0);
      for (int layer : layers) {
        PassReport report = evaluate_pair(lattice, x, w, layer, continuation, Pair{1, 0},
                                          Pair{0, 1}, "termination");
        summary.sweeps += report.sweeps;
        if (options.log) {
          char line[200];
          std::snprintf(line, sizeof(line),
                        "%-17s %-22s BiCGSTAB: %d products, residual %.3g  %.1f s", "termination",
                        report.layer.c_str(), report.sweeps, report.max_change.back(),
                        report.seconds);
          options.log(line);
        }
        summary.passes.push_back(std::move(report));
      }
      if (certify_lower<Mode::kBothFixed>(context, x.data(), w, Pair{1, 0}, Pair{0, 1},
                                          "termination-lower")) {
        TurnEvaluator<Mode::kBothFixed> ev(lattice, x.data(), w.data(), Pair{1, 0}, Pair{0, 1});
        summary.goliath_win_lower = ev.initiative(god, 0.0).e;
        summary.nontermination_upper =
            std::max(0.0, 1.0 - summary.lower_bound - summary.goliath_win_lower);
        summary.nontermination_computed = true;
      }
    }
  });
  summary.seconds = seconds_since(start);
  summary.peak_memory_bytes = peak_memory_bytes();
  return DuelSolution(game, std::move(x), std::move(summary));
}

}  // namespace sling::duel
