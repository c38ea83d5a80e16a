#pragma once
// Danelaw: Danes against English on a hex map of England, c. 870 (rules: docs/rules/danelaw.md).
//
// Side 0 is the Danes, side 1 the English.  A turn is the Danes' half then the English half; each
// half is: roll 2d6 for movement points (chance), place a reinforcement on a double (decision),
// move (choose an army, choose its destination among the hexes Boost.Graph's Dijkstra finds within
// the points left, repeat, end movement), then battles (choose a target, choose the army to roll,
// roll (chance), roll again with another army or stop; routs are moved hex by hex by their owner).
//
// Action layout: bits 16..23 the kind (ActionKind), bits 0..15 the payload (a hex index, a dice
// pair, a battle total or a rout length).

#include <cereal/cereal.hpp>
#include <cereal/types/array.hpp>
#include <cereal/types/string.hpp>
#include <cereal/types/vector.hpp>

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "engine/core/game.h"
#include "engine/danelaw/map.h"
#include "engine/danelaw/movement.h"
#include "engine/danelaw/scratch.h"

namespace sling::danelaw {

// The rules as a JSON options file (options_from_json: unknown keys are errors).
struct DanelawRules {
  // An embedded map ("england.json") or a map file path, and the map's content hash.  The hash is
  // filled in by the game; a rules file that names a hash rejects any other map, so a game record
  // replays on exactly the map it was played on.
  std::string map = "england.json";
  std::string map_hash;
  int pool = 20;             // armies per side
  bool danes_extra = false;  // the Danes get 10 more armies
  int danes_at_sea = 10;     // armies the Danes place on empty sea hexes before turn 1
  int turn_limit = 24;
  int towns_to_win = 15;  // towns the Danes must control at the end
  std::vector<std::string> field_army_towns = {"Winchester", "York", "Carlisle"};

  int danish_pool() const { return pool + (danes_extra ? 10 : 0); }

  template <class Archive>
  void serialize(Archive& ar) {
    ar(CEREAL_NVP(map), CEREAL_NVP(map_hash), CEREAL_NVP(pool), CEREAL_NVP(danes_extra),
       CEREAL_NVP(danes_at_sea), CEREAL_NVP(turn_limit), CEREAL_NVP(towns_to_win),
       CEREAL_NVP(field_army_towns));
  }
  void validate() const;  // throws RulesError
};

inline constexpr int kMaxArmies = 136;  // 40 Danes + 30 English field armies + 64 militia, rounded

enum ArmyFlags : std::uint8_t { kMilitia = 1, kRolled = 2 };

struct Army {
  std::uint16_t hex;
  std::uint8_t side;   // Side
  std::uint8_t flags;  // ArmyFlags
  bool operator==(const Army&) const = default;
};

enum class Phase : std::uint8_t {
  kPlace,            // Danes place their armies at sea before turn 1
  kMovementDice,     // chance: 2d6
  kReinforce,        // a double brought a reinforcement: choose its hex
  kMove,             // choose an army to move, or end movement
  kMoveDestination,  // choose the chosen army's destination
  kChooseTarget,     // choose an enemy hex to attack, or end battles
  kChooseRoller,     // choose the next army to roll against the target, or stop
  kBattleDice,       // chance: the rolling army's dice
  kAdvance,          // the defender was destroyed: advance into its hex or hold
  kRoutDice,         // chance: 1d6 hexes of rout
  kRoutStep,         // the routing army's owner moves it one hex
  kGameOver,
};

enum class EndReason : std::uint8_t { kNone, kDanesHoldTowns, kEnglishHoldOut, kDanesWipedOut };

// Unused army slots (index >= army_count) are always zero, so equal positions are equal bytes.
struct State {
  std::array<Army, kMaxArmies> armies{};
  std::uint64_t danish_towns = 0;    // bit t: the Danes control town t
  std::uint16_t selected = kNoHex;   // the army chosen to move, or the army that rolled last
  std::uint16_t target = kNoHex;     // the attacked hex
  std::uint16_t rout_hex = kNoHex;   // the routing army
  std::uint16_t rout_from = kNoHex;  // the army it fought
  std::uint8_t army_count = 0;
  Phase phase = Phase::kPlace;
  std::uint8_t side = kDanes;  // whose half-turn it is
  std::uint8_t turn = 1;
  std::uint8_t points = 0;                   // movement points left
  std::uint8_t dice_low = 0, dice_high = 0;  // this half-turn's movement roll
  std::uint8_t battle_roll = 0;   // the standing roll of the current attack (unmodified), 0 none
  std::uint8_t attack_rolls = 0;  // rolls made in the current attack
  std::uint8_t rout_steps = 0;
  std::uint8_t to_place = 0;
  std::uint8_t winner = 0xff;
  EndReason end_reason = EndReason::kNone;
  std::array<std::uint8_t, 2> pool{};      // armies not yet in play
  std::array<std::uint8_t, 9> reserved{};  // keeps the size a multiple of 8 with no padding

