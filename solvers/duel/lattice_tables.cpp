#include "solvers/duel/lattice_tables.h"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <tuple>

namespace sling::duel::detail {

LatticeTables::LatticeTables(const DuelGame& g) : game(g), geometry(g.geometry()), index(g) {
  const DuelRules& r = g.rules();
  for (int side = 0; side < 2; ++side) {
    const Side s = static_cast<Side>(side);
    cols[side] = g.lattice_width(s);
    rows[side] = g.lattice_height(s);
    points[side] = cols[side] * rows[side];
    for (int x = 0; x < cols[side]; ++x) cx[side].push_back(g.centre_x(s, x));
    for (int y = 0; y < rows[side]; ++y) cy[side].push_back(g.centre_y(s, y));
    const int max_move = side == kDavid
                             ? r.david_move - 1
                             : std::max(r.goliath_move_shield, r.goliath_move_two_handed) - 1;
    const MovementDisc disc(max_move, r.pitch_cm);
    within[side] = disc.within;
    const std::int64_t step = static_cast<std::int64_t>(r.pitch_cm) * DuelGame::kUnitsPerCm;
    for (LatticeOffset o : disc.offsets) {
      length2[side].push_back((o.dx * o.dx + o.dy * o.dy) * step * step);
      offset_dx[side].push_back(o.dx);
      offset_dy[side].push_back(o.dy);
      offset_cell[side].push_back(static_cast<std::ptrdiff_t>(o.dy) * cols[side] + o.dx);
    }
  }
  sum_radii = static_cast<double>(geometry.sum_radii_units());
  const std::size_t pairs = index.pairs();
  contact.resize(pairs);
  cap_david.resize(pairs);
  cap_goliath.resize(pairs);
  valid.resize(pairs);
  DuelState s = g.initial_state();
  start_pair = index.pair(s.david_x, s.david_y, s.goliath_x, s.goliath_y);
  for (int gy = 0; gy < rows[1]; ++gy) {
    for (int gx = 0; gx < cols[1]; ++gx) {
      for (int dy = 0; dy < rows[0]; ++dy) {
        for (int dx = 0; dx < cols[0]; ++dx) {
          s.david_x = static_cast<std::uint8_t>(dx);
          s.david_y = static_cast<std::uint8_t>(dy);
          s.goliath_x = static_cast<std::uint8_t>(gx);
          s.goliath_y = static_cast<std::uint8_t>(gy);
          const std::size_t p = index.pair(dx, dy, gx, gy);
          valid[p] = !geometry.overlapping(g.centre_distance2(s));
          contact[p] = g.in_contact(s);
          cap_david[p] = static_cast<std::uint8_t>(g.shooting_capability(s, kDavid));
          cap_goliath[p] = static_cast<std::uint8_t>(g.shooting_capability(s, kGoliath));
          if (valid[p] && index.canonical(p))
            canonical_pairs.push_back(static_cast<std::uint32_t>(p));
        }
      }
    }
  }
  mirror_pair.resize(pairs);
  for (std::size_t p = 0; p < pairs; ++p)
    mirror_pair[p] = static_cast<std::uint32_t>(index.mirror(p));
  goliath_group_order = canonical_pairs;
  const auto np_david = static_cast<std::uint32_t>(points[kDavid]);
  auto tiled = [np_david](std::uint32_t p) {
    const std::uint32_t david = p % np_david, goliath = p / np_david;
    return std::tuple(david / kDavidTile, goliath, david % kDavidTile);
  };
  std::sort(goliath_group_order.begin(), goliath_group_order.end(),
            [&](std::uint32_t a, std::uint32_t b) { return tiled(a) < tiled(b); });
  for (int d = 1; d <= 6; ++d) {
    for (int o = 1; o <= 6; ++o) {
      const int david = d + r.combat_david;
      melee_sign_shield[d][o] =
          (david > o + r.combat_goliath_shield) - (david < o + r.combat_goliath_shield);
      melee_sign_two_handed[d][o] =
          (david > o + r.combat_goliath_two_handed) - (david < o + r.combat_goliath_two_handed);
    }
  }
}

void LatticeTables::build_destination_masks() {
  if (!masks_[kDavid].empty()) return;
  const std::size_t pairs = index.pairs();
  const auto np_david = static_cast<std::size_t>(points[kDavid]);
  for (int side = 0; side < 2; ++side) {
    mask_words_[side] = (offset_dx[side].size() + 63) / 64;
    masks_[side].assign(pairs * mask_words_[side], 0);
  }
  tbb::parallel_for(
      tbb::blocked_range<std::size_t>(0, pairs, 1024),
      [&](const tbb::blocked_range<std::size_t>& range) {
        for (std::size_t p = range.begin(); p != range.end(); ++p) {
          if (!valid[p]) continue;
          const std::size_t at[2] = {p % np_david, p / np_david};
          for (int side = 0; side < 2; ++side) {
            const int other = 1 - side;
            const int x0 = static_cast<int>(at[side] % static_cast<std::size_t>(cols[side]));
            const int y0 = static_cast<int>(at[side] / static_cast<std::size_t>(cols[side]));
            const std::size_t o = at[other];
            const std::int64_t ox = cx[other][o % static_cast<std::size_t>(cols[other])];
            const std::int64_t oy = cy[other][o / static_cast<std::size_t>(cols[other])];
            const std::int64_t px = cx[side][static_cast<std::size_t>(x0)];
            const std::int64_t py = cy[side][static_cast<std::size_t>(y0)];
            const std::int64_t clear2 = clearance2(px, py, ox, oy);
            std::uint64_t* mask = masks_[side].data() + p * mask_words_[side];
            mask[0] |= 1;  // staying put
            for (std::size_t i = 1; i < offset_dx[side].size(); ++i) {
              const int x = x0 + offset_dx[side][i], y = y0 + offset_dy[side][i];
              if (x < 0 || x >= cols[side] || y < 0 || y >= rows[side]) continue;
              if (length2[side][i] > clear2 &&
                  !path_clear(px, py, cx[side][static_cast<std::size_t>(x)],
                              cy[side][static_cast<std::size_t>(y)], ox, oy))
                continue;
              mask[i / 64] |= std::uint64_t{1} << (i % 64);
            }
          }
        }
      });
}

}  // namespace sling::duel::detail
