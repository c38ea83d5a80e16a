#pragma once
// Sweeps: one Gauss-Seidel update of every state of a layer, in parallel and in a fixed order,
// and what the passes need around it (the support check of an extrapolation, its undo, the cache
// of a God layer's no-God movement values).

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <functional>
#include <vector>

#include "solvers/duel/turn_evaluator.h"

namespace sling::duel::detail {

struct SweepResult {
  double max_change = 0;    // largest |new - old|
  double max_increase = 0;  // largest new - old (0 when nothing rose)
  double max_decrease = 0;  // largest old - new (0 when nothing fell)
  SweepResult combine(const SweepResult& o) const {
    return {std::max(max_change, o.max_change), std::max(max_increase, o.max_increase),
            std::max(max_decrease, o.max_decrease)};
  }
};

// The slots of a layer in the order a sweep updates them, in two groups: David's, then Goliath's.
// A slot reads the other side's slots of any pair, and its own side's slots only at the same
// pair: a stone can daze Goliath inside David's turn, and then David declares again where he
// stands (so the dazed David slots come first), and a dazed Goliath's lost turn is resolved at
// once.  Each group is updated pair by pair, in parallel and in place, and the sweep is
// Gauss-Seidel (Goliath's slots read David's values of the same sweep) and deterministic whatever
// the thread count.
constexpr std::array<int, 4> kDavidSlots = {1, 3, 0, 2};
constexpr std::array<int, 6> kGoliathSlots = {4, 5, 6, 7, 8, 9};

// Writes value v of (layer, slot, canonical pair p) to the state and to its mirror image, and to
// the transposed copy of David's slots.
inline void store(const LatticeTables& lattice, double* values, double* transposed, int layer,
                  int slot, std::size_t p, std::size_t mirror, double v) {
  values[lattice.index.at(layer, slot, p)] = v;
  values[lattice.index.at(layer, slot, mirror)] = v;
  if (slot < 4) {
    transposed[lattice.transposed(slot, p)] = v;
    transposed[lattice.transposed(slot, mirror)] = v;
  }
}

// Which way a sweep may move the values.  From a sub-solution (x <= T x) a true update never lowers
// a value, and from a pre-fixed point (T y <= y) it never raises one: the clamp only absorbs
// rounding, and it keeps the property exact in floating point.
enum class Clamp { kNone, kNoLower, kNoRaise };

// Calls visit(slot, pair, discs, acc) at every computed state of a layer in the order of a sweep:
// David's group, then Goliath's (only Goliath's when goliath_only), each pair by pair in parallel,
// and reduces the accumulators with `combine`.  A side's discs read only the other side's slots,
// which its group does not change, so they are computed once per pair; and since a state reads
// its own side only at its own pair, results do not depend on the order within a group, so each
// group runs in the order that keeps its discs' leaves in cache.
template <Mode M, class Acc, class Visit, class Combine>
Acc reduce_by_group(const LatticeTables& lattice, const TurnEvaluator<M>& ev, int layer,
                    bool goliath_only, Acc zero, const Visit& visit, const Combine& combine) {
  Acc total = zero;
  for (const bool david : {true, false}) {
    if (goliath_only && david) continue;
    const auto& pairs = david ? lattice.canonical_pairs : lattice.goliath_group_order;
    if (david) ev.refresh_packed_leaves();
    const Acc part = tbb::parallel_reduce(
        tbb::blocked_range<std::size_t>(0, pairs.size(), 256), zero,
        [&](const tbb::blocked_range<std::size_t>& range, Acc acc) {
          typename TurnEvaluator<M>::MoveDiscs discs;
          for (std::size_t k = range.begin(); k != range.end(); ++k) {
            const std::size_t p = pairs[k];
            if (david) {
              ev.david_move_discs(p, layer, discs);
              for (int slot : kDavidSlots) visit(slot, p, discs, acc);
            } else {
              ev.goliath_move_discs(p, layer, discs);
              for (int slot : kGoliathSlots) visit(slot, p, discs, acc);
            }
          }
          return acc;
        },
        combine);
    total = combine(total, part);
  }
  return total;
}

// One Gauss-Seidel sweep of a layer.  `change`, when given, receives new - old of every computed
// David state (indexed slot * pairs + pair) for the extrapolation.
template <Mode M>
SweepResult sweep(const LatticeTables& lattice, const TurnEvaluator<M>& ev, double* values,
                  double* transposed, double* change, int layer, double continuation, Clamp clamp,
                  bool goliath_only = false, const double* floor = nullptr,
                  float* last_change = nullptr) {
  const std::size_t npairs = lattice.index.pairs();
  auto update = [&](int slot, std::size_t p, const typename TurnEvaluator<M>::MoveDiscs& discs,
                    SweepResult& acc) {
    const std::size_t mirror = lattice.mirror_pair[p];
    const double old = values[lattice.index.at(layer, slot, p)];
    double v = continuation * Ops<M>::e(ev.state_value(layer, slot, p, discs.of(slot)));
    if (clamp == Clamp::kNoLower) v = std::max(v, old);
    if (clamp == Clamp::kNoRaise) v = std::min(v, old);
    if (floor != nullptr) v = std::max(v, floor[lattice.index.at(0, slot, p)]);
    acc.max_change = std::max(acc.max_change, std::abs(v - old));
    acc.max_increase = std::max(acc.max_increase, v - old);
    acc.max_decrease = std::max(acc.max_decrease, old - v);
    if (change != nullptr && slot < 4)
      change[static_cast<std::size_t>(slot) * npairs + p] = v - old;
    if (last_change != nullptr) {
      const float d = static_cast<float>(std::abs(v - old));
      last_change[lattice.index.at(layer, slot, p)] = d;
      last_change[lattice.index.at(layer, slot, mirror)] = d;
    }
    store(lattice, values, transposed, layer, slot, p, mirror, v);
  };
  return reduce_by_group(lattice, ev, layer, goliath_only, SweepResult{}, update,
                         [](const SweepResult& a, const SweepResult& b) { return a.combine(b); });
}

// Marks the states of the layer where x <= T x fails (T evaluated at x, Jacobi), indexed
// slot * pairs + pair; returns how many.
template <Mode M>
std::size_t mark_unsupported(const LatticeTables& lattice, const TurnEvaluator<M>& ev,
                             const double* values, int layer, double continuation,
                             std::vector<std::uint8_t>& marks) {
  auto check = [&](int slot, std::size_t p, const typename TurnEvaluator<M>::MoveDiscs& discs,
                   std::size_t& count) {
    const double x = values[lattice.index.at(layer, slot, p)];
    const bool fails = continuation * Ops<M>::e(ev.state_value(layer, slot, p, discs.of(slot))) < x;
    marks[lattice.index.at(0, slot, p)] = fails;
    count += fails;
  };
  return reduce_by_group(lattice, ev, layer, false, std::size_t{0}, check, std::plus<>());
}

// Calls f(p) for every canonical pair p, in parallel (f writes only what belongs to p).
template <class F>
void for_each_canonical_pair(const LatticeTables& lattice, const F& f) {
  const auto& pairs = lattice.canonical_pairs;
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, pairs.size(), 256),
                    [&](const tbb::blocked_range<std::size_t>& range) {
                      for (std::size_t k = range.begin(); k != range.end(); ++k) f(pairs[k]);
                    });
}

