#pragma once
// One step of the capped duel's backward induction (docs/solver.md, "The capped duel"): the values
// with k turns left from those with k - 1 and k - 2 turns left, every state of every layer read
// only from those earlier arrays (a Jacobi pass), with the uncapped solver's turn evaluation.

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <array>
#include <cstddef>
#include <vector>

#include "solvers/duel/sweep.h"
#include "solvers/duel/turn_evaluator.h"

namespace sling::duel::detail {

// The arrays of one turn count, indexed like the solver's values (DuelIndex).  `g` is the
// objective's value (both sides choose on it); `e`, in Mode::kBothFixed only, is carried along
// under those choices: Goliath's win probability.
struct CappedValues {
  double* g = nullptr;
  double* e = nullptr;
};

// Scratch space of a pass, allocated once per solve: the transposed and packed copies of the
// values read (see TurnEvaluator) and, per no-God layer, the movement values that its God twin
// reads for a re-rolled movement (TurnEvaluator::set_cache).
template <Mode M>
struct CappedScratch {
  std::vector<double> guide_t, packed;
  std::array<std::vector<typename Ops<M>::T>, 3> no_god_moves;
  explicit CappedScratch(const LatticeTables& lattice) {
    const std::size_t pairs = lattice.index.pairs();
    if (lattice.game.rules().god_enabled) {
      for (auto& moves : no_god_moves) moves.resize(lattice.index.at(0, DuelIndex::kSlots, 0));
    }
    // The both-fixed mode keeps guide and value side by side in both copies.
    constexpr std::size_t kWidth = M == Mode::kBothFixed ? 2 : 1;
    guide_t.assign(kWidth * LatticeTables::kTransposedSlots * pairs, 0.0);
    packed.assign(kWidth * TurnEvaluator<M>::kPackedStreams * pairs, 0.0);
  }
};

// The transposed copy of David's slots of `layer` (TurnEvaluator::set_transposed); with `e`,
// each state's g and e side by side.
inline void transpose_layer(const LatticeTables& lattice, const double* g, const double* e,
                            int layer, double* out) {
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, lattice.index.pairs(), 4096),
                    [&](const tbb::blocked_range<std::size_t>& range) {
                      for (std::size_t p = range.begin(); p != range.end(); ++p) {
                        for (int slot = 0; slot < 4; ++slot) {
                          const std::size_t i = lattice.index.at(layer, slot, p);
                          const std::size_t t = lattice.transposed(slot, p);
                          if (e == nullptr) {
                            out[t] = g[i];
                          } else {
                            out[2 * t] = g[i];
                            out[2 * t + 1] = e[i];
                          }
                        }
                      }
                    });
}

// The leaves of a turn's end with k - 1 turns left: a David win by a behead is decided when
// David's next turn begins, so with no turn left it is the draw of the cap like every other end
// of a turn.  A kill inside the turn (javelin, melee) stands whatever the count.
template <Mode M>
typename Ops<M>::T capped_win(double draw, bool last_turn) {
  const double g = last_turn ? draw : 1.0;
  if constexpr (M == Mode::kBothFixed) {
    return Pair{g, 0.0};
  } else {
    return g;
  }
}
template <Mode M>
typename Ops<M>::T capped_loss() {
  if constexpr (M == Mode::kBothFixed) {
    return Pair{0.0, 1.0};
  } else {
    return 0.0;
  }
}

// cur = the values with k turns left, from prev (k - 1) and prev2 (k - 2); the arrays with no
// turn left (and the one before it) hold the draw everywhere.  Each state's value is a function
// of prev and prev2 only, so the result is the same on any thread count and in any order.
template <Mode M>
void capped_turn(const LatticeTables& lattice, const std::vector<int>& layers,
                 const CappedValues& prev2, const CappedValues& prev, const CappedValues& cur,
                 double draw, bool last_turn, CappedScratch<M>& scratch) {
  using T = typename Ops<M>::T;
  TurnEvaluator<M> ev(lattice, prev.g, M == Mode::kBothFixed ? prev.e : prev.g,
                      capped_win<M>(draw, last_turn), capped_loss<M>());
  ev.set_lost_turn(prev2.g, M == Mode::kBothFixed ? prev2.e : prev2.g);
  for (int layer : layers) {
    double* t = scratch.guide_t.data();
    if constexpr (M == Mode::kBothFixed) {
      transpose_layer(lattice, prev.g, prev.e, layer, t);
      ev.set_transposed(t, t + 1, layer, nullptr, 2);
    } else {
      transpose_layer(lattice, prev.g, nullptr, layer, t);
      ev.set_transposed(t, t, layer);
    }
    ev.set_packed_leaves(scratch.packed.data(), layer);
    // A God layer's re-rolled movement is its no-God twin's movement at the same turn count:
    // the twin's pass (the layers go in order, no-God first) keeps it from its own discs, so it
    // is neither recomputed at every God decision that needs it nor scanned again (fill_cache).
    const bool keep_moves = layer < 3 && !scratch.no_god_moves[0].empty();
    ev.set_cache(
        layer >= 3 ? scratch.no_god_moves[static_cast<std::size_t>(layer - 3)].data() : nullptr,
        layer >= 3 ? layer : -1);
    auto update = [&](int slot, std::size_t p, const typename TurnEvaluator<M>::MoveDiscs& discs,
                      int&) {
      const T* move_best = discs.of(slot);
      if (keep_moves && move_best != nullptr) {
        const std::uint8_t f = static_cast<std::uint8_t>(layer_flags(layer) | slot_flags(slot));
        Turn<M> turn(ev);
        scratch.no_god_moves[static_cast<std::size_t>(layer)][lattice.index.at(0, slot, p)] =
            slot < 4 ? turn.david_move(p, f, kDavid, move_best)
                     : turn.goliath_move(p, f, move_best);
      }
      const T v = ev.state_value(layer, slot, p, move_best);
      const std::size_t i = lattice.index.at(layer, slot, p);
      const std::size_t m = lattice.index.at(layer, slot, lattice.index.mirror(p));
      if constexpr (M == Mode::kBothFixed) {
        cur.g[i] = cur.g[m] = v.g;
        cur.e[i] = cur.e[m] = v.e;
      } else {
        cur.g[i] = cur.g[m] = v;
      }
    };
    reduce_by_group(lattice, ev, layer, false, 0, update, [](int, int) { return 0; });
  }
}

}  // namespace sling::duel::detail
