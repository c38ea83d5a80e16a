#pragma once
// The David vs Goliath duel (docs/rules/duel.md).  DuelGame holds the rules and the lattice tables;
// DuelState is a 16-byte value.  The board's geometry (lattices, contact, movement discs, path
// legality) lives in engine/duel/geometry.h, shared with the exact solver.
//
// Every die is its own chance node, followed (while God is unused) by a David decision: accept the
// roll or invoke God and re-roll one die.  Search and solvers therefore see God like any other
// move.

#include <cereal/cereal.hpp>
#include <cereal/types/array.hpp>

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "engine/core/game.h"
#include "engine/duel/duel_rules.h"
#include "engine/duel/geometry.h"

namespace sling::duel {

enum class Phase : std::uint8_t {
  kRoll,         // a chance node: the die (or dice) of `roll` is thrown
  kGod,          // David accepts the dice just thrown or invokes God to re-roll one
  kDeclare,      // the side to act declares its action
  kDestination,  // the side to act picks where to move (within `allowance_cm`)
  kTieFlee,      // after a tied melee David may flee at once, without the flee test
  kTerminal,
};

// What the pending roll decides.
enum class Roll : std::uint8_t {
  kNone,
  kInitiative,   // two dice: David's and Goliath's
  kDavidMove,    // 12 - d6, a 6 trips David
  kGoliathMove,  // 7 - d6 with the shield, 9 - d6 two-handed
  kFleeTest,     // d6 >= 5 lets David flee
  kFleeMove,     // David's movement after a successful flee test (a 6 slips)
  kStoneToHit,   // d6 <= David's shooting capability at this distance
  kStoneDamage,  // d6 > Goliath's protection
  kStoneDaze,    // d6 <= 4 dazes Goliath
  kSearch,       // d6 >= 3 finds a stone
  kJavelin,      // d6 <= Goliath's shooting capability kills David
  kMelee,        // two dice: David's and Goliath's
  kRecover,      // d6 >= 5 and Goliath recovers his senses
};
inline constexpr int kRollKinds = 13;

// kTurnCap is the rules' turn cap; kTurnLimit the limit Sling puts on games between agents
// (engine/core/game_limit.h).
enum class EndReason : std::uint8_t { kNone, kBeheaded, kJavelin, kMelee, kTurnCap, kTurnLimit };

// State flags.
inline constexpr std::uint8_t kDavidHasStone = 1 << 0;
inline constexpr std::uint8_t kGoliathShield = 1 << 1;   // cleared when he takes the khopesh
inline constexpr std::uint8_t kGoliathJavelin = 1 << 2;  // cleared once thrown or lost
inline constexpr std::uint8_t kGodAvailable = 1 << 3;
inline constexpr std::uint8_t kGoliathDazed = 1 << 4;
inline constexpr std::uint8_t kGoliathSkipsTurn = 1 << 5;  // dazed by a stone: loses his next turn
inline constexpr std::uint8_t kBeheadPending = 1 << 6;     // David declared Behead last turn

struct DuelState {
  std::uint8_t david_x = 0, david_y = 0;  // lattice indices (see DuelGame::david_point)
  std::uint8_t goliath_x = 0, goliath_y = 0;
  Phase phase = Phase::kRoll;
  std::uint8_t actor = kDavid;    // whose turn it is
  Roll roll = Roll::kInitiative;  // what the pending or just-thrown dice decide
  std::uint8_t flags = 0;
  std::array<std::uint8_t, 2> dice{};  // faces thrown and not yet resolved (0 = none)
  std::uint8_t rerolling = 0;          // 1 + the die being re-rolled by God, or 0
  std::uint8_t allowance_cm = 0;       // movement allowance during kDestination
  std::uint8_t winner = 0xff;          // side, 2 for a draw, 0xff while playing
  EndReason end = EndReason::kNone;
  std::uint16_t turn = 0;  // turns begun (each side's turn counts one)

