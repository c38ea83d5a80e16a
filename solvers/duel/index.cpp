#include "solvers/duel/index.h"

namespace sling::duel {

DuelIndex::DuelIndex(const DuelGame& game)
    : david_cols_(game.lattice_width(kDavid)),
      david_rows_(game.lattice_height(kDavid)),
      goliath_cols_(game.lattice_width(kGoliath)),
      goliath_rows_(game.lattice_height(kGoliath)) {
  david_points_ = david_cols_ * david_rows_;
  goliath_points_ = goliath_cols_ * goliath_rows_;
  pairs_ = static_cast<std::size_t>(david_points_) * static_cast<std::size_t>(goliath_points_);
}

std::size_t DuelIndex::mirror(std::size_t p) const {
  const std::size_t nd = static_cast<std::size_t>(david_points_);
  const int d = static_cast<int>(p % nd), g = static_cast<int>(p / nd);
  const int dx = d % david_cols_, dy = d / david_cols_;
  const int gx = g % goliath_cols_, gy = g / goliath_cols_;
  return pair(david_cols_ - 1 - dx, dy, goliath_cols_ - 1 - gx, gy);
}

bool DuelIndex::canonical(std::size_t p) const {
  const std::size_t nd = static_cast<std::size_t>(david_points_);
  const int d = static_cast<int>(p % nd), g = static_cast<int>(p / nd);
  const int dx = d % david_cols_, gx = g % goliath_cols_;
  const int dhalf = (david_cols_ - 1) / 2, ghalf = (goliath_cols_ - 1) / 2;
  return dx < dhalf || (dx == dhalf && gx <= ghalf);
}

std::optional<std::size_t> DuelIndex::index_of(const DuelState& s) const {
  if (s.phase != Phase::kDeclare) return std::nullopt;
  if (s.has(kGoliathSkipsTurn)) return std::nullopt;
  const bool god = s.has(kGodAvailable), shield = s.has(kGoliathShield),
             jav = s.has(kGoliathJavelin);
  if (jav && !shield) return std::nullopt;
  const std::size_t p = pair(s.david_x, s.david_y, s.goliath_x, s.goliath_y);
  if (s.actor == kDavid) {
    if (s.has(kBeheadPending)) return std::nullopt;
    return at(layer(god, shield, jav), david_slot(s.has(kDavidHasStone), s.has(kGoliathDazed)), p);
  }
  if (s.has(kBeheadPending) && !s.has(kGoliathDazed)) return std::nullopt;
  return at(layer(god, shield, jav),
            goliath_slot(s.has(kDavidHasStone), s.has(kGoliathDazed), s.has(kBeheadPending)), p);
}

}  // namespace sling::duel
