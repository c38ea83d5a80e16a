#pragma once
// The movement disc of one centre in the optimal mode (every sweep of the refinement, and the
// solver's sweeps that choose afresh): the best leaf within each allowance, for up to four streams
// whose leaves lie side by side.  The general loop of movement_discs.h
// serves every mode through lambdas over references, and there GCC keeps the running bests in
// memory, a store and a reload per destination; here they are plain locals, so they stay in
// registers, and the loop is the offsets, two bounds compares, the path test beyond the
// clearance, and one load and one max (or min) per pair of streams.
//
// The result is bit for bit the general loop's: the same destinations are visited, and a max or a
// min does not depend on the order of its operands' visits.

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "solvers/duel/lattice_tables.h"

namespace sling::duel::detail {

// Where a disc is scanned from: the centre on the mover's lattice, and, in units, the mover's
// centre, the other figure's centre, and the squared step length below which no path test is
// needed (the clearance; -1: every step is tested).
struct DiscCentre {
  int x0 = 0, y0 = 0;
  std::int64_t px = 0, py = 0, ox = 0, oy = 0;
  std::int64_t clear2 = -1;
};

// The running bests of up to four streams whose leaves lie side by side (kStreams 1, 2 or 4), in
// SSE2 lanes when there are two or four: one load and one max (or min) per pair of streams and
// destination.  kRecord also keeps, per stream, the offset index of its best: the first of equal
// values in visiting order, as the general loop records it.
template <bool kMax, std::size_t kStreams, bool kRecord>
struct RunningBests {
  static_assert(kStreams == 1 || kStreams == 2 || kStreams == 4);
  using Lanes = double __attribute__((vector_size(16)));

  double r = 0, choice = 0;
  Lanes r0{}, r1{}, choice0{}, choice1{};

  static Lanes load(const double* p) {
    Lanes v;
    std::memcpy(&v, p, sizeof v);
    return v;
  }
  static auto takes(auto v, auto run) {
    if constexpr (kMax) {
      return v > run;
    } else {
      return v < run;
    }
  }
  // Staying put (offset 0) is always legal, so the bests start at the centre's leaves.
  explicit RunningBests(const double* centre) {
    r = centre[0];
    if constexpr (kStreams >= 2) r0 = load(centre);
    if constexpr (kStreams == 4) r1 = load(centre + 2);
  }
  // Folds in the leaves at p, those of offset index j.  Without records each fold is written as
  // a max or a min, which compiles to one instruction a lane.
  void visit(const double* p, int j) {
    if constexpr (kStreams == 1) {
      const bool t = takes(p[0], r);
      if constexpr (kRecord) choice = t ? j : choice;
      r = t ? p[0] : r;
    } else if constexpr (!kRecord) {
      const Lanes v0 = load(p);
      r0 = takes(v0, r0) ? v0 : r0;
      if constexpr (kStreams == 4) {
        const Lanes v1 = load(p + 2);
        r1 = takes(v1, r1) ? v1 : r1;
      }
    } else {
      const double at = j;
      const Lanes v0 = load(p);
      const auto t0 = takes(v0, r0);
      choice0 = t0 ? Lanes{at, at} : choice0;
      r0 = t0 ? v0 : r0;
      if constexpr (kStreams == 4) {
        const Lanes v1 = load(p + 2);
        const auto t1 = takes(v1, r1);
        choice1 = t1 ? Lanes{at, at} : choice1;
        r1 = t1 ? v1 : r1;
      }
    }
  }
  // best[k][a] (and record[k][a]) for every stream k.
  void store(double (*best)[13], std::uint16_t* const* record, int a) const {
    const double bests[4] = {kStreams == 1 ? r : r0[0], r0[1], r1[0], r1[1]};
    const double choices[4] = {kStreams == 1 ? choice : choice0[0], choice0[1], choice1[0],
                               choice1[1]};
    for (std::size_t k = 0; k < kStreams; ++k) {
      best[k][a] = bests[k];
      if constexpr (kRecord) record[k][a] = static_cast<std::uint16_t>(choices[k]);
    }
  }
};

// best[k][a], for a = 0..max_allowance and k < kStreams, is the best leaf of stream k within
// allowance a: leaves[cell * stride + k], cell = y * cols + x on the mover's lattice.  kMax: the
// mover maximises (David).
template <bool kMax, std::size_t kStreams>
void scan_disc_optimal(const LatticeTables& lattice, Side mover, const DiscCentre& c,
                       const double* leaves, std::size_t stride, int max_allowance,
                       double (*best)[13]) {
  const int side = static_cast<int>(mover);
  const int cols = lattice.cols[side];
  const auto ucols = static_cast<unsigned>(cols);
  const auto urows = static_cast<unsigned>(lattice.rows[side]);
  const int* odx = lattice.offset_dx[side].data();
  const int* ody = lattice.offset_dy[side].data();
  const std::int64_t* len2 = lattice.length2[side].data();
  const int* cxm = lattice.cx[side].data();
  const int* cym = lattice.cy[side].data();
  const auto& within = lattice.within[side];
  const DuelGeometry& geometry = lattice.geometry;
  auto at = [&](int x, int y) { return leaves + static_cast<std::size_t>(y * cols + x) * stride; };
  RunningBests<kMax, kStreams, false> run(at(c.x0, c.y0));
  int i = 1;  // offset 0 is the centre itself
  for (int a = 0; a <= max_allowance; ++a) {
    const int end = within[static_cast<std::size_t>(a < 12 ? a : 12)];
    for (; i < end; ++i) {
      const int x = c.x0 + odx[i];
      const int y = c.y0 + ody[i];
      if (static_cast<unsigned>(x) >= ucols || static_cast<unsigned>(y) >= urows) continue;
      if (len2[i] > c.clear2 && !geometry.path_clear(c.px, c.py, cxm[x], cym[y], c.ox, c.oy))
        continue;
      run.visit(at(x, y), i);
    }
    run.store(best, nullptr, a);
  }
}

// The same bests from the centre's destination mask (LatticeTables::build_destination_masks):
// only the legal destinations are visited, a bit each, with no bounds or path test.  `centre`
// points at the centre's leaves (cell * stride).  kRecord: record[k][a] also receives the offset
// index of stream k's best within allowance a.
template <bool kMax, std::size_t kStreams, bool kRecord = false>
void scan_disc_masked(const LatticeTables& lattice, Side mover, const std::uint64_t* mask,
                      const double* centre, std::size_t stride, int max_allowance,
                      double (*best)[13], std::uint16_t* const* record = nullptr) {
  const int side = static_cast<int>(mover);
  const std::ptrdiff_t* step = lattice.offset_cell[side].data();
  const auto& within = lattice.within[side];
  const auto sstride = static_cast<std::ptrdiff_t>(stride);
  RunningBests<kMax, kStreams, kRecord> run(centre);
  int i = 1;  // offset 0 is the centre itself
  for (int a = 0; a <= max_allowance; ++a) {
    const int end = within[static_cast<std::size_t>(a < 12 ? a : 12)];
    while (i < end) {
      // The bits of offsets [i, i + take) in one word of the mask.
      const int shift = i & 63;
      const int take = std::min(64 - shift, end - i);
      std::uint64_t bits = mask[i >> 6] >> shift;
      if (take < 64) bits &= (std::uint64_t{1} << take) - 1;
      while (bits != 0) {
        const int j = i + std::countr_zero(bits);
        bits &= bits - 1;
        run.visit(centre + step[j] * sstride, j);
      }
      i += take;
    }
    run.store(best, record, a);
  }
}

}  // namespace sling::duel::detail
