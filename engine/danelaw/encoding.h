#pragma once
// Danelaw for learning code: a dense index of the decisions, and the position as planes on the
// map's hex grid (the Python environment's action space and observation, docs/python.md; the C++
// learner's policy head and input later).
//
// The dense action index.  Danelaw's action codes are sparse (kind << 16 | payload, danelaw.h),
// too sparse for a mask or a network's output.  The decisions are numbered instead:
//   slot * H + hex   for the 7 kinds whose payload is a hex, slots 0..6 in kHexActionKinds's order
//                    (place, reinforce, select, move to, attack, roll, rout step);
//   7 * H + slot     for the 5 kinds without a payload, slots 0..4 in kPlainActionKinds's order
//                    (end movement, stop rolling, end battles, advance, hold);
// where H is the map's hex count (the hex index of HexMap), so N = 7 * H + 5: 4240 on
// england.json.  N depends on the map only; every index names a well-formed decision code and
// every decision code of that map has one index (a bijection), whether or not a given state
// allows it.  Chance outcomes (the dice) have no index: the environment rolls them.
//
// The planes.  An observation is kPlaneCount planes of height() x width() float32 numbers in
// [0, 1], row-major [plane][row][column], on the map's odd-r offset grid: row = r - min r, column
// = HexMap::column_of(q, r) - min column, so that hex "CCRR" sits at column CC and row RR (less
// the map's smallest ones).  Cells with no hex are 0 except in the constant planes, which fill
// the whole grid.  The planes are the Plane enum's, in its order; plane_name() names them.
// (Plane is scoped: its kDanes and kEnglish... are not the Side constants.)

#include <array>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "engine/danelaw/danelaw.h"

namespace sling::danelaw {

inline constexpr std::array<ActionKind, 7> kHexActionKinds = {
    ActionKind::kPlace,  ActionKind::kReinforce, ActionKind::kSelect,  ActionKind::kMoveTo,
    ActionKind::kAttack, ActionKind::kRoll,      ActionKind::kRoutStep};
inline constexpr std::array<ActionKind, 5> kPlainActionKinds = {
    ActionKind::kEndMove, ActionKind::kStop, ActionKind::kEndBattles, ActionKind::kAdvance,
    ActionKind::kHold};

enum class Plane : int {
  // The map, the same in every position of a game.
  kOnMap,          // a hex of the map
  kSea,            // terrain, one-hot
  kPlain,          //
  kHills,          //
  kWetland,        //
  kForest,         //
  kRiver,          // sides of the hex with a river, divided by 6
  kTown,           // a town
  kCoastal,        // a land hex next to the sea
  kSeaSector,      // the sea sector (1..6) divided by 6, on sea hexes
  kFieldArmyTown,  // a town where English field armies appear (the rules' field_army_towns)
  // The position.
  kDanishTown,      // a town the Danes control
  kEnglishTown,     // a town the English control (every town the Danes do not)
  kDanes,           // a Danish army
  kEnglishField,    // an English field army
  kEnglishMilitia,  // English militia (they never move; a rout destroys them)
  kRolled,          // an army that has rolled in this half-turn's battles
  kSelected,        // the army chosen to move, or the army that rolled last
  kTarget,          // the attacked hex
  kRoutHex,         // the routing army
  kRoutFrom,        // the army it routs from
  // Constant planes: one number over the whole grid.
  kToActEnglish,        // 1 when the English decide now (a rout step is its army owner's decision)
  kHalfTurnEnglish,     // 1 in the English half-turn
  kPhase,               // 12 planes, the phase one-hot in Phase's order (kPhase + phase)
  kTurn = kPhase + 12,  // the turn divided by the turn limit
  kPoints,              // movement points left, divided by 12
  kBattleRoll,          // the standing roll of the current attack divided by 12 (0: none yet)
  kAttackRolls,         // rolls made in the current attack, divided by 6
  kRoutSteps,           // rout hexes still to move, divided by 6
  kToPlace,             // Danish armies still to place at sea, divided by the Danish pool
  kDanishPool,          // Danish armies not yet in play, divided by the Danish pool
  kEnglishPool,         // English armies not yet in play, divided by the English pool
  kDanishTownCount,     // towns the Danes hold, divided by towns_to_win (capped at 1)
  kCount
};
inline constexpr int kPlaneCount = static_cast<int>(Plane::kCount);
constexpr int plane_index(Plane p) {
  return static_cast<int>(p);
}

// The name of a plane ("danes", "phase_move", ...), as docs/python.md and the Python module list
// them.
std::string_view plane_name(int plane);

class DanelawEncoding {
 public:
  explicit DanelawEncoding(const HexMap& map);

  // The dense action index.
  int action_count() const { return action_count_; }
  // The index of a decision code, or -1 for a chance outcome or a code that is no decision of
  // this map (a hex off the map, a payload on a kind that takes none).
  int action_index(Action code) const;
  // The decision code of an index; throws std::out_of_range outside 0..action_count() - 1.
  Action action_code(int index) const;
  // 1 at the index of each legal decision of `s`, 0 elsewhere (all 0 at chance nodes and at the
  // end); `mask` has action_count() entries.
  void legal_action_mask(const DanelawGame& game, const State& s,
                         std::span<std::uint8_t> mask) const;

  // The planes' grid.
  int height() const { return height_; }
  int width() const { return width_; }
  int observation_size() const { return kPlaneCount * height_ * width_; }
  // The grid cell (row * width() + column) of each hex.
  const std::vector<int>& hex_cells() const { return cells_; }
  // Writes observation_size() numbers: the planes of `s`, a state of `game` (whose map this
  // encoding was built from).
  void observation(const DanelawGame& game, const State& s, std::span<float> out) const;

 private:
  void map_planes(const DanelawGame& game, std::span<float> out) const;
  void position_planes(const DanelawGame& game, const State& s, std::span<float> out) const;
  void constant_planes(const DanelawGame& game, const State& s, std::span<float> out) const;

  int hex_count_ = 0;
  int action_count_ = 0;
  int height_ = 0;
  int width_ = 0;
  std::vector<int> cells_;  // [hex] -> row * width_ + column
};

}  // namespace sling::danelaw
