#include "solvers/duel/passes.h"

#include <algorithm>
#include <cstdio>
#include <optional>

#include "solvers/duel/extrapolation.h"
#include "solvers/duel/plateau.h"
#include "solvers/duel/sweep.h"

namespace sling::duel::detail {

// A sweep "raises nothing" (or "lowers nothing") when no value moved that way by more than
// floating-point rounding of the evaluation (a few ulps of values below 1).
constexpr double kRoundingAllowance = 1e-15;

// A certification pass that has not certified after this many sweeps stops; the caller retries
// with a larger margin.  An upper start that certifies does so within tens of sweeps (24 to 113
// measured); one still raising values after this many is too low somewhere, and a larger start
// certifies sooner.
constexpr int kCertificationSweeps = 120;
constexpr double kNearlyCertified = 1e-12;

// Extrapolation (solve passes).  In a chase value iteration gains only a percent or two of the
// remaining distance per sweep.  Every kExtrapolationDepth + 1 sweeps the layer jumps by a
// fraction (the step factor) of the reduced-rank estimate (RankExtrapolation), then runs
// kSmoothingSweeps ordinary sweeps and checks at every state that it is still a sub-solution
// (x <= T x, so still below the least fixed point).  A jump that fails the check is undone and
// the step factor shrinks; one that passes lets it grow.  The iterates must stay sub-solutions:
// an overshoot is not corrected by further sweeps, because the game's fixed points are not unique
// (play can cycle forever) and iteration from above can settle on a higher one.
constexpr int kExtrapolationDepth = 6;
constexpr int kSmoothingSweeps = 3;
constexpr double kFirstStepFactor = 0.5, kMaxStepFactor = 0.8, kMinStepFactor = 1.0 / 64;
constexpr double kStepGrowth = 2, kStepShrink = 4;
constexpr int kPutBackRounds = 4;

// Plateaus (upper passes, plateau.h): from kFlattenAfter sweeps on, every kFlattenEvery sweeps, a
// layer whose every raise is at most kPlateauRise (a stand-off's slow spreading, not a start
// that is too low) has its rising states raised to the top of their plateau, each by at most
// kPlateauStep.
constexpr int kFlattenAfter = 20, kFlattenEvery = 10;
constexpr double kPlateauRise = 1e-9, kPlateauStep = 1e-9;

// In the solve pass David chooses his destinations afresh every kFullSweepEvery sweeps and
// replays the recorded ones in between.
constexpr int kFullSweepEvery = 2;

// Runs one pass over every layer in order; per-layer reports go to the summary.  `before_layer`
// may set a layer's starting values.
template <Mode M>
bool run_pass(const LatticeTables& lattice, const double* guide, double* eval,
              typename Ops<M>::T win, typename Ops<M>::T lose, const std::vector<int>& layers,
              const PassOptions& po, const SolverOptions& options, SolveSummary& summary,
              const std::function<void(int layer)>& before_layer) {
  bool all_certified = true;
  const std::size_t npairs = lattice.index.pairs();
  for (int layer : layers) {
    const auto start = Clock::now();
    if (before_layer) before_layer(layer);
    TurnEvaluator<M> ev(lattice, guide, eval, win, lose);
    std::vector<std::uint16_t> records(lattice.index.at(0, DuelIndex::kSlots, 0) * 13);
    // Transposed copies of David's slots of this layer (guide and iterate).
    std::vector<double> eval_t(4 * npairs), guide_t;
    for (int slot = 0; slot < 4; ++slot) {
      for (std::size_t p = 0; p < npairs; ++p) {
        eval_t[lattice.transposed(slot, p)] = eval[lattice.index.at(layer, slot, p)];
      }
    }
    if constexpr (M != Mode::kOptimal) {
      guide_t.resize(eval_t.size());
      for (int slot = 0; slot < 4; ++slot) {
        for (std::size_t p = 0; p < npairs; ++p) {
          guide_t[lattice.transposed(slot, p)] = guide[lattice.index.at(layer, slot, p)];
        }
      }
    }
    ev.set_transposed(M == Mode::kOptimal ? eval_t.data() : guide_t.data(), eval_t.data(), layer);
    std::vector<double> packed;
    if constexpr (M == Mode::kOptimal) {
      packed.resize(TurnEvaluator<M>::kPackedStreams * npairs);
      ev.set_packed_leaves(packed.data(), layer);
    }
    std::vector<typename Ops<M>::T> cache;
    if (layer >= 3) {
      cache = fill_cache(lattice, ev, layer);
      ev.set_cache(cache.data(), layer);
    }
    std::optional<RankExtrapolation> rre;
    if (po.accelerate) rre.emplace(lattice, kExtrapolationDepth);
    LayerBackup backup;
    std::vector<std::uint8_t> marks(po.accelerate ? DuelIndex::kSlots * npairs : 0);
    std::vector<double> coefficients;
    double step_factor = kFirstStepFactor;
    int smoothing_left = -1;           // sweeps until an extrapolation is checked; -1: none pending
    bool tightening = false;           // upper pass: certified, now lowering the bound
    std::vector<double> before_sweep;  // upper pass: the layer before a sweep that may flatten
    PassReport report;
    report.layer = layer_name(layer);
    report.pass = po.name;
    report.certified = po.kind == PassKind::kSolve;
    auto last_progress = Clock::now();
    using D = typename TurnEvaluator<M>::Destinations;
    for (int s = 0; s < po.max_sweeps; ++s) {
      // Destinations: a side whose policy is fixed (by the guide) records its choices on the
      // first sweep and replays them after; a free side chooses afresh every sweep.
      // In the solve pass David chooses afresh every kFullSweepEvery sweeps and replays his
      // recorded destinations in between (a replayed choice is worth at most the best one, so
      // x <= T x still holds); the pass stops only on a full sweep.
      bool full = true;
      if constexpr (M == Mode::kOptimal) {
        full = po.kind != PassKind::kSolve || s % kFullSweepEvery == 0;
        ev.set_destinations(records.data(), layer, full ? D::kRecord : D::kReplay, D::kFull);
      } else {
        const D fixed = s == 0 ? D::kRecord : D::kReplay;
        ev.set_destinations(records.data(), layer, fixed, fixed);
      }
      // Solve sweeps never lower a value, except while an extrapolation is being smoothed; an
      // upper pass, once certified, only tightens.
      const Clamp clamp = po.kind == PassKind::kSolve && smoothing_left < 0 ? Clamp::kNoLower
                          : tightening                                      ? Clamp::kNoRaise
                                                                            : Clamp::kNone;
      const bool may_flatten = po.kind == PassKind::kUpper && po.flatten_plateaus && !tightening &&
                               report.sweeps + 1 >= kFlattenAfter &&
                               (report.sweeps + 1) % kFlattenEvery == 0;
      if (may_flatten) {
        before_sweep.assign(eval + lattice.index.at(layer, 0, 0),
                            eval + lattice.index.at(layer + 1, 0, 0));
      }
      const SweepResult r =
          sweep(lattice, ev, eval, eval_t.data(), rre ? rre->next_change() : nullptr, layer,
                po.continuation, clamp, false, smoothing_left > 0 ? backup.values.data() : nullptr,
                po.last_change);
      ++report.sweeps;
      if (rre) rre->recorded();
      report.max_change.push_back(r.max_change);
      if (options.log && seconds_since(last_progress) > 60) {
        last_progress = Clock::now();
        char line[160];
        std::snprintf(line, sizeof(line), "  ... %s %s: sweep %d, change %.3g, %.0f s",
                      po.name.c_str(), layer_name(layer), report.sweeps, r.max_change,
                      seconds_since(start));
        options.log(line);
      }
      if (po.kind == PassKind::kLower && r.max_decrease <= kRoundingAllowance) {
        report.certified = true;
        break;
      }
      if (tightening) {
        ++report.tightening_sweeps;
        if (r.max_decrease <= kRoundingAllowance ||
            report.tightening_sweeps >= po.tightening_sweeps)
          break;
        continue;
      }
      if (po.kind == PassKind::kUpper && r.max_increase <= kRoundingAllowance) {
        report.certified = true;
        // From a pre-fixed point every further sweep lowers the values and leaves a pre-fixed
        // point: the bound only tightens.
        if (po.tightening_sweeps == 0 || r.max_decrease <= kRoundingAllowance) break;
        tightening = true;
        continue;
      }
      if (may_flatten && r.max_increase <= kPlateauRise) {
        const std::size_t raised =
            flatten_plateaus(lattice, eval, eval_t.data(), layer, before_sweep, kPlateauStep);
        if (raised > 0) ++report.extrapolations;
        report.put_back += raised;
      }
      // A certification that is only rounding away from done (every raise tiny) may run on.
      if (po.kind != PassKind::kSolve && report.sweeps >= kCertificationSweeps &&
          (r.max_increase > kNearlyCertified || report.sweeps >= 3 * kCertificationSweeps))
        break;
      // Extrapolation (solve passes), see kExtrapolationDepth.  After the smoothing sweeps the
      // layer must be a sub-solution again (x <= T x, checked at every state), or the jump is
      // undone and the next one is smaller.
      if (smoothing_left > 0) --smoothing_left;
      if (smoothing_left == 0) {
        smoothing_left = -1;
        ++report.check_sweeps;
        // The check must not record destinations (it may stop early, at a point that depends
        // on the threads); a fixed side keeps replaying its own.
        if constexpr (M == Mode::kOptimal) {
          ev.set_destinations(records.data(), layer, D::kFull, D::kFull);
        }
        // States the jump left unsupported are put back one by one (the smoothing sweeps kept
        // every value at or above its old one, so a state put back is supported for good);
        // when too many remain, the whole jump is undone.
        std::size_t unsupported =
            mark_unsupported(lattice, ev, eval, layer, po.continuation, marks);
        for (int round = 0; unsupported > 0 && round < kPutBackRounds; ++round) {
          report.put_back += unsupported;
          backup.restore_marked(lattice, eval, eval_t.data(), layer, marks);
          ++report.check_sweeps;
          unsupported = mark_unsupported(lattice, ev, eval, layer, po.continuation, marks);
        }
        if (unsupported == 0) {
          ++report.extrapolations;
          step_factor = std::min(kMaxStepFactor, step_factor * kStepGrowth);
        } else {
          backup.restore(lattice, eval, eval_t.data(), layer);
          ++report.rejected;
          step_factor = std::max(kMinStepFactor, step_factor / kStepShrink);
          rre->restart();
          continue;
        }
      }
      if (po.kind == PassKind::kSolve && full && smoothing_left < 0 && r.max_change <= po.tolerance)
        break;
      if (rre && smoothing_left < 0 && rre->ready() && r.max_change > po.tolerance) {
        if (rre->coefficients(coefficients)) {
          backup.save(lattice, eval, eval_t.data(), layer);
          extrapolate(lattice, eval, eval_t.data(), *rre, coefficients, layer, step_factor);
          // Goliath's values follow David's at once (the smoothing sweeps read them first).
          sweep(lattice, ev, eval, eval_t.data(), nullptr, layer, po.continuation, Clamp::kNone,
                true, backup.values.data());
          smoothing_left = kSmoothingSweeps;
        }
        rre->restart();
      }
    }
    report.seconds = seconds_since(start);
    summary.sweeps += report.sweeps + report.check_sweeps;
    all_certified = all_certified && report.certified;
    if (options.log) {
      const std::string tightened =
          ", then tightened by " + std::to_string(report.tightening_sweeps) + " sweeps";
      char line[320];
      std::snprintf(
          line, sizeof(line),
          "%-17s %-22s sweeps %5d +%3d checks  jumps %3d kept %3d undone %7llu put back  "
          "last change %.3g  %.1f s%s%s",
          po.name.c_str(), report.layer.c_str(), report.sweeps, report.check_sweeps,
          report.extrapolations, static_cast<int>(report.rejected),
          static_cast<unsigned long long>(report.put_back),
          report.max_change.empty() ? 0.0 : report.max_change.back(), report.seconds,
          po.kind == PassKind::kSolve ? "" : (report.certified ? "  certified" : "  NOT certified"),
          report.tightening_sweeps > 0 ? tightened.c_str() : "");
      options.log(line);
    }
    summary.passes.push_back(std::move(report));
  }
  return all_certified;
}

void record_start_values(const LatticeTables& lattice, const double* values, bool god,
                         SolveSummary& summary) {
  const TurnEvaluator<Mode::kOptimal> ev(lattice, values, values, 1.0, 0.0);
  const std::uint8_t kit = kShield | kJavelin;
  summary.start_without_god = ev.initiative(false, 0.0);
  summary.david_first_without_god = ev.vd(lattice.start_pair, kit);
  summary.goliath_first_without_god = ev.vg(lattice.start_pair, kit);
  summary.start = god ? ev.initiative(true, 0.0) : summary.start_without_god;
  summary.david_first =
      god ? ev.vd(lattice.start_pair, kit | kGod) : summary.david_first_without_god;
  summary.goliath_first =
      god ? ev.vg(lattice.start_pair, kit | kGod) : summary.goliath_first_without_god;
}

template bool run_pass<Mode::kOptimal>(const LatticeTables&, const double*, double*, double, double,
                                       const std::vector<int>&, const PassOptions&,
                                       const SolverOptions&, SolveSummary&,
                                       const std::function<void(int)>&);
template bool run_pass<Mode::kBothFixed>(const LatticeTables&, const double*, double*, Pair, Pair,
                                         const std::vector<int>&, const PassOptions&,
                                         const SolverOptions&, SolveSummary&,
                                         const std::function<void(int)>&);

}  // namespace sling::duel::detail
