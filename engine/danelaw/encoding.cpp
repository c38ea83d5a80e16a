#include "engine/danelaw/encoding.h"

#include <algorithm>
#include <bit>
#include <climits>
#include <stdexcept>
#include <string>
#include <utility>

namespace sling::danelaw {

namespace {

constexpr int kHexKinds = static_cast<int>(kHexActionKinds.size());

constexpr std::array<std::string_view, kPlaneCount> kPlaneNames = {"on_map",
                                                                   "sea",
                                                                   "plain",
                                                                   "hills",
                                                                   "wetland",
                                                                   "forest",
                                                                   "river",
                                                                   "town",
                                                                   "coastal",
                                                                   "sea_sector",
                                                                   "field_army_town",
                                                                   "danish_town",
                                                                   "english_town",
                                                                   "danes",
                                                                   "english_field",
                                                                   "english_militia",
                                                                   "rolled",
                                                                   "selected",
                                                                   "target",
                                                                   "rout_hex",
                                                                   "rout_from",
                                                                   "to_act_english",
                                                                   "half_turn_english",
                                                                   "phase_place",
                                                                   "phase_movement_dice",
                                                                   "phase_reinforce",
                                                                   "phase_move",
                                                                   "phase_move_destination",
                                                                   "phase_choose_target",
                                                                   "phase_choose_roller",
                                                                   "phase_battle_dice",
                                                                   "phase_advance",
                                                                   "phase_rout_dice",
                                                                   "phase_rout_step",
                                                                   "phase_game_over",
                                                                   "turn",
                                                                   "points",
                                                                   "battle_roll",
                                                                   "attack_rolls",
                                                                   "rout_steps",
                                                                   "to_place",
                                                                   "danish_pool",
                                                                   "english_pool",
                                                                   "danish_town_count"};
static_assert(static_cast<int>(Phase::kGameOver) == 11, "the phase planes are 12");
static_assert(static_cast<int>(Terrain::kSea) == 0 && static_cast<int>(Terrain::kForest) == 4,
              "the terrain planes are 5");

// The slot of each action kind among kHexActionKinds (0..6) or kPlainActionKinds (7..11), -1 for
// the chance kinds and kNone.
constexpr std::array<int, 256> make_slots() {
  std::array<int, 256> slots{};
  slots.fill(-1);
  for (int i = 0; i < kHexKinds; ++i) slots[static_cast<int>(kHexActionKinds[i])] = i;
  for (int i = 0; i < static_cast<int>(kPlainActionKinds.size()); ++i) {
    slots[static_cast<int>(kPlainActionKinds[i])] = kHexKinds + i;
  }
  return slots;
}
constexpr std::array<int, 256> kSlots = make_slots();

float ratio(int value, int whole) {
  return whole > 0 ? std::min(1.0f, static_cast<float>(value) / static_cast<float>(whole)) : 0.0f;
}

}  // namespace

std::string_view plane_name(int plane) {
  if (plane < 0 || plane >= kPlaneCount) {
    throw std::out_of_range("danelaw plane " + std::to_string(plane) + ": planes are 0.." +
                            std::to_string(kPlaneCount - 1));
  }
  return kPlaneNames[static_cast<std::size_t>(plane)];
}

DanelawEncoding::DanelawEncoding(const HexMap& map)
    : hex_count_(map.size()), action_count_(kHexKinds * map.size() + 5) {
  int row_min = INT_MAX, row_max = INT_MIN, column_min = INT_MAX, column_max = INT_MIN;
  for (const HexInfo& h : map.hexes()) {
    const int column = HexMap::column_of(h.q, h.r);
    row_min = std::min(row_min, h.r);
    row_max = std::max(row_max, h.r);
    column_min = std::min(column_min, column);
    column_max = std::max(column_max, column);
  }
  height_ = row_max - row_min + 1;
  width_ = column_max - column_min + 1;
  cells_.reserve(map.hexes().size());
  for (const HexInfo& h : map.hexes()) {
    cells_.push_back((h.r - row_min) * width_ + HexMap::column_of(h.q, h.r) - column_min);
  }
}

int DanelawEncoding::action_index(Action code) const {
  if (code >> 24) return -1;
  const int slot = kSlots[(code >> 16) & 0xff];
  const int payload = action_payload(code);
  if (slot < 0) return -1;
  if (slot < kHexKinds) return payload < hex_count_ ? slot * hex_count_ + payload : -1;
  return payload == 0 ? kHexKinds * hex_count_ + (slot - kHexKinds) : -1;
}

Action DanelawEncoding::action_code(int index) const {
  if (index < 0 || index >= action_count_) {
    throw std::out_of_range("danelaw action index " + std::to_string(index) + ": indices are 0.." +
                            std::to_string(action_count_ - 1));
  }
  if (index < kHexKinds * hex_count_) {
    return make_action(kHexActionKinds[static_cast<std::size_t>(index / hex_count_)],
                       index % hex_count_);
  }
  return make_action(kPlainActionKinds[static_cast<std::size_t>(index - kHexKinds * hex_count_)]);
}

void DanelawEncoding::legal_action_mask(const DanelawGame& game, const State& s,
                                        std::span<std::uint8_t> mask) const {
  std::fill(mask.begin(), mask.end(), std::uint8_t{0});
  if (game.current_player(s) < 0) return;
  ActionList<DanelawGame> legal;
  game.legal_actions(s, legal);
  for (const Action a : legal) mask[static_cast<std::size_t>(action_index(a))] = 1;
}

void DanelawEncoding::observation(const DanelawGame& game, const State& s,
                                  std::span<float> out) const {
  std::fill(out.begin(), out.end(), 0.0f);
  map_planes(game, out);
  position_planes(game, s, out);
  constant_planes(game, s, out);
}

void DanelawEncoding::map_planes(const DanelawGame& game, std::span<float> out) const {
  const std::size_t plane = static_cast<std::size_t>(height_ * width_);
  const auto at = [&](Plane p, int hex) -> float& {
    return out[static_cast<std::size_t>(plane_index(p)) * plane +
               static_cast<std::size_t>(cells_[hex])];
  };
  const HexMap& map = game.map();
  for (int h = 0; h < hex_count_; ++h) {
    const HexInfo& info = map.hex(h);
    at(Plane::kOnMap, h) = 1.0f;
    // The terrain planes follow Terrain's order.
    at(static_cast<Plane>(plane_index(Plane::kSea) + static_cast<int>(info.terrain)), h) = 1.0f;
    at(Plane::kRiver, h) = static_cast<float>(std::popcount(info.river_sides)) / kDirections;
    if (info.town >= 0) at(Plane::kTown, h) = 1.0f;
    if (info.coastal) at(Plane::kCoastal, h) = 1.0f;
    at(Plane::kSeaSector, h) = static_cast<float>(info.sector) / kSeaSectors;
  }
  for (const int h : game.field_army_hexes()) at(Plane::kFieldArmyTown, h) = 1.0f;
}

void DanelawEncoding::position_planes(const DanelawGame& game, const State& s,
                                      std::span<float> out) const {
  const std::size_t plane = static_cast<std::size_t>(height_ * width_);
  const auto at = [&](Plane p, int hex) -> float& {
    return out[static_cast<std::size_t>(plane_index(p)) * plane +
               static_cast<std::size_t>(cells_[hex])];
  };
  const auto& towns = game.map().towns();
  for (int t = 0; t < static_cast<int>(towns.size()); ++t) {
    at(game.town_held_by_danes(s, t) ? Plane::kDanishTown : Plane::kEnglishTown, towns[t].hex) =
        1.0f;
  }
  for (int i = 0; i < s.army_count; ++i) {
    const Army& a = s.armies[i];
    const Plane side = a.side == kDanes       ? Plane::kDanes
                       : (a.flags & kMilitia) ? Plane::kEnglishMilitia
                                              : Plane::kEnglishField;
    at(side, a.hex) = 1.0f;
    if (a.flags & kRolled) at(Plane::kRolled, a.hex) = 1.0f;
  }
  const std::array<std::pair<Plane, std::uint16_t>, 4> marked = {{{Plane::kSelected, s.selected},
                                                                  {Plane::kTarget, s.target},
                                                                  {Plane::kRoutHex, s.rout_hex},
                                                                  {Plane::kRoutFrom, s.rout_from}}};
  for (const auto& [p, hex] : marked) {
    if (hex < hex_count_) at(p, hex) = 1.0f;
  }
}

void DanelawEncoding::constant_planes(const DanelawGame& game, const State& s,
                                      std::span<float> out) const {
  const std::size_t plane = static_cast<std::size_t>(height_ * width_);
  const auto fill = [&](Plane p, float value) {
    std::fill_n(
        out.begin() + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(plane_index(p)) * plane),
        plane, value);
  };
  const DanelawRules& rules = game.rules();
  fill(Plane::kToActEnglish, game.current_player(s) == kEnglish ? 1.0f : 0.0f);
  fill(Plane::kHalfTurnEnglish, s.side == kEnglish ? 1.0f : 0.0f);
  fill(static_cast<Plane>(plane_index(Plane::kPhase) + static_cast<int>(s.phase)), 1.0f);
  fill(Plane::kTurn, ratio(s.turn, rules.turn_limit));
  fill(Plane::kPoints, ratio(s.points, 12));
  fill(Plane::kBattleRoll, ratio(s.battle_roll, 12));
  fill(Plane::kAttackRolls, ratio(s.attack_rolls, kDirections));
  fill(Plane::kRoutSteps, ratio(s.rout_steps, 6));
  fill(Plane::kToPlace, ratio(s.to_place, rules.danish_pool()));
  fill(Plane::kDanishPool, ratio(s.pool[kDanes], rules.danish_pool()));
  fill(Plane::kEnglishPool, ratio(s.pool[kEnglish], rules.pool));
  fill(Plane::kDanishTownCount, ratio(game.danish_town_count(s), rules.towns_to_win));
}

}  // namespace sling::danelaw
