#pragma once
// The solver's per-pair tables of the duel's lattice (the geometry itself: engine/duel/geometry.h).

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "engine/duel/duel.h"
#include "solvers/duel/index.h"

namespace sling::duel::detail {

// The solver's tables of the lattice, all taken from the engine's geometry (DuelGame and
// engine/duel/geometry.h), so they agree with the game: lattice centres, the movement offsets of
// each side sorted by length, and per position pair the contact flag and the shooting
// capabilities, with the orders in which a sweep visits the pairs.
struct LatticeTables {
  const DuelGame& game;
  const DuelGeometry geometry;  // (a copy: the movement discs' inner loop reads it)
  DuelIndex index;
  int cols[2], rows[2], points[2];
  std::vector<int> cx[2], cy[2];
  std::array<int, 13> within[2]{};
  double sum_radii = 0;
  std::vector<std::int64_t> length2[2];         // squared length of each offset, in units
  std::vector<int> offset_dx[2], offset_dy[2];  // the offsets as plain arrays (the hot loop)
  std::vector<std::uint8_t> contact, cap_david, cap_goliath, valid;
  std::vector<std::uint32_t> canonical_pairs;  // valid pairs with x on the canonical half
  std::vector<std::uint32_t> mirror_pair;      // index.mirror of every pair (read per update)
  // The same pairs in the order of Goliath's group in a sweep: tiles of kDavidTile consecutive
  // David points, Goliath's point slower than David's within a tile.  A Goliath move reads the
  // David values of one David point (a block of the transposed copy), so a tile's few blocks stay
  // in cache, where pair order needed a new block for every pair and the disc scan waited on
  // memory; and the tile's states of one Goliath point share cache lines that no other tile
  // writes (ordering by David's point alone had two threads writing the same lines).
  static constexpr std::uint32_t kDavidTile = 8;
  std::vector<std::uint32_t> goliath_group_order;
  std::size_t start_pair = 0;
  std::array<std::array<int, 7>, 7> melee_sign_shield{}, melee_sign_two_handed{};

  explicit LatticeTables(const DuelGame& g);

  // Position of (David slot, pair) in a transposed copy: the four David slots of a pair side by
  // side, then Goliath's point, then David's.  The slots go in the order 0, 2, 1, 3, so the two
  // that a Goliath move leads to (David without and with the stone, Goliath fit: slots 0 and 2)
  // are adjacent and his disc folds both streams with one load per destination.
  static constexpr std::size_t kTransposedSlots = 4;
  std::size_t transposed(int slot, std::size_t pair) const {
    constexpr std::array<std::size_t, kTransposedSlots> kPosition = {0, 2, 1, 3};
    const std::size_t nd = static_cast<std::size_t>(points[kDavid]);
    return ((pair % nd) * static_cast<std::size_t>(points[kGoliath]) + pair / nd) *
               kTransposedSlots +
           kPosition[static_cast<std::size_t>(slot)];
  }

  // How many declare states `layers` layers of the index hold: over every valid pair, and over the
  // canonical pairs only (what the solvers sweep after the left-right symmetry).
  std::uint64_t declare_states(std::size_t layers) const {
    std::uint64_t valid_pairs = 0;
    for (std::uint8_t v : valid) valid_pairs += v;
    return valid_pairs * DuelIndex::kSlots * layers;
  }
  std::uint64_t canonical_declare_states(std::size_t layers) const {
    return canonical_pairs.size() * DuelIndex::kSlots * layers;
  }

  // The squared step length (units^2) within which a mover at (px, py) cannot reach the other
  // figure at (ox, oy), so needs no path test: (centre distance - sum of radii - 1 unit)^2, or
  // -1 when the figures are that close.
  std::int64_t clearance2(std::int64_t px, std::int64_t py, std::int64_t ox,
                          std::int64_t oy) const {
    const double clearance =
        std::sqrt(static_cast<double>((px - ox) * (px - ox) + (py - oy) * (py - oy))) - sum_radii;
    return clearance > 1 ? static_cast<std::int64_t>((clearance - 1) * (clearance - 1)) : -1;
  }

  // Destination masks: per valid pair and mover, one bit per movement offset (in length order),
  // set where the step lands on the lattice and its path is clear of the other figure.  With
  // them a movement disc visits its legal destinations only, without a bounds or a path test
  // (disc_scan.h); sweeps that read every disc hundreds of times build them once
  // (build_destination_masks: one pass of path tests, in parallel; 80 bytes a pair at 1 cm).
  void build_destination_masks();
  const std::uint64_t* destination_mask(int side, std::size_t pair) const {
    return masks_[side].empty() ? nullptr : masks_[side].data() + pair * mask_words_[side];
  }
  // Offset i of a side as a step in cells of its lattice (dy * cols + dx).
  std::vector<std::ptrdiff_t> offset_cell[2];

  // DuelGame::destination_legal for an in-disc, in-board, non-zero step (the offset lists already
  // bound the step): the engine's own test.
  bool path_clear(std::int64_t px, std::int64_t py, std::int64_t qx, std::int64_t qy,
                  std::int64_t cx0, std::int64_t cy0) const {
    return geometry.path_clear(px, py, qx, qy, cx0, cy0);
  }

 private:
  std::vector<std::uint64_t> masks_[2];
  std::size_t mask_words_[2] = {0, 0};
};

}  // namespace sling::duel::detail
