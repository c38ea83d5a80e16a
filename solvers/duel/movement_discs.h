#pragma once
// The movement discs: for every allowance, a mover's best destination, over the offsets of
// engine/duel/geometry.h sorted by length.  The solver's hot loop.  (Part of turn_evaluator.h.)

#include "solvers/duel/disc_scan.h"
#include "solvers/duel/turn_evaluator.h"

namespace sling::duel::detail {

template <Mode M>
template <Side kMover, std::size_t N>
void TurnEvaluator<M>::discs(std::size_t pair, const std::array<std::uint8_t, N>& flags, Side actor,
                             int max_allowance, T (&best)[N][13]) const {
  const int np_david = lattice_.points[kDavid];
  const std::size_t david = pair % static_cast<std::size_t>(np_david);
  const std::size_t goliath = pair / static_cast<std::size_t>(np_david);
  const int cols = lattice_.cols[kMover], rows = lattice_.rows[kMover];
  const std::size_t me = kMover == kDavid ? david : goliath;
  const int x0 = static_cast<int>(me % static_cast<std::size_t>(cols));
  const int y0 = static_cast<int>(me / static_cast<std::size_t>(cols));
  constexpr int kOther = kMover == kDavid ? kGoliath : kDavid;
  const std::size_t other = kMover == kDavid ? goliath : david;
  const int ocols = lattice_.cols[kOther];
  const std::int64_t ox = lattice_.cx[kOther][other % static_cast<std::size_t>(ocols)];
  const std::int64_t oy = lattice_.cy[kOther][other / static_cast<std::size_t>(ocols)];
  const std::int64_t px = lattice_.cx[kMover][static_cast<std::size_t>(x0)];
  const std::int64_t py = lattice_.cy[kMover][static_cast<std::size_t>(y0)];
  // A step shorter than (centre distance - sum of radii) cannot reach the other base: only
  // longer steps need the path test.
  const std::int64_t clear2 = lattice_.clearance2(px, py, ox, oy);
  const auto& length2 = lattice_.length2[kMover];
  // Leaf values: after David's own turn Goliath declares; after Goliath's turn David does.
  const bool leaf_goliath = actor == kDavid;
  const int layer = layer_of(flags[0]);
  // Only the moves of the side whose turn it is, in the layer being swept, are recorded: the
  // mover's state is then (slot, pair) of that layer.
  // A fixed mode also records David's flight from a tied melee in Goliath's turn (David's
  // choice, made from a Goliath state of the layer), so that a taped sweep can replay it.
  const bool cross =
      kMover == kDavid && actor == kGoliath && cross_records_ != nullptr && layer == records_layer_;
  const Destinations mode = (records_ != nullptr && layer == records_layer_ && actor == kMover)
                                ? destinations_[kMover]
                            : cross ? destinations_[kGoliath]
                                    : Destinations::kFull;
  if constexpr (M == Mode::kLinearForm) {
    // Only the discs of the layer's own states are recorded; any other leads to another
    // layer, whose values are constants to the form.
    if (mode == Destinations::kFull) {
      for (std::size_t k = 0; k < N; ++k) std::fill(best[k], best[k] + max_allowance + 1, T{});
      return;
    }
  }
  // Leaf (x, y) of the mover's lattice: for David, a run of the pair array (David's point
  // varies fastest); for Goliath, a run of the transposed copy when the leaves are David's
  // states of the layer being swept, else a strided read.
  const bool transposed = kMover == kGoliath && eval_t_ != nullptr && layer == transposed_layer_;
  const double* source = transposed ? eval_t_ : eval_;  // (or the packed copy, below)
  const double* guide_source = transposed ? guide_t_ : guide_;
  const double* free_guide_source = transposed ? free_guide_t_ : free_guide_;
  // David's own move in the layer of the packed copy: its streams must be the four David
  // slots in order (david_move_discs), whose leaves the copy holds.
  // In the both-fixed mode each stream's guide and value lie side by side in the packed copy
  // (and in the transposed one when set_transposed says so), so a destination is still one
  // cache line.
  bool packed = false;
  if constexpr ((M == Mode::kOptimal || M == Mode::kBothFixed) && kMover == kDavid &&
                N == kPackedStreams) {
    packed = packed_ != nullptr && leaf_goliath && layer == packed_layer_;
    for (std::size_t k = 0; k < N && packed; ++k)
      packed = flags[k] == (layer_flags(layer) | slot_flags(static_cast<int>(k)));
  }
  constexpr std::size_t kPackedWidth = M == Mode::kBothFixed ? 2 : 1;
  if (packed) {
    guide_source = packed_;
    source = packed_ + (kPackedWidth - 1);
  }
  const std::size_t transposed_width = transposed ? transposed_width_ : 1;
  const std::size_t stride = packed             ? kPackedStreams * kPackedWidth
                             : kMover == kDavid ? 1
                             : transposed       ? LatticeTables::kTransposedSlots * transposed_width
                                                : static_cast<std::size_t>(np_david);
  std::array<std::size_t, N> offset;
  std::array<std::uint16_t*, N> record{};
  for (std::size_t k = 0; k < N; ++k) {
    const std::uint8_t f = flags[k];
    const int slot = leaf_goliath ? DuelIndex::goliath_slot(f & kStone, f & kDazed, f & kBehead)
                                  : DuelIndex::david_slot(f & kStone, f & kDazed);
    const std::size_t base = lattice_.index.at(layer, slot, 0);
    if (packed) {
      offset[k] =
          (goliath * static_cast<std::size_t>(np_david) * kPackedStreams + k) * kPackedWidth;
    } else if (kMover == kDavid) {
      offset[k] = base + goliath * static_cast<std::size_t>(np_david);
    } else if (transposed) {
      // (slot, David's point, Goliath's point 0)
      offset[k] = lattice_.transposed(slot, david) * transposed_width;
    } else {
      offset[k] = base + david;
    }
    if (mode != Destinations::kFull && cross) {
      record[k] =
          cross_records_ + ((f & kStone ? 1 : 0) * lattice_.index.pairs() + pair) * std::size_t{13};
    } else if (mode != Destinations::kFull) {
      const int mover_slot = actor == kDavid ? DuelIndex::david_slot(f & kStone, f & kDazed)
                                             : DuelIndex::goliath_slot(f & kStone, false, false);
      record[k] =
          records_ + (static_cast<std::size_t>(mover_slot) * lattice_.index.pairs() + pair) * 13;
    }
  }
  // The leaf of stream k at lattice cell `cell` (y * cols + x, times the stride).
  auto leaf_of_cell = [&](std::size_t k, std::size_t cell) -> T {
    const std::size_t i = offset[k] + cell;
    if constexpr (M == Mode::kLinearForm) {
      return read(i);  // (no transposed or packed copy in this mode)
    } else if constexpr (M == Mode::kOptimal) {
      return source[i];
    } else if constexpr (kOneFixed) {
      return T{guide_source[i], free_guide_source[i], source[i]};
    } else {
      return T{guide_source[i], source[i]};
    }
  };
  auto leaf_at = [&](std::size_t k, int x, int y) -> T {
    return leaf_of_cell(k, static_cast<std::size_t>(y * cols + x) * stride);
  };
  const int* odx = lattice_.offset_dx[kMover].data();
  const int* ody = lattice_.offset_dy[kMover].data();
  if (mode == Destinations::kReplay) {
    // A movement roll of one die reads only the six (David: five, a six trips) allowances at
    // the top; the ones below are never read, so a replay fills them with the lowest read.
    const int lowest = std::max(0, max_allowance - (kMover == kDavid ? 4 : 5));
    for (std::size_t k = 0; k < N; ++k) {
      for (int a = lowest; a <= max_allowance; ++a) {
        const int i = record[k][a];
        best[k][a] = leaf_at(k, x0 + odx[i], y0 + ody[i]);
      }
      for (int a = 0; a < lowest; ++a) best[k][a] = best[k][lowest];
    }
    return;
  }
  // The optimal mode's streams side by side (all but David's four unpacked ones) take the scans
  // of disc_scan.h: from the destination mask when the lattice has masks, else with the tests.
  if constexpr (M == Mode::kOptimal) {
    bool adjacent = true;
    for (std::size_t k = 1; k < N; ++k) adjacent = adjacent && offset[k] == offset[0] + k;
    const std::uint64_t* mask = lattice_.destination_mask(kMover, pair);
    constexpr bool kMax = kMover == kDavid;
    if (adjacent && mask != nullptr) {  // (a replay returned above)
      const double* centre = source + offset[0] + static_cast<std::size_t>(y0 * cols + x0) * stride;
      if (mode == Destinations::kRecord) {
        scan_disc_masked<kMax, N, true>(lattice_, kMover, mask, centre, stride, max_allowance, best,
                                        record.data());
      } else {
        scan_disc_masked<kMax, N>(lattice_, kMover, mask, centre, stride, max_allowance, best);
      }
      return;
    }
    if (adjacent && mode == Destinations::kFull) {
      const DiscCentre centre{x0, y0, px, py, ox, oy, clear2};
      scan_disc_optimal<kMax, N>(lattice_, kMover, centre, source + offset[0], stride,
                                 max_allowance, best);
      return;
    }
  }
  // Staying put (offset 0) is always legal, so the running best starts there.  The loop is
  // the solver's hot spot: destinations outside the lattice are skipped with one unsigned
  // compare per axis, and only steps longer than the clearance pay for the path test.
  const std::int64_t* len2 = length2.data();
  const int* cxm = lattice_.cx[kMover].data();
  const int* cym = lattice_.cy[kMover].data();
  const auto& within = lattice_.within[kMover];
  const auto ucols = static_cast<unsigned>(cols), urows = static_cast<unsigned>(rows);
  int i = 1;
  // Calls at_cell(offset index, cell) for every legal destination among offsets [i, end), and
  // moves i to end.
  auto visit = [&](int end, auto&& at_cell) {
    for (; i < end; ++i) {
      const int x = x0 + odx[i];
      const int y = y0 + ody[i];
      if (static_cast<unsigned>(x) >= ucols || static_cast<unsigned>(y) >= urows) continue;
      if (len2[i] > clear2 && !lattice_.path_clear(px, py, cxm[x], cym[y], ox, oy)) continue;
      at_cell(i, static_cast<std::size_t>(y * cols + x) * stride);
    }
  };
  const bool recording = mode == Destinations::kRecord;
  // Streams whose leaves lie side by side (David's packed copy; Goliath's two streams in the
  // transposed copy) are folded two at a time in SSE2 lanes: one load, one compare and one
  // max or min per lane, and the choice a masked select.
  if constexpr (M == Mode::kOptimal && N % 2 == 0) {
    bool adjacent = true;
    for (std::size_t k = 1; k < N; ++k) adjacent = adjacent && offset[k] == offset[0] + k;
    if (adjacent) {
      using Lanes = double __attribute__((vector_size(16)));
      constexpr std::size_t kLanes = N / 2;
      const double* leaves = source + offset[0];
      std::array<Lanes, kLanes> run, choice{};
      auto load = [leaves](std::size_t cell, std::size_t lane) {
        Lanes v;
        std::memcpy(&v, leaves + cell + 2 * lane, sizeof v);
        return v;
      };
      for (std::size_t l = 0; l < kLanes; ++l)
        run[l] = load(static_cast<std::size_t>(y0 * cols + x0) * stride, l);
      auto fold = [&]<bool kRecord>(int offset_index, std::size_t cell) {
        for (std::size_t l = 0; l < kLanes; ++l) {
          const Lanes v = load(cell, l);
          const auto takes = kMover == kDavid ? v > run[l] : v < run[l];
          if constexpr (kRecord) {
            const double at = offset_index;
            choice[l] = takes ? Lanes{at, at} : choice[l];
          }
          run[l] = takes ? v : run[l];
        }
      };
      for (int a = 0; a <= max_allowance; ++a) {
        const int end = within[static_cast<std::size_t>(std::min(a, 12))];
        if (recording) {
          visit(end, [&](int at, std::size_t cell) { fold.template operator()<true>(at, cell); });
          for (std::size_t k = 0; k < N; ++k)
            record[k][a] = static_cast<std::uint16_t>(choice[k / 2][k % 2]);
        } else {
          visit(end, [&](int at, std::size_t cell) { fold.template operator()<false>(at, cell); });
        }
        for (std::size_t k = 0; k < N; ++k) best[k][a] = run[k / 2][k % 2];
      }
      return;
    }
  }
  // The running bests and choices are locals and the streams are unrolled, so they stay in
  // registers and a choice is a conditional move, not a branch (a recording scan used to cost
  // twice a plain one).
  std::array<T, N> run;
  std::array<int, N> chosen{};
  for (std::size_t k = 0; k < N; ++k) run[k] = leaf_at(k, x0, y0);
  auto fold = [&]<bool kRecord>(int offset_index, std::size_t cell) {
#pragma GCC unroll 4
    for (std::size_t k = 0; k < N; ++k) {
      const T v = leaf_of_cell(k, cell);
      if constexpr (kRecord) {
        chosen[k] = O::takes_second(run[k], v, kMover == kDavid) ? offset_index : chosen[k];
      }
      run[k] = kMover == kDavid ? O::david(run[k], v) : O::goliath(run[k], v);
    }
  };
  for (int a = 0; a <= max_allowance; ++a) {
    const int end = within[static_cast<std::size_t>(std::min(a, 12))];
    if (recording) {
      visit(end, [&](int at, std::size_t cell) { fold.template operator()<true>(at, cell); });
      for (std::size_t k = 0; k < N; ++k) record[k][a] = static_cast<std::uint16_t>(chosen[k]);
    } else {
      visit(end, [&](int at, std::size_t cell) { fold.template operator()<false>(at, cell); });
    }
    for (std::size_t k = 0; k < N; ++k) best[k][a] = run[k];
  }
}

}  // namespace sling::duel::detail
