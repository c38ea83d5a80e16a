#include "solvers/duel/capped_solve.h"

#include <tbb/task_arena.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <limits>

#include "engine/core/errors.h"
#include "solvers/duel/capped_turn.h"
#include "solvers/duel/passes.h"
#include "solvers/duel/solve.h"

namespace sling::duel {

using namespace detail;

void check_capped_solvable(const DuelGame& game) {
  const DuelRules& r = game.rules();
  if (r.turn_cap <= 0) {
    throw RulesError("the capped duel solver needs a turn cap (turn_cap or --turn-cap N)");
  }
  if (r.david_move < 5) {
    throw RulesError(
        "the exact duel solver needs david_move >= 5 (a smaller value gives a "
        "negative movement allowance in the engine)");
  }
}

namespace detail {

// The outcome a pair (objective's value g, Goliath's win probability e) stands for.  Under kWin
// g is David's win probability; under kScore g = P(win) + P(draw) / 2.  Rounding can leave a
// probability a few ulps below zero: it is shown as zero.
CappedOutcome outcome_of(Pair v, CappedObjective objective) {
  CappedOutcome o;
  o.value = v.g;
  o.goliath_wins = v.e;
  if (objective == CappedObjective::kWin) {
    o.david_wins = v.g;
    o.draw = 1.0 - v.g - v.e;
  } else {
    o.draw = 2.0 * (1.0 - v.e - v.g);
    o.david_wins = v.g - 0.5 * o.draw;
  }
  o.draw = std::max(0.0, o.draw);
  o.david_wins = std::max(0.0, o.david_wins);
  return o;
}

// The objective's value alone (a solve without the outcome split).
CappedOutcome outcome_of(double v, CappedObjective objective) {
  const double unknown = std::numeric_limits<double>::quiet_NaN();
  CappedOutcome o{v, unknown, unknown, unknown};
  if (objective == CappedObjective::kWin) o.david_wins = v;
  return o;
}

// The keyframe of k turns left: `values` the values with k left, `before` those with k - 1.
CappedKeyframe make_keyframe(const LatticeTables& lattice, const std::vector<int>& layers,
                             const double* values, const double* before, int turns_left) {
  CappedKeyframe key;
  key.turns_left = turns_left;
  const auto& pairs = lattice.canonical_pairs;
  key.values.reserve(layers.size() * DuelIndex::kSlots * pairs.size());
  key.lost_turn.reserve(layers.size() * pairs.size());
  for (int layer : layers) {
    for (int slot = 0; slot < DuelIndex::kSlots; ++slot) {
      for (std::uint32_t p : pairs)
        key.values.push_back(static_cast<float>(values[lattice.index.at(layer, slot, p)]));
    }
    const int lost = DuelIndex::david_slot(false, true);
    for (std::uint32_t p : pairs)
      key.lost_turn.push_back(static_cast<float>(before[lattice.index.at(layer, lost, p)]));
  }
  return key;
}

namespace {

// The summary's description of the solve (its size, cap, objective and threads), logged.
CappedSummary summary_before_solving(const DuelGame& game, const LatticeTables& lattice,
                                     const std::vector<int>& layers, CappedObjective objective,
                                     const CappedOptions& options) {
  const int cap = game.rules().turn_cap;
  CappedSummary summary;
  summary.turn_cap = cap;
  summary.objective = objective;
  summary.threads = options.threads;
  summary.layers = static_cast<int>(layers.size());
  summary.keyframe_every = std::max(1, options.keyframe_every);
  summary.canonical_states = lattice.canonical_declare_states(layers.size());
  summary.states = lattice.declare_states(layers.size());
  if (options.log) {
    options.log("capped duel solver: " + std::to_string(summary.states) + " declare states (" +
                std::to_string(summary.canonical_states) + " after symmetry), " +
                std::to_string(layers.size()) + " layers, turn cap " + std::to_string(cap) +
                ", objective " + objective_name(objective) + ", " +
                std::to_string(options.threads) + " threads");
  }
  return summary;
}

// The values at the start of the longest game (the last turn count solved), with God and
// without, for either side acting first.
template <Mode M>
void record_capped_start_values(const TurnEvaluator<M>& ev, std::size_t start_pair, bool god,
                                CappedObjective objective, CappedSummary& summary) {
  const std::uint8_t kit = kShield | kJavelin;
  const std::size_t p = start_pair;
  summary.start = summary.start_by_cap.back();
  summary.start_without_god = summary.start_by_cap_without_god.back();
  summary.david_first_without_god = outcome_of(ev.vd(p, kit), objective);
  summary.goliath_first_without_god = outcome_of(ev.vg(p, kit), objective);
  summary.david_first =
      god ? outcome_of(ev.vd(p, kit | kGod), objective) : summary.david_first_without_god;
  summary.goliath_first =
      god ? outcome_of(ev.vg(p, kit | kGod), objective) : summary.goliath_first_without_god;
}

}  // namespace

}  // namespace detail

CappedDuelSolution solve_capped_duel(const DuelGame& game, CappedObjective objective,
                                     const CappedOptions& options) {
  check_capped_solvable(game);
  const auto start = Clock::now();
  LatticeTables lattice(game);
  const bool god = game.rules().god_enabled;
  std::vector<int> layers = {0, 1, 2};
  if (god) layers.insert(layers.end(), {3, 4, 5});
  const int cap = game.rules().turn_cap;
  const int keyframe_every = std::max(1, options.keyframe_every);
  CappedSummary summary = detail::summary_before_solving(game, lattice, layers, objective, options);
  const double draw = objective == CappedObjective::kScore ? 0.5 : 0.0;

  // Three turn counts in rotation: k - 2, k - 1 and k.  With no turn left (and one fewer) every
  // state is the cap's draw, and Goliath has won nowhere.
  const std::size_t size = lattice.index.size();
  std::array<std::vector<double>, 3> g, e;
  for (int b = 0; b < 3; ++b) {
    g[b].assign(size, draw);
    if (options.outcomes) e[b].assign(size, 0.0);
  }
  auto values = [&](int b) { return CappedValues{g[b].data(), e[b].data()}; };
  std::vector<CappedKeyframe> keyframes;
  int older = 0, previous = 1, current = 2;
  // The passes in mode M: kBothFixed carries e (the outcome split), kOptimal the value alone.
  auto run_passes = [&]<Mode M>() {
    using T = typename Ops<M>::T;
    CappedScratch<M> scratch(lattice);
    const T win = capped_win<M>(0.0, false), loss = capped_loss<M>();
    for (int k = 1; k <= cap; ++k) {
      capped_turn<M>(lattice, layers, values(older), values(previous), values(current), draw,
                     k == 1, scratch);
      const TurnEvaluator<M> ev(lattice, g[current].data(),
                                M == Mode::kBothFixed ? e[current].data() : g[current].data(), win,
                                loss);
      summary.start_by_cap_without_god.push_back(outcome_of(ev.initiative(false, 0.0), objective));
      summary.start_by_cap.push_back(god ? outcome_of(ev.initiative(true, 0.0), objective)
                                         : summary.start_by_cap_without_god.back());
      if (k == cap)
        detail::record_capped_start_values(ev, lattice.start_pair, god, objective, summary);
      if (k % keyframe_every == 0) {
        keyframes.push_back(
            make_keyframe(lattice, layers, g[current].data(), g[previous].data(), k));
      }
      if (options.log && (k == cap || k % std::max(1, cap / 20) == 0)) {
        char line[200];
        const CappedOutcome& o = summary.start_by_cap.back();
        if (M == Mode::kBothFixed) {
          std::snprintf(line, sizeof line,
                        "turns %5d/%d  value %.8f  David %.6f  draw %.6f  Goliath %.6f  %.1f s", k,
                        cap, o.value, o.david_wins, o.draw, o.goliath_wins, seconds_since(start));
        } else {
          std::snprintf(line, sizeof line, "turns %5d/%d  value %.8f  %.1f s", k, cap, o.value,
                        seconds_since(start));
        }
        options.log(line);
      }
      const int freed = older;
      older = previous;
      previous = current;
      current = freed;
    }
  };
  tbb::task_arena arena(std::max(1, options.threads));
  arena.execute([&] {
    lattice.build_destination_masks();  // (disc_scan.h)
    if (options.outcomes) {
      run_passes.template operator()<Mode::kBothFixed>();
    } else {
      run_passes.template operator()<Mode::kOptimal>();
    }
  });
  summary.seconds = seconds_since(start);
  summary.peak_memory_bytes = peak_memory_bytes();
  return CappedDuelSolution(game, std::move(summary), std::move(keyframes));
}

}  // namespace sling::duel
