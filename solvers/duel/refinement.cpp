#include "solvers/duel/refinement.h"

#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <cstdio>
#include <vector>

#include "solvers/duel/coarse_value.h"
#include "solvers/duel/lattice_tables.h"
#include "solvers/duel/passes.h"
#include "solvers/duel/sweep.h"
#include "solvers/duel/turn_evaluator.h"

namespace sling::duel {

using namespace detail;

namespace {

// The interpolated value of every declare state of the game's lattice (0 where the bases
// overlap: no such state is ever read).
std::vector<double> interpolated_values(const DuelGame& game, const DuelIndex& index,
                                        const CoarseDuelValue& interpolated) {
  std::vector<double> x(index.size(), 0.0);
  // Each (layer, slot) writes its own states, so they are filled in parallel.
  tbb::parallel_for(0, DuelIndex::kLayers * DuelIndex::kSlots, [&](int k) {
    const int layer = k / DuelIndex::kSlots, slot = k % DuelIndex::kSlots;
    DuelState s;
    s.phase = Phase::kDeclare;
    s.actor = slot < 4 ? kDavid : kGoliath;
    s.flags = static_cast<std::uint8_t>(layer_flags(layer) | slot_flags(slot));
    for_each_placement(game, s, [&] {
      if (const auto at = index.index_of(s)) x[*at] = interpolated.declare_value(s);
    });
  });
  return x;
}

// Sweeps of one layer: the evaluator and its copies (transposed, packed, the God layer's caches of
// finished layers) are set up once and serve both phases.
class LayerSweeps {
 public:
  LayerSweeps(const LatticeTables& lattice, std::vector<double>& x, int layer)
      : lattice_(lattice), x_(x), layer_(layer), ev_(lattice, x.data(), x.data(), 1.0, 0.0) {
    const std::size_t npairs = lattice.index.pairs();
    transposed_.resize(4 * npairs);
    for (int slot = 0; slot < 4; ++slot) {
      for (std::size_t p = 0; p < npairs; ++p)
        transposed_[lattice.transposed(slot, p)] = x[lattice.index.at(layer, slot, p)];
    }
    ev_.set_transposed(transposed_.data(), transposed_.data(), layer);
    packed_.resize(Evaluator::kPackedStreams * npairs);
    ev_.set_packed_leaves(packed_.data(), layer);
    if (layer >= 3) {
      cache_ = fill_cache(lattice, ev_, layer);
      ev_.set_cache(cache_.data(), layer);
      flight_cache_ = fill_flight_cache(lattice, ev_, layer);
      ev_.set_flight_cache(flight_cache_.data(), layer);
    }
  }

  // Gauss-Seidel sweeps with `clamp`, each turn continuing with `continuation`, until no value
  // moves by more than `tolerance` or `max_sweeps` have run; returns the sweeps run.
  int run(Clamp clamp, double continuation, int max_sweeps, double tolerance,
          const std::function<bool()>& cancelled) {
    int sweeps = 0;
    while (sweeps < max_sweeps) {
      if (cancelled && cancelled()) throw RefinementCancelled();
      const SweepResult r =
          sweep(lattice_, ev_, x_.data(), transposed_.data(), nullptr, layer_, continuation, clamp);
      ++sweeps;
      if (r.max_change <= tolerance) break;
    }
    return sweeps;
  }

 private:
  using Evaluator = TurnEvaluator<Mode::kOptimal>;
  const LatticeTables& lattice_;
  std::vector<double>& x_;
  int layer_;
  Evaluator ev_;
  std::vector<double> transposed_, packed_, cache_, flight_cache_;
};

}  // namespace

DuelSolution refine_interpolated_values(const CoarseDuelValue& interpolated,
                                        const RefinementOptions& options) {
  DuelRules rules = interpolated.game().rules();
  rules.turn_cap = 0;
  const DuelGame game(rules);
  const auto start = Clock::now();
  LatticeTables lattice(game);
  std::vector<double> x;
  const bool god = rules.god_enabled;
  std::vector<int> layers = {0, 1, 2};
  if (god) layers.insert(layers.end(), {3, 4, 5});
  const double continuation = 1.0 - SolverOptions{}.discount;  // the solver's own
  SolveSummary summary;
  summary.threads = options.threads;
  summary.layers = static_cast<int>(layers.size());
  tbb::task_arena arena(std::max(1, options.threads));
  arena.execute([&] {
    x = interpolated_values(game, lattice.index, interpolated);
    lattice.build_destination_masks();
    for (int layer : layers) {
      const auto layer_start = Clock::now();
      LayerSweeps sweeps(lattice, x, layer);
      const int settled = sweeps.run(Clamp::kNoRaise, 1.0 - options.settle_discount, 1000000,
                                     options.settle_tolerance, options.cancelled);
      const int rose = options.sweeps > 0
                           ? sweeps.run(Clamp::kNoLower, continuation, options.sweeps,
                                        options.rise_tolerance, options.cancelled)
                           : 0;
      summary.sweeps += settled + rose;
      if (options.log) {
        char line[160];
        std::snprintf(line, sizeof(line), "%-8s %-22s settled in %4d sweeps, rose %3d  %.1f s",
                      "refine", layer_name(layer), settled, rose, seconds_since(layer_start));
        options.log(line);
      }
    }
    record_start_values(lattice, x.data(), god, summary);
  });
  // A sub-solution bounds the value from below (up to the settling tolerance); nothing bounds it
  // from above, and nothing is certified.
  summary.lower_bound = summary.start;
  summary.lower_bound_without_god = summary.start_without_god;
  summary.seconds = seconds_since(start);
  return DuelSolution(game, std::move(x), std::move(summary), /*complete=*/false);
}

}  // namespace sling::duel
