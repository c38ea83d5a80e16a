#pragma once
// The index of the duel's declare states: (layer, slot, position pair), and the mirror symmetry.

#include <cstddef>
#include <cstdint>
#include <optional>

#include "engine/duel/duel.h"

namespace sling::duel {

// Indexing of the declare states (the lattice itself is engine/duel/geometry.h).
class DuelIndex {
 public:
  static constexpr int kLayers = 6;  // (God available, kit) with kit 0 none, 1 shield, 2 both
  static constexpr int kSlots = 10;  // 4 David slots (stone, dazed), 6 Goliath slots
  explicit DuelIndex(const DuelGame& game);

  int david_points() const { return david_points_; }
  int goliath_points() const { return goliath_points_; }
  std::size_t pairs() const { return pairs_; }
  std::size_t size() const { return static_cast<std::size_t>(kLayers) * kSlots * pairs_; }

  std::size_t pair(int david_x, int david_y, int goliath_x, int goliath_y) const {
    return static_cast<std::size_t>(goliath_y * goliath_cols_ + goliath_x) * david_points_ +
           static_cast<std::size_t>(david_y * david_cols_ + david_x);
  }
  std::size_t mirror(std::size_t pair) const;
  bool canonical(std::size_t pair) const;
  static int layer(bool god, bool shield, bool javelin) {
    return (god ? 3 : 0) + (shield ? (javelin ? 2 : 1) : 0);
  }
  static int david_slot(bool stone, bool dazed) { return (stone ? 2 : 0) + (dazed ? 1 : 0); }
  static int goliath_slot(bool stone, bool dazed, bool behead_pending) {
    return 4 + (stone ? 3 : 0) + (dazed ? (behead_pending ? 2 : 1) : 0);
  }
  std::size_t at(int layer, int slot, std::size_t pair) const {
    return (static_cast<std::size_t>(layer) * kSlots + static_cast<std::size_t>(slot)) * pairs_ +
           pair;
  }
  // The index of a state at which a side declares (turn ignored); nullopt for other states.
  std::optional<std::size_t> index_of(const DuelState& s) const;

 private:
  int david_cols_, david_rows_, goliath_cols_, goliath_rows_;
  int david_points_, goliath_points_;
  std::size_t pairs_;
};

// Calls visit() once for every placement of both figures on `game`'s lattice whose bases do not
// overlap, with `s`'s positions set to it (its other fields as the caller left them).
template <class Visit>
void for_each_placement(const DuelGame& game, DuelState& s, Visit&& visit) {
  const std::int64_t radii = game.rules().david_base_mm + game.rules().goliath_base_mm;
  for (int gy = 0; gy < game.lattice_height(kGoliath); ++gy) {
    for (int gx = 0; gx < game.lattice_width(kGoliath); ++gx) {
      for (int dy = 0; dy < game.lattice_height(kDavid); ++dy) {
        for (int dx = 0; dx < game.lattice_width(kDavid); ++dx) {
          s.david_x = static_cast<std::uint8_t>(dx);
          s.david_y = static_cast<std::uint8_t>(dy);
          s.goliath_x = static_cast<std::uint8_t>(gx);
          s.goliath_y = static_cast<std::uint8_t>(gy);
          if (game.centre_distance2(s) >= radii * radii) visit();
        }
      }
    }
  }
}

}  // namespace sling::duel
