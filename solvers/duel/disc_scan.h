#pragma once
// The movement disc of one centre in the optimal mode when no destination is recorded (every
// sweep of the refinement, and the solver's plain sweeps): the best leaf within each allowance,
// for up to four streams whose leaves lie side by side.  The general loop of movement_discs.h
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

// best[k][a], for a = 0..max_allowance and k < kStreams, is the best leaf of stream k within
// allowance a: leaves[cell * stride + k], cell = y * cols + x on the mover's lattice.  kMax: the
// mover maximises (David).  kStreams is 1, 2 or 4.
template <bool kMax, std::size_t kStreams>
void scan_disc_optimal(const LatticeTables& lattice, Side mover, const DiscCentre& c,
                       const double* leaves, std::size_t stride, int max_allowance,
                       double (*best)[13]) {
  static_assert(kStreams == 1 || kStreams == 2 || kStreams == 4);
  using Lanes = double __attribute__((vector_size(16)));
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
  auto load = [](const double* p) {
    Lanes v;
    std::memcpy(&v, p, sizeof v);
    return v;
  };
  auto better = [](auto v, auto run) {
    if constexpr (kMax) {
      return v > run ? v : run;
    } else {
      return v < run ? v : run;
    }
  };
  // Staying put (offset 0) is always legal, so the running bests start there.
  const double* centre = at(c.x0, c.y0);
  double r = centre[0];
  Lanes r0{}, r1{};
  if constexpr (kStreams >= 2) r0 = load(centre);
  if constexpr (kStreams == 4) r1 = load(centre + 2);
  int i = 1;
  for (int a = 0; a <= max_allowance; ++a) {
    const int end = within[static_cast<std::size_t>(a < 12 ? a : 12)];
    for (; i < end; ++i) {
      const int x = c.x0 + odx[i];
      const int y = c.y0 + ody[i];
      if (static_cast<unsigned>(x) >= ucols || static_cast<unsigned>(y) >= urows) continue;
      if (len2[i] > c.clear2 && !geometry.path_clear(c.px, c.py, cxm[x], cym[y], c.ox, c.oy))
        continue;
      const double* p = at(x, y);
      if constexpr (kStreams == 1) {
        r = better(p[0], r);
      } else {
        r0 = better(load(p), r0);
        if constexpr (kStreams == 4) r1 = better(load(p + 2), r1);
      }
    }
    if constexpr (kStreams == 1) {
      best[0][a] = r;
    } else {
      best[0][a] = r0[0];
      best[1][a] = r0[1];
      if constexpr (kStreams == 4) {
        best[2][a] = r1[0];
        best[3][a] = r1[1];
      }
    }
  }
}

// The same bests from the centre's destination mask (LatticeTables::build_destination_masks):
// only the legal destinations are visited, a bit each, with no bounds or path test.  `centre`
// points at the centre's leaves (cell * stride).  kRecord: record[k][a] also receives the offset
// index of stream k's best within allowance a (the first of equal ones in length order, as the
// general loop records it).
template <bool kMax, std::size_t kStreams, bool kRecord = false>
void scan_disc_masked(const LatticeTables& lattice, Side mover, const std::uint64_t* mask,
                      const double* centre, std::size_t stride, int max_allowance,
                      double (*best)[13], std::uint16_t* const* record = nullptr) {
  static_assert(kStreams == 1 || kStreams == 2 || kStreams == 4);
  using Lanes = double __attribute__((vector_size(16)));
  const int side = static_cast<int>(mover);
  const std::ptrdiff_t* step = lattice.offset_cell[side].data();
  const auto& within = lattice.within[side];
  const auto sstride = static_cast<std::ptrdiff_t>(stride);
  auto load = [](const double* p) {
    Lanes v;
    std::memcpy(&v, p, sizeof v);
    return v;
  };
  auto takes = [](auto v, auto run) {
    if constexpr (kMax) {
      return v > run;
    } else {
      return v < run;
    }
  };
  double r = centre[0];
  Lanes r0{}, r1{};
  if constexpr (kStreams >= 2) r0 = load(centre);
  if constexpr (kStreams == 4) r1 = load(centre + 2);
  double choice = 0;
  Lanes choice0{}, choice1{};
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
        const double* p = centre + step[j] * sstride;
        if constexpr (!kRecord) {
          // (written as a max or min, which compiles to one instruction a lane)
          if constexpr (kStreams == 1) {
            r = takes(p[0], r) ? p[0] : r;
          } else {
            const Lanes v0 = load(p);
            r0 = takes(v0, r0) ? v0 : r0;
            if constexpr (kStreams == 4) {
              const Lanes v1 = load(p + 2);
              r1 = takes(v1, r1) ? v1 : r1;
            }
          }
        } else if constexpr (kStreams == 1) {
          const bool t = takes(p[0], r);
          choice = t ? j : choice;
          r = t ? p[0] : r;
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
      i += take;
    }
    if constexpr (kStreams == 1) {
      best[0][a] = r;
      if constexpr (kRecord) record[0][a] = static_cast<std::uint16_t>(choice);
    } else {
      best[0][a] = r0[0];
      best[1][a] = r0[1];
      if constexpr (kRecord) {
        record[0][a] = static_cast<std::uint16_t>(choice0[0]);
        record[1][a] = static_cast<std::uint16_t>(choice0[1]);
      }
      if constexpr (kStreams == 4) {
        best[2][a] = r1[0];
        best[3][a] = r1[1];
        if constexpr (kRecord) {
          record[2][a] = static_cast<std::uint16_t>(choice1[0]);
          record[3][a] = static_cast<std::uint16_t>(choice1[1]);
        }
      }
    }
  }
}

}  // namespace sling::duel::detail