  bool operator==(const State&) const = default;
};
static_assert(std::has_unique_object_representations_v<State>, "State must have no padding");

enum class ActionKind : std::uint8_t {
  kNone,
  kPlace,
  kReinforce,
  kSelect,
  kMoveTo,
  kEndMove,
  kAttack,
  kRoll,
  kStop,
  kEndBattles,
  kAdvance,
  kHold,
  kRoutStep,
  kMovementDice,  // chance: payload low * 8 + high
  kBattleDice,    // chance: payload the unmodified total 2..12
  kRoutDice,      // chance: payload 1..6
};

constexpr Action make_action(ActionKind kind, int payload = 0) {
  return (static_cast<Action>(kind) << 16) | static_cast<Action>(payload & 0xffff);
}
constexpr ActionKind action_kind(Action a) {
  return a >> 24 ? ActionKind::kNone : static_cast<ActionKind>((a >> 16) & 0xff);
}
constexpr int action_payload(Action a) {
  return static_cast<int>(a & 0xffff);
}

// Battle outcomes by the modified total.
enum class BattleResult : std::uint8_t {
  kDefenderDestroyed,  // >= 11
  kDefenderRouts,      // 9-10
  kStandOff,           // 6-8
  kAttackerRouts,      // 4-5
  kAttackerDestroyed,  // <= 3
};
BattleResult battle_result(int modified_total);

// Probability of each unmodified total 2..12 (index = total) for 2d6, or for the best two of 3d6.
const std::array<double, 13>& battle_total_distribution(bool three_dice);

class DanelawGame {
 public:
  static constexpr std::size_t kMaxActions = 1024;
  static constexpr std::size_t kMaxChanceOutcomes = 21;
  using State = danelaw::State;

  DanelawGame();
  // The map named by rules.map (a built-in map, otherwise a file path).
  explicit DanelawGame(DanelawRules rules);
  // A map already loaded (a map file's text given to the web server, a test's map): rules.map
  // only names it in the rules and records, and is never opened.  As with a loaded map, a
  // rules.map_hash that differs from the map's content hash is a RulesError.
  DanelawGame(DanelawRules rules, std::shared_ptr<const HexMap> map);

  const GameInfo& info() const { return info_; }
  const DanelawRules& rules() const { return rules_; }
  const HexMap& map() const { return *map_; }
  const Movement& movement() const { return movement_; }

  State initial_state() const;
  Player current_player(const State& s) const;
  bool is_terminal(const State& s) const { return s.phase == Phase::kGameOver; }
  void legal_actions(const State& s, ActionList<DanelawGame>& out) const;
  void chance_outcomes(const State& s, ChanceList<DanelawGame>& out) const;
  void apply_action(State& s, Action action) const;
  void apply_chance(State& s, Action outcome) const;
  // Apply a decision or a chance outcome without the legality check (search applies only what the
  // game listed).
  void apply_unchecked(State& s, Action action) const;
  void apply_chance_unchecked(State& s, Action outcome) const;
  Returns returns(const State& s) const;
  std::string action_to_string(const State& s, Action action) const;
  // The action in a player's words (hints, move logs, the page's labels): a hex named as the map
  // names it, by its town ("army York"), else by its label and the nearest town ("to 1403 near
  // York"; the labels show only on a zoomed map).  parse_action reads these words as well; records
  // keep action_to_string's.
  std::string action_words(const State& s, Action action) const;
  // A hex in those words: "York", or "1403 near York".
  std::string hex_words(int hex) const;
  Action parse_action(const State& s, std::string_view text) const;
  std::string state_to_string(const State& s) const;
  std::string rules_json() const;
  static std::uint64_t hash(const State& s) { return hash_bytes(s); }
  static DanelawGame from_rules_json(std::string_view text);
  // Rules JSON played on a map already loaded (see the constructor above).
  static DanelawGame from_rules_json(std::string_view text, std::shared_ptr<const HexMap> map);
  // The game of the command line: rules from a JSON file (or the defaults when empty), and the
  // map from a file when given (overriding the rules' map).
  static DanelawGame from_files(const std::string& rules_path, const std::string& map_path);

