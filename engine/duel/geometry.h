#pragma once
// The duel's board geometry, once, for the game and its exact solver (docs/rules/duel.md): the
// lattices the figures stand on, centre distances, contact, shooting bands, the movement discs as
// lattice offsets sorted by length, and the legality of a straight move past the other base.
// Everything is exact integer arithmetic in half-millimetre units, so "full 5 cm", contact and
// overlap never depend on floating-point rounding.

#include <array>
#include <cstdint>
#include <vector>

#include "engine/duel/duel_rules.h"

namespace sling::duel {

enum Side : std::uint8_t { kDavid = 0, kGoliath = 1 };

// A move of dx, dy lattice steps.
struct LatticeOffset {
  std::int8_t dx, dy;
};

// The offsets of a movement disc: every step of at most `reach_cm` centimetres (a pitch of
// `pitch_cm` per lattice step), sorted by length (stably, so equal lengths keep row order).
// within[cm] is how many of them lie within cm centimetres, for cm = 0..12: the disc of an
// allowance is a prefix of the list.  Each row of a disc is an unbroken run of columns:
// half_width[cm][dy + kMaxRow] is the largest |dx| of row dy within cm centimetres (-1 when the
// row is empty), which lets a sampler count and index the disc's points on the board directly.
struct MovementDisc {
  static constexpr int kMaxRow = 12;  // an allowance is at most 12 cm and a pitch at least 1 cm
  std::vector<LatticeOffset> offsets;
  std::array<int, 13> within{};
  std::array<std::array<std::int8_t, 2 * kMaxRow + 1>, 13> half_width{};
  MovementDisc(int reach_cm, int pitch_cm);
};

class DuelGeometry {
 public:
  static constexpr int kUnitsPerCm = 20;

  // Throws RulesError when the lattice needs more than 63 points a side.
  explicit DuelGeometry(const DuelRules& rules);

  int lattice_width(Side side) const { return side == kDavid ? david_cols_ : goliath_cols_; }
  int lattice_height(Side side) const { return side == kDavid ? david_rows_ : goliath_rows_; }
  // Centre of a figure at lattice (x, y), in units.  Columns are centred on the board's middle
  // line; rows count from each figure's own border.
  // Both are a side's first column or row plus whole steps (Goliath's rows step down the board),
  // kept per side so that a rollout's every ply computes a centre with one multiply-add.
  int centre_x(Side side, int x) const { return first_column_[side] + x * pitch_; }
  int centre_y(Side side, int y) const { return first_row_[side] + y * row_step_[side]; }
  // Squared distance between David at lattice (dx, dy) and Goliath at (gx, gy), in units^2.
  std::int64_t centre_distance2(int dx, int dy, int gx, int gy) const {
    const std::int64_t x = centre_x(kDavid, dx) - centre_x(kGoliath, gx);
    const std::int64_t y = centre_y(kDavid, dy) - centre_y(kGoliath, gy);
    return x * x + y * y;
  }
  // What the figures' separation allows, for David at (dx, dy) and Goliath at (gx, gy): a bit set
  // of kInContact and, for each side, whether its missile reaches (kDavidInRange, kGoliathInRange:
  // the rules' shooting capability less the full bands between the figures is at least 1).  It
  // depends only on dx - gx and dy + gy, so it is one table lookup, built once for the rules;
  // the declarations ask it at every turn of a rollout.
  static constexpr std::uint8_t kInContact = 1, kDavidInRange = 2, kGoliathInRange = 4;
  std::uint8_t separation(int dx, int dy, int gx, int gy) const {
    return separation_[static_cast<std::size_t>((dx - gx + goliath_cols_ - 1) * separation_rows_ +
                                                dy + gy)];
  }
  bool in_contact(std::int64_t distance2) const { return distance2 <= contact2_; }
  bool overlapping(std::int64_t distance2) const { return distance2 < overlap2_; }
  // Full shooting bands between the figures' edges (0 when closer than one band).
  int distance_bands(std::int64_t distance2) const;

  int pitch_units() const { return pitch_; }
  int shooting_band_units() const { return shooting_band_; }
  int sum_radii_units() const { return sum_radii_; }
  int contact_tolerance_units() const { return contact_tolerance_; }
  std::int64_t overlap2() const { return overlap2_; }

  // Is the straight move from centre p to centre q (a non-zero step, already within its
  // allowance and on the board) legal past the other figure centred at c?  The destination may
  // touch but not overlap the other base, and the path may not pass through it: where the
  // closest approach to c lies inside the segment, the perpendicular distance must be at least
  // the sum of radii.  Inline: the solver's movement discs call it in their inner loop.
  bool path_clear(std::int64_t px, std::int64_t py, std::int64_t qx, std::int64_t qy,
                  std::int64_t cx, std::int64_t cy) const {
    const std::int64_t end2 = (qx - cx) * (qx - cx) + (qy - cy) * (qy - cy);
    if (end2 < overlap2_) return false;
    const std::int64_t step2 = (qx - px) * (qx - px) + (qy - py) * (qy - py);
    const std::int64_t dot = (cx - px) * (qx - px) + (cy - py) * (qy - py);
    if (dot > 0 && dot < step2) {
      const std::int64_t cross = (qx - px) * (cy - py) - (qy - py) * (cx - px);
      if (static_cast<__int128>(cross) * cross < static_cast<__int128>(overlap2_) * step2)
        return false;
    }
    return true;
  }

 private:
  void build_separation(const DuelRules& rules);

  int board_units_ = 0;
  int david_radius_ = 0, goliath_radius_ = 0;
  int shooting_band_ = 0;  // units
  int david_cols_ = 0, david_rows_ = 0, goliath_cols_ = 0, goliath_rows_ = 0;
  int pitch_ = 0;              // units
  int sum_radii_ = 0;          // units
  int contact_tolerance_ = 0;  // units
  std::int64_t contact2_ = 0;
  std::int64_t overlap2_ = 0;  // centres closer than this overlap
  std::array<int, 2> first_column_{}, first_row_{}, row_step_{};  // units, per side
  int separation_rows_ = 0;                                       // dy + gy takes this many values
  std::vector<std::uint8_t> separation_;                          // see separation()
};

}  // namespace sling::duel
