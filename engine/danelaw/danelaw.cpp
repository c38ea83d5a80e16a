#include "engine/danelaw/danelaw.h"

#include <algorithm>
#include <bit>

#include "engine/core/io.h"
#include "engine/core/json_options.h"

namespace sling::danelaw {

namespace {

std::array<double, 13> make_distribution(bool three_dice) {
  std::array<double, 13> p{};
  if (three_dice) {
    // The best two of three dice: 216 equally likely rolls.
    for (int a = 1; a <= 6; ++a) {
      for (int b = 1; b <= 6; ++b) {
        for (int c = 1; c <= 6; ++c) p[a + b + c - std::min({a, b, c})] += 1.0 / 216.0;
      }
    }
  } else {
    for (int a = 1; a <= 6; ++a) {
      for (int b = 1; b <= 6; ++b) p[a + b] += 1.0 / 36.0;
    }
  }
  return p;
}

}  // namespace

void DanelawRules::validate() const {
  auto fail = [](const std::string& m) { throw RulesError("danelaw rules: " + m); };
  if (map.empty()) fail("'map' must name a map");
  if (pool < 1 || pool > 30) fail("'pool' must be 1..30");
  if (danes_at_sea < 0 || danes_at_sea > danish_pool()) {
    fail("'danes_at_sea' must be 0..the Danish pool (" + std::to_string(danish_pool()) + ")");
  }
  if (turn_limit < 1 || turn_limit > 200) fail("'turn_limit' must be 1..200");
  if (towns_to_win < 1 || towns_to_win > kMaxTowns) fail("'towns_to_win' must be 1..64");
  if (field_army_towns.empty() || field_army_towns.size() > 8) {
    fail("'field_army_towns' must list 1..8 towns");
  }
  if (static_cast<int>(field_army_towns.size()) > pool) {
    fail("'field_army_towns' lists more towns than the English pool");
  }
}

BattleResult battle_result(int total) {
  if (total >= 11) return BattleResult::kDefenderDestroyed;
  if (total >= 9) return BattleResult::kDefenderRouts;
  if (total >= 6) return BattleResult::kStandOff;
  if (total >= 4) return BattleResult::kAttackerRouts;
  return BattleResult::kAttackerDestroyed;
}

const std::array<double, 13>& battle_total_distribution(bool three_dice) {
  static const std::array<double, 13> two = make_distribution(false);
  static const std::array<double, 13> three = make_distribution(true);
  return three_dice ? three : two;
}

DanelawGame::DanelawGame() : DanelawGame(DanelawRules{}) {}

namespace {

// The map rules.map names, once the rules are known to be valid (so that a bad rule is reported
// before a missing map).
std::shared_ptr<const HexMap> load_named_map(const DanelawRules& rules) {
  rules.validate();
  return std::make_shared<const HexMap>(HexMap::load(rules.map));
}

}  // namespace

DanelawGame::DanelawGame(DanelawRules rules) : DanelawGame(rules, load_named_map(rules)) {}

DanelawGame::DanelawGame(DanelawRules rules, std::shared_ptr<const HexMap> map)
    : rules_(std::move(rules)) {
  rules_.validate();
  if (!map) throw RulesError("danelaw rules: no map");
  if (!rules_.map_hash.empty() && rules_.map_hash != map->content_hash()) {
    throw RulesError("danelaw rules: map '" + rules_.map + "' has content hash " +
                     map->content_hash() + ", the rules expect " + rules_.map_hash);
  }
  rules_.map_hash = map->content_hash();
  if (rules_.towns_to_win > static_cast<int>(map->towns().size())) {
    throw RulesError("danelaw rules: 'towns_to_win' exceeds the map's " +
                     std::to_string(map->towns().size()) + " towns");
  }
  for (const std::string& name : rules_.field_army_towns) {
    const int town = map->find_town(name);
    if (town < 0)
      throw RulesError("danelaw rules: field army town '" + name + "' is not on the map");
    const int hex = map->towns()[town].hex;
    if (std::find(field_army_hexes_.begin(), field_army_hexes_.end(), hex) !=
        field_army_hexes_.end()) {
      throw RulesError("danelaw rules: field army town '" + name + "' is listed twice");
    }
    field_army_hexes_.push_back(hex);
  }
  sector_hexes_.assign(kSeaSectors + 1, {});
  for (int h = 0; h < map->size(); ++h) {
    if (!map->hex(h).is_sea()) continue;
    sea_hexes_.push_back(static_cast<std::uint16_t>(h));
    sector_hexes_[map->hex(h).sector].push_back(static_cast<std::uint16_t>(h));
  }
  int militia = 0;
  for (const Town& t : map->towns()) militia += t.coastal;
  if (rules_.danish_pool() + rules_.pool + militia > kMaxArmies) {
    throw RulesError("danelaw rules: too many armies for this map");
  }
  map_ = std::move(map);
  movement_ = Movement(map_);
  info_ = GameInfo{"danelaw",
                   {"danes", "english"},
                   static_cast<int>(kMaxChanceOutcomes),
                   static_cast<int>(kMaxActions),
                   false};
}

DanelawGame DanelawGame::from_rules_json(std::string_view text) {
  return DanelawGame(options_from_json<DanelawRules>(text, "danelaw rules"));
}

DanelawGame DanelawGame::from_rules_json(std::string_view text, std::shared_ptr<const HexMap> map) {
  return DanelawGame(options_from_json<DanelawRules>(text, "danelaw rules"), std::move(map));
}

DanelawGame DanelawGame::from_files(const std::string& rules_path, const std::string& map_path) {
  DanelawRules rules;
  if (!rules_path.empty()) {
    std::string text;
    try {
      text = read_file(rules_path);
    } catch (const FileFormatError& e) {
      throw RulesError(e.what());
    }
    rules = options_from_json<DanelawRules>(text, "danelaw rules (" + rules_path + ")");
  }
  if (!map_path.empty()) {
    rules.map = map_path;
    rules.map_hash.clear();
  }
  return DanelawGame(rules);
}

std::string DanelawGame::rules_json() const {
  return options_to_json(rules_);
}

// ---------------------------------------------------------------------------------------------
// Armies and occupancy.

int DanelawGame::army_at(const State& s, int hex) const {
  for (int i = 0; i < s.army_count; ++i) {
    if (s.armies[i].hex == hex) return i;
  }
  return -1;
}

int DanelawGame::danish_town_count(const State& s) const {
  return std::popcount(s.danish_towns);
}

void DanelawGame::occupancy(const State& s, Side side, HexSet& occupied, HexSet& enemy) const {
  occupied.reset();
  enemy.reset();
  for (int i = 0; i < s.army_count; ++i) {
    occupied.set(s.armies[i].hex);
    if (s.armies[i].side != side) enemy.set(s.armies[i].hex);
  }
}

void DanelawGame::add_army(State& s, int hex, Side side, std::uint8_t flags) const {
  s.armies[s.army_count++] = Army{static_cast<std::uint16_t>(hex), side, flags};
  const int town = map_->hex(hex).town;
  if (town >= 0) {
    if (side == kDanes) {
      s.danish_towns |= std::uint64_t{1} << town;
    } else {
      s.danish_towns &= ~(std::uint64_t{1} << town);
    }
  }
}

void DanelawGame::remove_army(State& s, int index) const {
  s.armies[index] = s.armies[s.army_count - 1];
  s.armies[s.army_count - 1] = Army{};
  --s.army_count;
}

void DanelawGame::move_army(State& s, int index, int to) const {
  s.armies[index].hex = static_cast<std::uint16_t>(to);
  const int town = map_->hex(to).town;
  if (town >= 0) {
    // Entering a town takes control of it; control stays until the enemy enters.
    if (s.armies[index].side == kDanes) {
      s.danish_towns |= std::uint64_t{1} << town;
    } else {
      s.danish_towns &= ~(std::uint64_t{1} << town);
    }
  }
}

void DanelawGame::destinations(const State& s, int hex, int points, ReachList& out,
                               DanelawScratch& scratch) const {
  const int index = army_at(s, hex);
  const Side side = static_cast<Side>(s.armies[index].side);
  HexSet occupied, enemy;
  occupancy(s, side, occupied, enemy);
  DestinationMemo& last = scratch.destinations;
  if (last.movement == movement_.id() && last.side == side && last.hex == hex &&
      last.points == points && last.occupied == occupied && last.enemy == enemy) {
    out = last.result;
    return;
  }
  ReachList reach;
  movement_.reachable(side, hex, points, enemy, reach, scratch.movement);
  out.clear();
  for (const Reach& r : reach) {
    if (!occupied.test(r.hex)) out.push_back(r);
  }
  last.movement = movement_.id();
  last.side = side;
  last.hex = hex;
  last.points = points;
  last.occupied = occupied;
  last.enemy = enemy;
  last.result = out;
}

bool DanelawGame::has_destination(const State& s, int index, const HexSet& occupied,
                                  const HexSet& enemy) const {
  const Army& army = s.armies[index];
  bool friend_in_reach = false;
  for (int d = 0; d < kDirections; ++d) {
    const int n = map_->neighbour(army.hex, d);
    if (n < 0 || enemy.test(n)) continue;
    if (movement_.step(static_cast<Side>(army.side), army.hex, d) > s.points) continue;
    if (!occupied.test(n)) return true;
    friend_in_reach = true;
  }
  if (!friend_in_reach) return false;
  // Only friendly armies are next to it: a path may pass through them.
  ReachList reach;
  movement_.reachable(static_cast<Side>(army.side), army.hex, s.points, enemy, reach,
                      borrow_scratch()->movement);
  for (const Reach& r : reach) {
    if (!occupied.test(r.hex)) return true;
  }
  return false;
}

void DanelawGame::reinforcement_hexes(const State& s,
                                      FixedVector<std::uint16_t, kMaxHexes>& out) const {
  out.clear();
  if (s.dice_low != s.dice_high || s.pool[s.side] == 0) return;
  if (s.side == kDanes) {
    for (std::uint16_t h : sector_hexes_[s.dice_low]) {
      if (army_at(s, h) < 0) out.push_back(h);
    }
  } else if (s.dice_low >= 5) {
    for (int h : field_army_hexes_) {
      const int town = map_->hex(h).town;
      if (!town_held_by_danes(s, town) && army_at(s, h) < 0) {
        out.push_back(static_cast<std::uint16_t>(h));
      }
    }
  }
}

bool DanelawGame::defender_in_open(int target) const {
  const HexInfo& h = map_->hex(target);
  return h.terrain == Terrain::kPlain && h.town < 0;
}

int DanelawGame::battle_modifier(const State& s, int roller, int target) const {
  const HexInfo& h = map_->hex(target);
  const Army& defender = s.armies[army_at(s, target)];
  const Army& attacker = s.armies[army_at(s, roller)];
  int modifier = 0;
  if (h.terrain == Terrain::kHills || h.terrain == Terrain::kForest || h.town >= 0 ||
      (h.terrain == Terrain::kWetland && defender.side == kEnglish)) {
    modifier -= 2;
  }
  if (map_->river_between(roller, target)) modifier -= 1;
  if (attacker.side == kDanes) modifier += 1;
  return modifier;
}

bool DanelawGame::roller_available(const State& s) const {
  for (int i = 0; i < s.army_count; ++i) {
    const Army& a = s.armies[i];
    if (a.side == s.side && !(a.flags & kRolled) && map_->adjacent(a.hex, s.target)) return true;
  }
  return false;
}

void DanelawGame::check_state(const State& s) const {
  auto fail = [](const std::string& m) { throw FileFormatError("danelaw state: " + m); };
  if (s.army_count > kMaxArmies) fail("too many armies");
  HexSet seen;
  for (int i = 0; i < s.army_count; ++i) {
    const Army& a = s.armies[i];
    if (a.hex >= map_->size()) fail("army " + std::to_string(i) + " is off the map");
    if (a.side > kEnglish) fail("army " + std::to_string(i) + " has no side");
    if (a.flags & ~(kMilitia | kRolled)) fail("army " + std::to_string(i) + " has unknown flags");
    if (seen.test(a.hex)) fail("two armies in hex " + map_->label(a.hex));
    seen.set(a.hex);
  }
  for (int i = s.army_count; i < kMaxArmies; ++i) {
    if (!(s.armies[i] == Army{})) fail("an unused army slot is not empty");
  }
  if (map_->towns().size() < 64 && (s.danish_towns >> map_->towns().size()) != 0) {
    fail("control of a town the map does not have");
  }
  for (std::uint16_t h : {s.selected, s.target, s.rout_hex, s.rout_from}) {
    if (h != kNoHex && h >= map_->size()) fail("a hex off the map");
  }
  if (s.side > kEnglish || s.turn < 1 || s.turn > rules_.turn_limit) fail("bad side or turn");
  if (s.phase == Phase::kGameOver && s.winner > kEnglish) fail("a finished game without a winner");
  const bool needs_selected = s.phase == Phase::kMoveDestination || s.phase == Phase::kBattleDice ||
                              s.phase == Phase::kAdvance;
  if (needs_selected && (s.selected == kNoHex || army_at(s, s.selected) < 0)) {
    fail("the chosen army is missing");
  }
  const bool needs_target = s.phase == Phase::kChooseRoller || s.phase == Phase::kBattleDice ||
                            s.phase == Phase::kAdvance;
  if (needs_target && s.target == kNoHex) fail("the attacked hex is missing");
  const bool routing = s.phase == Phase::kRoutDice || s.phase == Phase::kRoutStep;
  if (routing && (s.rout_hex == kNoHex || s.rout_from == kNoHex || army_at(s, s.rout_hex) < 0)) {
    fail("the routing army is missing");
  }
}

// ---------------------------------------------------------------------------------------------
// Turn structure.

State DanelawGame::initial_state() const {
  State s;
  s.pool[kDanes] = static_cast<std::uint8_t>(rules_.danish_pool());
  s.pool[kEnglish] = static_cast<std::uint8_t>(rules_.pool);
  for (const Town& t : map_->towns()) {
    const bool field = std::find(field_army_hexes_.begin(), field_army_hexes_.end(), t.hex) !=
                       field_army_hexes_.end();
    // A coastal town that also gets a field army holds the field army only (one army per hex).
    if (t.coastal && !field) add_army(s, t.hex, kEnglish, kMilitia);
  }
  for (int h : field_army_hexes_) {
    add_army(s, h, kEnglish, 0);
    --s.pool[kEnglish];
  }
  s.to_place = static_cast<std::uint8_t>(rules_.danes_at_sea);
  if (s.to_place > 0) {
    s.phase = Phase::kPlace;
    s.side = kDanes;
  } else {
    begin_half_turn(s, kDanes);
  }
  return s;
}

void DanelawGame::begin_half_turn(State& s, Side side) const {
  s.side = side;
  for (int i = 0; i < s.army_count; ++i) s.armies[i].flags &= static_cast<std::uint8_t>(~kRolled);
  s.phase = Phase::kMovementDice;
  s.points = 0;
  s.dice_low = s.dice_high = 0;
  s.selected = s.target = s.rout_hex = s.rout_from = kNoHex;
  s.battle_roll = s.attack_rolls = s.rout_steps = 0;
}

void DanelawGame::end_half_turn(State& s) const {
  if (s.side == kDanes) {
    begin_half_turn(s, kEnglish);
    return;
  }
  if (s.turn >= rules_.turn_limit) {
    s.phase = Phase::kGameOver;
    s.selected = s.target = s.rout_hex = s.rout_from = kNoHex;
    s.points = s.battle_roll = s.attack_rolls = s.rout_steps = 0;
    if (danish_town_count(s) >= rules_.towns_to_win) {
      s.winner = kDanes;
      s.end_reason = EndReason::kDanesHoldTowns;
    } else {
      s.winner = kEnglish;
      s.end_reason = EndReason::kEnglishHoldOut;
    }
    return;
  }
  ++s.turn;
  begin_half_turn(s, kDanes);
}

void DanelawGame::check_wipe_out(State& s) const {
  if (s.pool[kDanes] > 0 || s.to_place > 0) return;
  for (int i = 0; i < s.army_count; ++i) {
    if (s.armies[i].side == kDanes) return;
  }
  s.phase = Phase::kGameOver;
  s.winner = kEnglish;
  s.end_reason = EndReason::kDanesWipedOut;
  s.selected = s.target = s.rout_hex = s.rout_from = kNoHex;
  s.points = s.battle_roll = s.attack_rolls = s.rout_steps = 0;
}

Player DanelawGame::current_player(const State& s) const {
  switch (s.phase) {
    case Phase::kGameOver:
      return kTerminalPlayer;
    case Phase::kMovementDice:
    case Phase::kBattleDice:
    case Phase::kRoutDice:
      return kChancePlayer;
    case Phase::kRoutStep:
      return static_cast<Player>(s.armies[army_at(s, s.rout_hex)].side);
    default:
      return static_cast<Player>(s.side);
  }
}

}  // namespace sling::danelaw
