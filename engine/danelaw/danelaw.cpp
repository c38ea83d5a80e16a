#include "engine/danelaw/danelaw.h"

#include <algorithm>
#include <bit>
#include <cctype>
#include <sstream>

#include "engine/core/io.h"
#include "engine/core/json_options.h"
#include "engine/danelaw/render.h"

namespace sling::danelaw {

namespace {

std::string lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string trim(std::string_view text) {
  std::size_t b = 0, e = text.size();
  while (b < e && std::isspace(static_cast<unsigned char>(text[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(text[e - 1]))) --e;
  return std::string(text.substr(b, e - b));
}

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

DanelawGame::DanelawGame(DanelawRules rules) : rules_(std::move(rules)) {
  rules_.validate();
  auto map = std::make_shared<const HexMap>(HexMap::load(rules_.map));
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
  // The embedded model lives for the program; the game shares it without owning it.
  value_model_ =
      std::shared_ptr<const ValueModel>(&ValueModel::embedded(), [](const ValueModel*) {});
}

DanelawGame DanelawGame::from_rules_json(std::string_view text) {
  return DanelawGame(options_from_json<DanelawRules>(text, "danelaw rules"));
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

void DanelawGame::destinations(const State& s, int hex, int points, ReachList& out) const {
  const int index = army_at(s, hex);
  const Side side = static_cast<Side>(s.armies[index].side);
  HexSet occupied, enemy;
  occupancy(s, side, occupied, enemy);
  // Listing the destinations and then applying one asks the same question twice in a row; the
  // last answer is kept per thread, keyed by everything it depends on.
  struct LastQuery {
    std::uint64_t movement = 0;
    int side = -1, hex = -1, points = -1;
    HexSet occupied, enemy;
    ReachList result;
  };
  thread_local LastQuery last;
  if (last.movement == movement_.id() && last.side == side && last.hex == hex &&
      last.points == points && last.occupied == occupied && last.enemy == enemy) {
    out = last.result;
    return;
  }
  ReachList reach;
  movement_.reachable(side, hex, points, enemy, reach);
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
  movement_.reachable(static_cast<Side>(army.side), army.hex, s.points, enemy, reach);
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

// ---------------------------------------------------------------------------------------------
// Legal actions and chance outcomes.

void DanelawGame::legal_actions(const State& s, ActionList<DanelawGame>& out) const {
  out.clear();
  switch (s.phase) {
    case Phase::kPlace: {
      HexSet occupied, enemy;
      occupancy(s, kDanes, occupied, enemy);
      for (std::uint16_t h : sea_hexes_) {
        if (!occupied.test(h)) out.push_back(make_action(ActionKind::kPlace, h));
      }
      return;
    }
    case Phase::kReinforce: {
      FixedVector<std::uint16_t, kMaxHexes> hexes;
      reinforcement_hexes(s, hexes);
      for (std::uint16_t h : hexes) out.push_back(make_action(ActionKind::kReinforce, h));
      return;
    }
    case Phase::kMove: {
      HexSet occupied, enemy;
      occupancy(s, static_cast<Side>(s.side), occupied, enemy);
      for (int i = 0; i < s.army_count; ++i) {
        const Army& a = s.armies[i];
        if (a.side != s.side || (a.flags & kMilitia)) continue;
        if (has_destination(s, i, occupied, enemy)) {
          out.push_back(make_action(ActionKind::kSelect, a.hex));
        }
      }
      out.push_back(make_action(ActionKind::kEndMove));
      return;
    }
    case Phase::kMoveDestination: {
      ReachList reach;
      destinations(s, s.selected, s.points, reach);
      for (const Reach& r : reach) out.push_back(make_action(ActionKind::kMoveTo, r.hex));
      return;
    }
    case Phase::kChooseTarget: {
      HexSet occupied, enemy, targets;
      occupancy(s, static_cast<Side>(s.side), occupied, enemy);
      for (int i = 0; i < s.army_count; ++i) {
        const Army& a = s.armies[i];
        if (a.side != s.side || (a.flags & kRolled)) continue;
        for (int d = 0; d < kDirections; ++d) {
          const int n = map_->neighbour(a.hex, d);
          // Armies at sea cannot be attacked.
          if (n < 0 || !enemy.test(n) || map_->hex(n).is_sea() || targets.test(n)) continue;
          targets.set(n);
          out.push_back(make_action(ActionKind::kAttack, n));
        }
      }
      out.push_back(make_action(ActionKind::kEndBattles));
      return;
    }
    case Phase::kChooseRoller: {
      for (int i = 0; i < s.army_count; ++i) {
        const Army& a = s.armies[i];
        if (a.side == s.side && !(a.flags & kRolled) && map_->adjacent(a.hex, s.target)) {
          out.push_back(make_action(ActionKind::kRoll, a.hex));
        }
      }
      if (s.attack_rolls > 0) out.push_back(make_action(ActionKind::kStop));
      return;
    }
    case Phase::kAdvance:
      out.push_back(make_action(ActionKind::kAdvance));
      out.push_back(make_action(ActionKind::kHold));
      return;
    case Phase::kRoutStep: {
      FixedVector<std::uint16_t, kDirections> steps;
      rout_steps_from(s, steps);
      for (std::uint16_t h : steps) out.push_back(make_action(ActionKind::kRoutStep, h));
      return;
    }
    default:
      return;
  }
}

void DanelawGame::chance_outcomes(const State& s, ChanceList<DanelawGame>& out) const {
  out.clear();
  switch (s.phase) {
    case Phase::kMovementDice:
      for (int low = 1; low <= 6; ++low) {
        for (int high = low; high <= 6; ++high) {
          out.push_back({make_action(ActionKind::kMovementDice, low * 8 + high),
                         (low == high ? 1.0 : 2.0) / 36.0});
        }
      }
      return;
    case Phase::kBattleDice: {
      const auto& p = battle_total_distribution(defender_in_open(s.target));
      for (int total = 2; total <= 12; ++total) {
        if (p[total] > 0) out.push_back({make_action(ActionKind::kBattleDice, total), p[total]});
      }
      return;
    }
    case Phase::kRoutDice:
      for (int n = 1; n <= 6; ++n)
        out.push_back({make_action(ActionKind::kRoutDice, n), 1.0 / 6.0});
      return;
    default:
      return;
  }
}

void DanelawGame::rout_steps_from(const State& s,
                                  FixedVector<std::uint16_t, kDirections>& out) const {
  out.clear();
  const int here = map_->distance(s.rout_hex, s.rout_from);
  for (int d = 0; d < kDirections; ++d) {
    const int n = map_->neighbour(s.rout_hex, d);
    // Never into the sea (an army that would is destroyed), never into an occupied hex, and every
    // step farther from the army it fought.
    if (n < 0 || map_->hex(n).is_sea() || army_at(s, n) >= 0) continue;
    if (map_->distance(n, s.rout_from) > here) out.push_back(static_cast<std::uint16_t>(n));
  }
}

// ---------------------------------------------------------------------------------------------
// Applying decisions and outcomes.

void DanelawGame::apply_action(State& s, Action action) const {
  const Player player = current_player(s);
  if (player < 0) {
    throw IllegalActionError("danelaw: no decision is due (" +
                             std::string(player == kChancePlayer ? "chance" : "game over") + ")");
  }
  ActionList<DanelawGame> legal;
  legal_actions(s, legal);
  if (std::find(legal.begin(), legal.end(), action) == legal.end()) {
    throw IllegalActionError("danelaw: illegal action " + std::to_string(action));
  }
  apply_unchecked(s, action);
}

void DanelawGame::apply_unchecked(State& s, Action action) const {
  const int hex = action_payload(action);
  switch (action_kind(action)) {
    case ActionKind::kMovementDice:
    case ActionKind::kBattleDice:
    case ActionKind::kRoutDice:
      apply_chance_unchecked(s, action);
      return;
    case ActionKind::kPlace:
      add_army(s, hex, kDanes, 0);
      --s.pool[kDanes];
      if (--s.to_place == 0) begin_half_turn(s, kDanes);
      return;
    case ActionKind::kReinforce:
      add_army(s, hex, static_cast<Side>(s.side), 0);
      --s.pool[s.side];
      s.phase = Phase::kMove;
      return;
    case ActionKind::kSelect:
      s.selected = static_cast<std::uint16_t>(hex);
      s.phase = Phase::kMoveDestination;
      return;
    case ActionKind::kMoveTo: {
      ReachList reach;
      destinations(s, s.selected, s.points, reach);
      int cost = 0;
      for (const Reach& r : reach) {
        if (r.hex == hex) cost = r.cost;
      }
      move_army(s, army_at(s, s.selected), hex);
      s.points = static_cast<std::uint8_t>(s.points - cost);
      s.selected = kNoHex;
      s.phase = s.points > 0 ? Phase::kMove : Phase::kChooseTarget;
      return;
    }
    case ActionKind::kEndMove:
      s.points = 0;  // points not spent are lost
      s.phase = Phase::kChooseTarget;
      return;
    case ActionKind::kAttack:
      s.target = static_cast<std::uint16_t>(hex);
      s.attack_rolls = 0;
      s.battle_roll = 0;
      s.phase = Phase::kChooseRoller;
      return;
    case ActionKind::kRoll: {
      const int index = army_at(s, hex);
      s.armies[index].flags |= kRolled;
      s.selected = static_cast<std::uint16_t>(hex);
      s.phase = Phase::kBattleDice;
      return;
    }
    case ActionKind::kStop:
      resolve_attack(s);
      return;
    case ActionKind::kEndBattles:
      end_half_turn(s);
      return;
    case ActionKind::kAdvance:
      move_army(s, army_at(s, s.selected), s.target);
      s.selected = s.target = kNoHex;
      s.phase = Phase::kChooseTarget;
      return;
    case ActionKind::kHold:
      s.selected = s.target = kNoHex;
      s.phase = Phase::kChooseTarget;
      return;
    case ActionKind::kRoutStep:
      move_army(s, army_at(s, s.rout_hex), hex);
      s.rout_hex = static_cast<std::uint16_t>(hex);
      --s.rout_steps;
      continue_rout(s);
      return;
    default:
      throw IllegalActionError("danelaw: not a decision: " + std::to_string(action));
  }
}

void DanelawGame::apply_chance(State& s, Action outcome) const {
  if (current_player(s) != kChancePlayer) {
    throw IllegalActionError("danelaw: no chance outcome is due");
  }
  ChanceList<DanelawGame> outcomes;
  chance_outcomes(s, outcomes);
  if (std::none_of(outcomes.begin(), outcomes.end(),
                   [&](const ChanceOutcome& o) { return o.outcome == outcome; })) {
    throw IllegalActionError("danelaw: impossible chance outcome " + std::to_string(outcome));
  }
  apply_chance_unchecked(s, outcome);
}

void DanelawGame::apply_chance_unchecked(State& s, Action outcome) const {
  const int payload = action_payload(outcome);
  switch (s.phase) {
    case Phase::kMovementDice: {
      s.dice_low = static_cast<std::uint8_t>(payload / 8);
      s.dice_high = static_cast<std::uint8_t>(payload % 8);
      s.points = static_cast<std::uint8_t>(s.dice_low + s.dice_high);
      FixedVector<std::uint16_t, kMaxHexes> hexes;
      reinforcement_hexes(s, hexes);
      s.phase = hexes.empty() ? Phase::kMove : Phase::kReinforce;
      return;
    }
    case Phase::kBattleDice:
      // The last roll stands: it replaces any earlier roll of this attack.
      s.battle_roll = static_cast<std::uint8_t>(payload);
      ++s.attack_rolls;
      if (roller_available(s)) {
        s.phase = Phase::kChooseRoller;
      } else {
        resolve_attack(s);
      }
      return;
    case Phase::kRoutDice:
      s.rout_steps = static_cast<std::uint8_t>(payload);
      continue_rout(s);
      return;
    default:
      return;
  }
}

void DanelawGame::resolve_attack(State& s) const {
  const int total = s.battle_roll + battle_modifier(s, s.selected, s.target);
  const int roller = army_at(s, s.selected);
  const int defender = army_at(s, s.target);
  s.battle_roll = 0;
  s.attack_rolls = 0;
  s.phase = Phase::kChooseTarget;
  switch (battle_result(total)) {
    case BattleResult::kDefenderDestroyed:
      remove_army(s, defender);
      check_wipe_out(s);
      if (s.phase == Phase::kGameOver) return;
      if (s.armies[army_at(s, s.selected)].flags & kMilitia) break;  // militia never move
      s.phase = Phase::kAdvance;
      return;
    case BattleResult::kDefenderRouts:
      if (s.armies[defender].flags & kMilitia) {
        remove_army(s, defender);  // militia that rout are destroyed
        break;
      }
      s.rout_hex = s.target;
      s.rout_from = s.selected;
      s.phase = Phase::kRoutDice;
      return;
    case BattleResult::kStandOff:
      break;
    case BattleResult::kAttackerRouts:
      if ((s.armies[roller].flags & kMilitia) || map_->hex(s.selected).is_sea()) {
        // Militia that rout are destroyed; an army routing at sea would retreat into the sea.
        remove_army(s, roller);
        check_wipe_out(s);
        if (s.phase == Phase::kGameOver) return;
        break;
      }
      s.rout_hex = s.selected;
      s.rout_from = s.target;
      s.phase = Phase::kRoutDice;
      return;
    case BattleResult::kAttackerDestroyed:
      remove_army(s, roller);
      check_wipe_out(s);
      if (s.phase == Phase::kGameOver) return;
      break;
  }
  s.selected = s.target = kNoHex;
}

void DanelawGame::continue_rout(State& s) const {
  if (s.rout_steps > 0) {
    FixedVector<std::uint16_t, kDirections> steps;
    rout_steps_from(s, steps);
    if (!steps.empty()) {
      s.phase = Phase::kRoutStep;
      return;
    }
    // It cannot move farther away without entering the sea or an occupied hex: destroyed.
    remove_army(s, army_at(s, s.rout_hex));
  }
  s.rout_hex = s.rout_from = kNoHex;
  s.rout_steps = 0;
  s.selected = s.target = kNoHex;
  s.phase = Phase::kChooseTarget;
  check_wipe_out(s);
}

Returns DanelawGame::returns(const State& s) const {
  if (s.phase != Phase::kGameOver) return {0.0, 0.0};
  return s.winner == kDanes ? Returns{1.0, -1.0} : Returns{-1.0, 1.0};
}

std::string_view DanelawGame::end_reason(const State& s) const {
  switch (s.end_reason) {
    case EndReason::kDanesHoldTowns:
      return "danes hold the towns";
    case EndReason::kEnglishHoldOut:
      return "english hold out";
    case EndReason::kDanesWipedOut:
      return "danes wiped out";
    default:
      return "";
  }
}

// ---------------------------------------------------------------------------------------------
// Text.

std::string DanelawGame::hex_text(int hex) const {
  std::string text = map_->label(hex);
  const int town = map_->hex(hex).town;
  if (town >= 0) text += " " + map_->towns()[town].name;
  return text;
}

std::string DanelawGame::action_to_string(const State&, Action action) const {
  const int p = action_payload(action);
  switch (action_kind(action)) {
    case ActionKind::kPlace:
      return "place " + hex_text(p);
    case ActionKind::kReinforce:
      return "reinforce " + hex_text(p);
    case ActionKind::kSelect:
      return "army " + hex_text(p);
    case ActionKind::kMoveTo:
      return "to " + hex_text(p);
    case ActionKind::kEndMove:
      return "end move";
    case ActionKind::kAttack:
      return "attack " + hex_text(p);
    case ActionKind::kRoll:
      return "roll " + hex_text(p);
    case ActionKind::kStop:
      return "stop";
    case ActionKind::kEndBattles:
      return "end battles";
    case ActionKind::kAdvance:
      return "advance";
    case ActionKind::kHold:
      return "hold";
    case ActionKind::kRoutStep:
      return "rout " + hex_text(p);
    case ActionKind::kMovementDice:
      return "dice " + std::to_string(p / 8) + "+" + std::to_string(p % 8);
    case ActionKind::kBattleDice:
      return "battle roll " + std::to_string(p);
    case ActionKind::kRoutDice:
      return "rout " + std::to_string(p) + " hexes";
    default:
      return "?" + std::to_string(action);
  }
}

Action DanelawGame::parse_action(const State& s, std::string_view text) const {
  const std::string input = lower(trim(text));
  if (current_player(s) == kChancePlayer) {
    ChanceList<DanelawGame> outcomes;
    chance_outcomes(s, outcomes);
    for (const ChanceOutcome& o : outcomes) {
      if (lower(action_to_string(s, o.outcome)) == input) return o.outcome;
    }
    throw ParseError("danelaw: '" + std::string(text) + "' is not a chance outcome here");
  }
  struct Verb {
    std::string_view word;
    ActionKind kind;
    bool takes_hex;
  };
  static constexpr Verb kVerbs[] = {
      {"place", ActionKind::kPlace, true},
      {"reinforce", ActionKind::kReinforce, true},
      {"army", ActionKind::kSelect, true},
      {"to", ActionKind::kMoveTo, true},
      {"end move", ActionKind::kEndMove, false},
      {"attack", ActionKind::kAttack, true},
      {"roll", ActionKind::kRoll, true},
      {"stop", ActionKind::kStop, false},
      {"end battles", ActionKind::kEndBattles, false},
      {"advance", ActionKind::kAdvance, false},
      {"hold", ActionKind::kHold, false},
      {"rout", ActionKind::kRoutStep, true},
  };
  Action action = kInvalidAction;
  for (const Verb& v : kVerbs) {
    if (!v.takes_hex) {
      if (input == v.word) action = make_action(v.kind);
      continue;
    }
    if (input.size() <= v.word.size() + 1 || input.compare(0, v.word.size(), v.word) != 0 ||
        input[v.word.size()] != ' ') {
      continue;
    }
    const std::string argument = trim(std::string_view(input).substr(v.word.size() + 1));
    // "0712", "0712 York", "q,r" or a town name.
    int hex = map_->find_hex(argument.substr(0, argument.find(' ')));
    if (hex < 0) hex = map_->find_hex(argument);
    if (hex < 0) throw ParseError("danelaw: no hex or town '" + argument + "'");
    action = make_action(v.kind, hex);
  }
  if (action == kInvalidAction)
    throw ParseError("danelaw: cannot read '" + std::string(text) + "'");
  ActionList<DanelawGame> legal;
  legal_actions(s, legal);
  if (std::find(legal.begin(), legal.end(), action) == legal.end()) {
    throw ParseError("danelaw: '" + std::string(text) + "' is not legal now");
  }
  return action;
}

std::string DanelawGame::state_to_string(const State& s) const {
  std::ostringstream out;
  out << text_map(*this, &s);
  out << "Turn " << int(s.turn) << "/" << rules_.turn_limit << ", " << info_.sides[s.side]
      << " to play";
  static constexpr std::string_view kPhaseNames[] = {"placing armies at sea",
                                                     "rolling for movement",
                                                     "placing a reinforcement",
                                                     "moving",
                                                     "choosing a destination",
                                                     "choosing a target",
                                                     "choosing the next army to roll",
                                                     "rolling for battle",
                                                     "advance or hold",
                                                     "rolling for rout",
                                                     "routing",
                                                     "game over"};
  out << " (" << kPhaseNames[static_cast<int>(s.phase)] << ")";
  if (s.points) out << ", " << int(s.points) << " movement points left";
  if (s.to_place) out << ", " << int(s.to_place) << " to place";
  const int held = danish_town_count(s);
  out << ". Danes hold " << held << (held == 1 ? " town (" : " towns (") << rules_.towns_to_win
      << " to win); reserves: danes " << int(s.pool[kDanes]) << ", english "
      << int(s.pool[kEnglish]) << ".";
  if (s.target != kNoHex) out << " Target " << hex_text(s.target) << ".";
  if (s.battle_roll) out << " Standing roll " << int(s.battle_roll) << ".";
  if (s.rout_hex != kNoHex) {
    out << " Routing " << hex_text(s.rout_hex) << ", " << int(s.rout_steps) << " hexes to go.";
  }
  if (s.phase == Phase::kGameOver) {
    out << " " << info_.sides[s.winner] << " win: " << end_reason(s) << ".";
  }
  out << '\n';
  return out.str();
}

}  // namespace sling::danelaw