  bool has(std::uint8_t flag) const { return (flags & flag) != 0; }
  bool operator==(const DuelState&) const = default;
};
static_assert(sizeof(DuelState) == 16);
static_assert(std::is_trivially_copyable_v<DuelState>);

// Small facts about a state, shared by the rules, the heuristics and the views.
// Initiative and melee throw two dice, one per side; every other roll throws one.
constexpr bool two_dice(Roll roll) {
  return roll == Roll::kInitiative || roll == Roll::kMelee;
}
// Who moves during kDestination: the roll that granted the allowance says.
constexpr Side mover_of(const DuelState& s) {
  return s.roll == Roll::kGoliathMove ? kGoliath : kDavid;
}
// Places `mover` at lattice (x, y) in `s`; only positions change.  In place, field by field: a
// rollout that copied a state just written byte by byte would stall the CPU's store forwarding.
constexpr void place_figure(DuelState& s, Side mover, int x, int y) {
  if (mover == kDavid) {
    s.david_x = static_cast<std::uint8_t>(x);
    s.david_y = static_cast<std::uint8_t>(y);
  } else {
    s.goliath_x = static_cast<std::uint8_t>(x);
    s.goliath_y = static_cast<std::uint8_t>(y);
  }
}
// The state with `mover` placed at lattice (x, y).
constexpr DuelState moved(const DuelState& s, Side mover, int x, int y) {
  DuelState t = s;
  place_figure(t, mover, x, y);
  return t;
}

// Action layout.  Declarations and replies are small codes; a destination packs lattice indices.
namespace act {
inline constexpr Action kMove = 1;
inline constexpr Action kShoot = 2;  // David's sling or Goliath's javelin
inline constexpr Action kFight = 3;
inline constexpr Action kDropShield = 4;
inline constexpr Action kSearch = 5;
inline constexpr Action kBehead = 6;
inline constexpr Action kRecover = 7;
inline constexpr Action kFlee = 8;
inline constexpr Action kAccept = 16;        // accept the dice
inline constexpr Action kRerollFirst = 17;   // invoke God on the first (or only) die
inline constexpr Action kRerollSecond = 18;  // invoke God on the second die (Goliath's)
inline constexpr Action kTieFlee = 20;
inline constexpr Action kTieStay = 21;
inline constexpr Action kDestinationBase = 0x1000;
constexpr Action destination(int x, int y) {
  return kDestinationBase | static_cast<Action>(x << 6) | static_cast<Action>(y);
}
constexpr bool is_destination(Action a) {
  return (a & ~Action{0xfff}) == kDestinationBase;
}
constexpr int destination_x(Action a) {
  return static_cast<int>((a >> 6) & 63);
}
constexpr int destination_y(Action a) {
  return static_cast<int>(a & 63);
}
// Chance outcomes: a single die is its face; two dice are first + 8 * second.
constexpr Action dice_pair(int first, int second) {
  return static_cast<Action>(first + 8 * second);
}
}  // namespace act

class DuelGame {
 public:
  using State = DuelState;
  static constexpr std::size_t kMaxActions = 640;  // a movement disc of radius 11 lattice steps
  static constexpr std::size_t kMaxChanceOutcomes = 36;

  DuelGame() : DuelGame(DuelRules{}) {}
  explicit DuelGame(const DuelRules& rules);
  static DuelGame from_rules_json(std::string_view text);

  const GameInfo& info() const { return info_; }
  const DuelRules& rules() const { return rules_; }
  std::string rules_json() const;

  State initial_state() const;
  Player current_player(const State& s) const {  // in the header: every search ply asks it
    switch (s.phase) {
      case Phase::kRoll:
        return kChancePlayer;
      case Phase::kGod:
      case Phase::kTieFlee:
        return kDavid;
      case Phase::kDeclare:
        return static_cast<Player>(s.actor);
      case Phase::kDestination:
        return static_cast<Player>(mover_of(s));
      case Phase::kTerminal:
        return kTerminalPlayer;
    }
    return kTerminalPlayer;
  }
  bool is_terminal(const State& s) const { return s.phase == Phase::kTerminal; }
  void legal_actions(const State& s, ActionList<DuelGame>& out) const;
  void chance_outcomes(const State& s, ChanceList<DuelGame>& out) const;
  void apply_action(State& s, Action a) const;
  void apply_chance(State& s, Action outcome) const;
  Returns returns(const State& s) const;
  bool is_legal(const State& s, Action a) const;

  std::string action_to_string(const State& s, Action a) const;
  Action parse_action(const State& s, std::string_view text) const;
  std::string state_to_string(const State& s) const;
  static std::uint64_t hash(const State& s) { return hash_bytes(s); }

  // Optional hooks (engine/core/game.h).
  Action sample_legal_action(const State& s, Rng& rng) const;
  // For search, which applies only actions it listed or outcomes it drew: no legality check.
  void apply_unchecked(State& s, Action a) const;
  // In the header: a rollout draws dice at every other ply.
  Action sample_chance_outcome(const State& s, Rng& rng) const {
    if (two_dice(s.roll) && s.rerolling == 0) {
      const auto pair = rng.uniform(36);
      return act::dice_pair(static_cast<int>(pair % 6) + 1, static_cast<int>(pair / 6) + 1);
    }
    return static_cast<Action>(rng.uniform(6) + 1);
  }
  // HasRandomPlayout: plays `s` on with uniformly random decisions and dice for at most
  // `max_plies` plies (0: to the end) and returns where it stopped: the same plies, draws and
  // final state as search's generic rollout loop, without its dispatch at every ply.
  State random_playout(State s, int max_plies, Rng& rng) const;
  Action heuristic_action(const State& s, Rng& rng) const;
  double evaluate(const State& s) const;
  void candidate_actions(const State& s, ActionList<DuelGame>& out) const;
  std::string_view end_reason(const State& s) const;
  // HasTurnLimit: the same rules, drawn ("turn limit") when turn `turns` + 1 would begin, counted
  // as the rules' turn cap is (a lower rules cap still ends the game first).  0 lifts the limit;
  // over 65,535 turns (the turn counter's range) is a RulesError.
  DuelGame with_turn_limit(int turns) const;
  int turn_limit() const { return turn_limit_; }
  // Stand-offs (HasRepetition): the position is both figures' places, the flags and the side to
  // act.
  std::uint64_t repetition_key(const State& s) const;
  std::uint64_t turn_repetition_key(const State& s) const;