// A layer's values and the transposed copy of its David slots, kept to undo an extrapolation.
struct LayerBackup {
  std::vector<double> values, transposed;
  void save(const LatticeTables& lattice, const double* from, const double* from_t, int layer) {
    values.assign(from + lattice.index.at(layer, 0, 0), from + lattice.index.at(layer + 1, 0, 0));
    transposed.assign(from_t, from_t + 4 * lattice.index.pairs());
  }
  void restore(const LatticeTables& lattice, double* to, double* to_t, int layer) const {
    std::copy(values.begin(), values.end(), to + lattice.index.at(layer, 0, 0));
    std::copy(transposed.begin(), transposed.end(), to_t);
  }
  // Puts back the saved value of every marked state (and of its mirror image).
  void restore_marked(const LatticeTables& lattice, double* to, double* to_t, int layer,
                      const std::vector<std::uint8_t>& marks) const {
    for_each_canonical_pair(lattice, [&](std::size_t p) {
      for (int slot = 0; slot < DuelIndex::kSlots; ++slot) {
        const std::size_t j = lattice.index.at(0, slot, p);
        if (marks[j]) store(lattice, to, to_t, layer, slot, p, lattice.mirror_pair[p], values[j]);
      }
    });
  }
};

// The no-God movement values of a God layer: they read only the finished no-God layers, so they
// are computed once per layer instead of once per sweep.
template <Mode M>
std::vector<typename Ops<M>::T> fill_cache(const LatticeTables& lattice, const TurnEvaluator<M>& ev,
                                           int layer) {
  using T = typename Ops<M>::T;
  std::vector<T> cache(lattice.index.at(0, DuelIndex::kSlots, 0));
  const std::uint8_t lf = static_cast<std::uint8_t>(layer_flags(layer) & ~kGod);
  for_each_canonical_pair(lattice, [&](std::size_t p) {
    for (int slot : {0, 1, 2, 3}) {
      const std::uint8_t f = static_cast<std::uint8_t>(lf | slot_flags(slot));
      cache[lattice.index.at(0, slot, p)] = ev.david_move(p, f, kDavid);
    }
    for (int slot : {4, 7}) {
      const std::uint8_t f = static_cast<std::uint8_t>(lf | slot_flags(slot));
      cache[lattice.index.at(0, slot, p)] = ev.goliath_move(p, f);
    }
  });
  return cache;
}

// The no-God flight values of a God layer, for TurnEvaluator::set_flight_cache: at every
// canonical pair in contact (where Goliath may melee), without and with David's stone.
inline std::vector<double> fill_flight_cache(const LatticeTables& lattice,
                                             const TurnEvaluator<Mode::kOptimal>& ev, int layer) {
  const std::size_t npairs = lattice.index.pairs();
  std::vector<double> cache(2 * npairs, 0.0);
  const std::uint8_t lf = static_cast<std::uint8_t>(layer_flags(layer) & ~kGod);
  for_each_canonical_pair(lattice, [&](std::size_t p) {
    if (!lattice.contact[p]) return;
    for (const int slot : {4, 7}) {
      const auto f = static_cast<std::uint8_t>(lf | slot_flags(slot));
      cache[((f & kStone) ? npairs : 0) + p] = ev.david_move(p, f, kGoliath);
    }
  });
  return cache;
}

}  // namespace sling::duel::detail
