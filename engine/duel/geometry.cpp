#include "engine/duel/geometry.h"

#include <algorithm>
#include <cmath>

#include "engine/core/errors.h"

namespace sling::duel {

MovementDisc::MovementDisc(int reach_cm, int pitch_cm) {
  const int reach_steps = std::max(0, reach_cm) / pitch_cm;
  for (int dy = -reach_steps; dy <= reach_steps; ++dy) {
    for (int dx = -reach_steps; dx <= reach_steps; ++dx) {
      if ((dx * dx + dy * dy) * pitch_cm * pitch_cm <= reach_cm * reach_cm) {
        offsets.push_back({static_cast<std::int8_t>(dx), static_cast<std::int8_t>(dy)});
      }
    }
  }
  std::stable_sort(offsets.begin(), offsets.end(), [](LatticeOffset a, LatticeOffset b) {
    return a.dx * a.dx + a.dy * a.dy < b.dx * b.dx + b.dy * b.dy;
  });
  for (int cm = 0; cm <= 12; ++cm) {
    within[static_cast<std::size_t>(cm)] =
        static_cast<int>(std::count_if(offsets.begin(), offsets.end(), [&](LatticeOffset o) {
          return (o.dx * o.dx + o.dy * o.dy) * pitch_cm * pitch_cm <= cm * cm;
        }));
    auto& rows = half_width[static_cast<std::size_t>(cm)];
    rows.fill(-1);
    const int count = within[static_cast<std::size_t>(cm)];
    for (int i = 0; i < count; ++i) {
      const LatticeOffset o = offsets[static_cast<std::size_t>(i)];
      auto& half = rows[static_cast<std::size_t>(o.dy + kMaxRow)];
      half = std::max<std::int8_t>(half, static_cast<std::int8_t>(o.dx < 0 ? -o.dx : o.dx));
    }
  }
}

DuelGeometry::DuelGeometry(const DuelRules& rules)
    : board_units_(rules.board_cm * kUnitsPerCm),
      // Base diameters in mm are radii in half-millimetre units.
      david_radius_(rules.david_base_mm),
      goliath_radius_(rules.goliath_base_mm),
      shooting_band_(rules.shooting_band_cm * kUnitsPerCm),
      pitch_(rules.pitch_cm * kUnitsPerCm),
      sum_radii_(rules.david_base_mm + rules.goliath_base_mm) {
  // Columns are centred on the board's middle line, so both figures can start at the middle of
  // their border; rows start at each figure's own border.
  david_cols_ = 2 * ((board_units_ / 2 - david_radius_) / pitch_) + 1;
  goliath_cols_ = 2 * ((board_units_ / 2 - goliath_radius_) / pitch_) + 1;
  david_rows_ = (board_units_ - 2 * david_radius_) / pitch_ + 1;
  goliath_rows_ = (board_units_ - 2 * goliath_radius_) / pitch_ + 1;
  if (std::max({david_cols_, goliath_cols_, david_rows_, goliath_rows_}) > 63) {
    throw RulesError(
        "duel rules: the lattice is too fine for this board (at most 63 points a side)");
  }
  // Contact tolerance: any annulus of width sqrt(2) * pitch contains a lattice point (the square
  // lattice's covering radius is pitch / sqrt(2)), so contact is reachable from every direction.
  contact_tolerance_ = static_cast<int>(std::ceil(std::sqrt(2.0) * pitch_));
  contact2_ = static_cast<std::int64_t>(sum_radii_ + contact_tolerance_) *
              (sum_radii_ + contact_tolerance_);
  overlap2_ = static_cast<std::int64_t>(sum_radii_) * sum_radii_;
  first_column_ = {board_units_ / 2 - (david_cols_ - 1) / 2 * pitch_,
                   board_units_ / 2 - (goliath_cols_ - 1) / 2 * pitch_};
  first_row_ = {david_radius_, board_units_ - goliath_radius_};
  row_step_ = {pitch_, -pitch_};
  build_separation(rules);
}

void DuelGeometry::build_separation(const DuelRules& rules) {
  const auto reaches = [&](int base, std::int64_t distance2) {
    const std::int64_t reach = sum_radii_ + static_cast<std::int64_t>(base) * shooting_band_;
    return base >= 1 && distance2 < reach * reach;
  };
  separation_rows_ = david_rows_ + goliath_rows_ - 1;
  separation_.assign(static_cast<std::size_t>(david_cols_ + goliath_cols_ - 1) *
                         static_cast<std::size_t>(separation_rows_),
                     0);
  for (int column_gap = -(goliath_cols_ - 1); column_gap <= david_cols_ - 1; ++column_gap) {
    for (int row_sum = 0; row_sum < separation_rows_; ++row_sum) {
      // Any pair of positions with these differences: the distance depends on nothing else.
      const int dx = std::max(column_gap, 0), gx = dx - column_gap;
      const int dy = std::min(row_sum, david_rows_ - 1), gy = row_sum - dy;
      const std::int64_t distance2 = centre_distance2(dx, dy, gx, gy);
      std::uint8_t bits = in_contact(distance2) ? kInContact : 0;
      if (reaches(rules.david_shooting, distance2)) bits |= kDavidInRange;
      if (reaches(rules.goliath_shooting, distance2)) bits |= kGoliathInRange;
      separation_[static_cast<std::size_t>((column_gap + goliath_cols_ - 1) * separation_rows_ +
                                           row_sum)] = bits;
    }
  }
}

int DuelGeometry::distance_bands(std::int64_t distance2) const {
  int bands = 0;
  while (true) {
    const std::int64_t threshold =
        sum_radii_ + static_cast<std::int64_t>(bands + 1) * shooting_band_;
    if (distance2 < threshold * threshold) return bands;
    ++bands;
  }
}

}  // namespace sling::duel