  // Geometry, in half-millimetre units (engine/duel/geometry.h).
  static constexpr int kUnitsPerCm = DuelGeometry::kUnitsPerCm;
  const DuelGeometry& geometry() const { return geometry_; }
  int lattice_width(Side side) const { return geometry_.lattice_width(side); }
  int lattice_height(Side side) const { return geometry_.lattice_height(side); }
  // Centre of a figure at lattice (x, y), in units.
  int centre_x(Side side, int x) const { return geometry_.centre_x(side, x); }
  int centre_y(Side side, int y) const { return geometry_.centre_y(side, y); }
  // Squared centre distance, in units^2.
  std::int64_t centre_distance2(const State& s) const {
    return geometry_.centre_distance2(s.david_x, s.david_y, s.goliath_x, s.goliath_y);
  }
  bool in_contact(const State& s) const { return geometry_.in_contact(centre_distance2(s)); }
  // Full shooting bands between the figures' edges (0 when closer than one band).
  int distance_bands(const State& s) const { return geometry_.distance_bands(centre_distance2(s)); }
  int shooting_capability(const State& s, Side shooter) const;
  // Edge-to-edge distance in centimetres (for display).
  double edge_distance_cm(const State& s) const;
  int contact_tolerance_units() const { return geometry_.contact_tolerance_units(); }
  int protection(const State& s) const;
  int combat_value(const State& s, Side side) const;
  int move_base(const State& s, Side side) const;
  // Is moving the actor from its position to lattice (x, y) legal within `allowance_cm`?
  bool destination_legal(const State& s, Side mover, int x, int y, int allowance_cm) const;
  // Text of a chance outcome of `s` (e.g. "5" or "David 3, Goliath 6").
  std::string outcome_to_string(const State& s, Action outcome) const;
  static std::string_view roll_name(Roll roll);

 private:
  void begin_turn(State& s, Side side) const;
  void end_turn(State& s) const;
  void throw_dice(State& s, Roll roll) const;
  void dice_final(State& s) const;  // resolve the pending roll
  void finish(State& s, Side winner, EndReason why) const;
  void list_destinations(const State& s, ActionList<DuelGame>& out) const;
  // The legal declarations as a bit set (bit a for action a), each rule checked once.
  std::uint32_t declaration_mask(const State& s) const;
  bool declaration_legal(const State& s, Action a) const;
  void apply_decision(State& s, Action a) const;
  void declare(State& s, Action declaration) const;  // kDeclare
  void arrive(State& s, Action destination) const;   // kDestination
  void settle_dice(State& s, Action outcome) const;  // apply_chance without its checks
  // sample_legal_action by phase; sample_listed draws from the legal_actions list.
  Action sample_declaration(const State& s, Rng& rng) const;
  Action sample_destination(const State& s, Rng& rng) const;
  Action sample_listed(const State& s, Rng& rng) const;

  DuelRules rules_;
  GameInfo info_;
  DuelGeometry geometry_;
  // Every move of either side: the disc of the longest allowance.
  MovementDisc moves_;
  int turn_limit_ = 0;  // not a rule: the limit of a game between agents (0 = none)
};

template <class Archive>
void serialize(Archive& ar, DuelState& s) {
  ar(cereal::make_nvp("david_x", s.david_x), cereal::make_nvp("david_y", s.david_y),
     cereal::make_nvp("goliath_x", s.goliath_x), cereal::make_nvp("goliath_y", s.goliath_y),
     cereal::make_nvp("phase", s.phase), cereal::make_nvp("actor", s.actor),
     cereal::make_nvp("roll", s.roll), cereal::make_nvp("flags", s.flags),
     cereal::make_nvp("dice", s.dice), cereal::make_nvp("rerolling", s.rerolling),
     cereal::make_nvp("allowance_cm", s.allowance_cm), cereal::make_nvp("winner", s.winner),
     cereal::make_nvp("end", s.end), cereal::make_nvp("turn", s.turn));
}

}  // namespace sling::duel