  // Optional hooks (engine/core/game.h).  No `evaluate`: danelaw's evaluation is a learned model,
  // which belongs with its AI (solvers/danelaw/value_model.h), and reaches search leaves as its
  // value function (`leaf=value`, agents/danelaw_value.h).
  Action heuristic_action(const State& s, Rng& rng) const;
  void candidate_actions(const State& s, ActionList<DanelawGame>& out) const;
  std::string_view end_reason(const State& s) const;

  // Checks that a state read from a file fits this game's map and rules (hex indices on the map,
  // one army per hex, known sides and phases); throws FileFormatError naming the problem.
  void check_state(const State& s) const;

  // Queries used by the rules, the policy, the renderers and the tests.
  int army_at(const State& s, int hex) const;  // index into s.armies, or -1
  int danish_town_count(const State& s) const;
  bool town_held_by_danes(const State& s, int town) const { return s.danish_towns >> town & 1u; }
  // Hexes occupied by any army, and by armies of `enemy_of`'s enemy.
  void occupancy(const State& s, Side side, HexSet& occupied, HexSet& enemy) const;
  // The destinations of the army at `hex` within `points`, with their cost.  The scratch keeps the
  // last answer (applying a destination just listed asks again); without one, one is borrowed
  // from the game's pool for the call.
  void destinations(const State& s, int hex, int points, ReachList& out,
                    DanelawScratch& scratch) const;
  void destinations(const State& s, int hex, int points, ReachList& out) const {
    destinations(s, hex, points, out, *borrow_scratch());
  }
  // Scratch for the movement queries, from the pool that the game's own const hooks use; held
  // until the lease ends (scratch.h).
  ScratchPool::Lease borrow_scratch() const { return scratch_->borrow(); }
  // Modifier for the army at `roller` attacking the army at `target`.
  int battle_modifier(const State& s, int roller, int target) const;
  bool defender_in_open(int target) const;
  const std::vector<int>& field_army_hexes() const { return field_army_hexes_; }

 private:
  void begin_half_turn(State& s, Side side) const;
  void end_half_turn(State& s) const;
  void add_army(State& s, int hex, Side side, std::uint8_t flags) const;
  void remove_army(State& s, int index) const;
  void move_army(State& s, int index, int to) const;
  void resolve_attack(State& s) const;
  void continue_rout(State& s) const;
  void rout_steps_from(const State& s, FixedVector<std::uint16_t, kDirections>& out) const;
  bool has_destination(const State& s, int index, const HexSet& occupied,
                       const HexSet& enemy) const;
  void reinforcement_hexes(const State& s, FixedVector<std::uint16_t, kMaxHexes>& out) const;
  void check_wipe_out(State& s) const;
  bool roller_available(const State& s) const;
  std::string hex_text(int hex) const;
  // An action with its hex (if any) written by `hex_name`.
  template <class HexName>
  std::string action_text(Action action, HexName hex_name) const;

  DanelawRules rules_;
  std::shared_ptr<const HexMap> map_;
  Movement movement_;
  std::vector<int> field_army_hexes_;
  std::vector<std::vector<std::uint16_t>> sector_hexes_;  // [sector] -> sea hexes
  std::vector<std::uint16_t> sea_hexes_;
  GameInfo info_;
  // Shared by copies of the game (the pool is thread-safe); never part of its value.
  std::shared_ptr<ScratchPool> scratch_ = std::make_shared<ScratchPool>();
};

// cereal: only the armies in play are written; the rest are zero by the State invariant.
template <class Archive>
void save(Archive& ar, const Army& a) {
  ar(cereal::make_nvp("hex", a.hex), cereal::make_nvp("side", a.side),
     cereal::make_nvp("flags", a.flags));
}
template <class Archive>
void load(Archive& ar, Army& a) {
  ar(cereal::make_nvp("hex", a.hex), cereal::make_nvp("side", a.side),
     cereal::make_nvp("flags", a.flags));
}
// The armies of a state being read: the list's length is checked against kMaxArmies before any
// allocation it would size (a corrupted binary length must not ask for gigabytes).
struct ArmyListIn {
  std::vector<Army>& armies;
};
template <class Archive>
void load(Archive& ar, ArmyListIn& list) {
  cereal::size_type count = 0;
  ar(cereal::make_size_tag(count));
  if (count > static_cast<cereal::size_type>(kMaxArmies)) {
    throw cereal::Exception("field 'armies': " + std::to_string(count) + " armies, at most " +
                            std::to_string(kMaxArmies));
  }
  list.armies.resize(static_cast<std::size_t>(count));
  for (Army& army : list.armies) ar(army);
}
template <class Archive>
void save(Archive& ar, const State& s) {
  const std::vector<Army> armies(s.armies.begin(), s.armies.begin() + s.army_count);
  ar(cereal::make_nvp("armies", armies), cereal::make_nvp("danish_towns", s.danish_towns),
     cereal::make_nvp("selected", s.selected), cereal::make_nvp("target", s.target),
     cereal::make_nvp("rout_hex", s.rout_hex), cereal::make_nvp("rout_from", s.rout_from),
     cereal::make_nvp("phase", static_cast<std::uint8_t>(s.phase)),
     cereal::make_nvp("side", s.side), cereal::make_nvp("turn", s.turn),
     cereal::make_nvp("points", s.points), cereal::make_nvp("dice_low", s.dice_low),
     cereal::make_nvp("dice_high", s.dice_high), cereal::make_nvp("battle_roll", s.battle_roll),
     cereal::make_nvp("attack_rolls", s.attack_rolls), cereal::make_nvp("rout_steps", s.rout_steps),
     cereal::make_nvp("to_place", s.to_place), cereal::make_nvp("winner", s.winner),
     cereal::make_nvp("end_reason", static_cast<std::uint8_t>(s.end_reason)),
     cereal::make_nvp("pool", s.pool));
}
template <class Archive>
void load(Archive& ar, State& s) {
  std::vector<Army> armies;
  std::uint8_t phase = 0, end_reason = 0;
  s = State{};
  ArmyListIn army_list{armies};
  ar(cereal::make_nvp("armies", army_list), cereal::make_nvp("danish_towns", s.danish_towns),
     cereal::make_nvp("selected", s.selected), cereal::make_nvp("target", s.target),
     cereal::make_nvp("rout_hex", s.rout_hex), cereal::make_nvp("rout_from", s.rout_from),
     cereal::make_nvp("phase", phase), cereal::make_nvp("side", s.side),
     cereal::make_nvp("turn", s.turn), cereal::make_nvp("points", s.points),
     cereal::make_nvp("dice_low", s.dice_low), cereal::make_nvp("dice_high", s.dice_high),
     cereal::make_nvp("battle_roll", s.battle_roll),
     cereal::make_nvp("attack_rolls", s.attack_rolls), cereal::make_nvp("rout_steps", s.rout_steps),
     cereal::make_nvp("to_place", s.to_place), cereal::make_nvp("winner", s.winner),
     cereal::make_nvp("end_reason", end_reason), cereal::make_nvp("pool", s.pool));
  if (armies.size() > static_cast<std::size_t>(kMaxArmies) ||
      phase > static_cast<std::uint8_t>(Phase::kGameOver) ||
      end_reason > static_cast<std::uint8_t>(EndReason::kDanesWipedOut)) {
    throw cereal::Exception("danelaw state out of range");
  }
  for (std::size_t i = 0; i < armies.size(); ++i) s.armies[i] = armies[i];
  s.army_count = static_cast<std::uint8_t>(armies.size());
  s.phase = static_cast<Phase>(phase);
  s.end_reason = static_cast<EndReason>(end_reason);
}

}  // namespace sling::danelaw
