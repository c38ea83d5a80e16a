#include "engine/duel/duel.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "engine/core/errors.h"
#include "engine/duel/destination_test.h"

namespace sling::duel {

namespace {

constexpr Side other(Side side) {
  return side == kDavid ? kGoliath : kDavid;
}

// Checked before the geometry is built from them (a pitch of 0 would divide by zero).
const DuelRules& validated(const DuelRules& rules) {
  rules.validate();
  return rules;
}

}  // namespace

DuelGame::DuelGame(const DuelRules& rules)
    : rules_(validated(rules)),
      info_{"duel", {"david", "goliath"}, 36, static_cast<int>(kMaxActions), rules.turn_cap > 0},
      geometry_(rules_),
      moves_(std::max(
                 {rules_.david_move, rules_.goliath_move_shield, rules_.goliath_move_two_handed}) -
                 1,
             rules_.pitch_cm) {}

DuelGame DuelGame::with_turn_limit(int turns) const {
  if (turns < 0 || turns > 0xffff) {
    throw RulesError("turn limit " + std::to_string(turns) + " is out of range (0 to 65535)");
  }
  DuelGame limited = *this;
  limited.turn_limit_ = turns;
  limited.info_.has_draws = limited.info_.has_draws || turns > 0;
  return limited;
}

DuelGame DuelGame::from_rules_json(std::string_view text) {
  return DuelGame(rules_from_json(std::string(text)));
}

std::string DuelGame::rules_json() const {
  return rules_to_json(rules_);
}

int DuelGame::shooting_capability(const State& s, Side shooter) const {
  const int base = shooter == kDavid ? rules_.david_shooting : rules_.goliath_shooting;
  return std::max(0, base - distance_bands(s));
}

double DuelGame::edge_distance_cm(const State& s) const {
  return std::max(0.0, std::sqrt(static_cast<double>(centre_distance2(s))) -
                           geometry_.sum_radii_units()) /
         kUnitsPerCm;
}

int DuelGame::protection(const State& s) const {
  return s.has(kGoliathShield) ? rules_.protection_shield : rules_.protection_two_handed;
}

int DuelGame::combat_value(const State& s, Side side) const {
  if (side == kDavid) return rules_.combat_david;
  return s.has(kGoliathShield) ? rules_.combat_goliath_shield : rules_.combat_goliath_two_handed;
}

int DuelGame::move_base(const State& s, Side side) const {
  if (side == kDavid) return rules_.david_move;
  return s.has(kGoliathShield) ? rules_.goliath_move_shield : rules_.goliath_move_two_handed;
}

DuelState DuelGame::initial_state() const {
  State s;
  s.david_x = static_cast<std::uint8_t>((lattice_width(kDavid) - 1) / 2);
  s.david_y = 0;
  s.goliath_x = static_cast<std::uint8_t>((lattice_width(kGoliath) - 1) / 2);
  s.goliath_y = 0;
  s.flags = kGoliathShield | kGoliathJavelin | (rules_.god_enabled ? kGodAvailable : 0);
  s.phase = Phase::kRoll;
  s.roll = Roll::kInitiative;
  return s;
}

Returns DuelGame::returns(const State& s) const {
  if (s.phase != Phase::kTerminal || s.winner == 2) return {0.0, 0.0};
  return s.winner == kDavid ? Returns{1.0, -1.0} : Returns{-1.0, 1.0};
}

namespace {

// The position's fields packed side by side: exact (no two positions share a key) and never 0,
// which means "no position".
std::uint64_t position_key(const DuelState& s) {
  return (std::uint64_t{1} << 48) | std::uint64_t{s.david_x} | std::uint64_t{s.david_y} << 8 |
         std::uint64_t{s.goliath_x} << 16 | std::uint64_t{s.goliath_y} << 24 |
         std::uint64_t{s.actor} << 32 | std::uint64_t{s.flags} << 40;
}

}  // namespace

std::uint64_t DuelGame::repetition_key(const State& s) const {
  return s.phase == Phase::kDeclare ? position_key(s) : 0;
}

std::uint64_t DuelGame::turn_repetition_key(const State& s) const {
  // Until the destination is chosen, a move changes nothing of the position but God's flag, and
  // that only once a re-roll is asked for; a declaration that throws other dice may have spent a
  // stone or the javelin already.
  const bool moving = s.roll == Roll::kDavidMove || s.roll == Roll::kGoliathMove;
  switch (s.phase) {
    case Phase::kDeclare:
    case Phase::kDestination:
      return position_key(s);
    case Phase::kGod:
    case Phase::kRoll:
      return moving && s.rerolling == 0 ? position_key(s) : 0;
    case Phase::kTieFlee:
    case Phase::kTerminal:
      return 0;
  }
  return 0;
}

std::string_view DuelGame::end_reason(const State& s) const {
  switch (s.end) {
    case EndReason::kBeheaded:
      return "beheaded";
    case EndReason::kJavelin:
      return "javelin";
    case EndReason::kMelee:
      return "melee";
    case EndReason::kTurnCap:
      return "turn cap";
    case EndReason::kTurnLimit:
      return "turn limit";
    case EndReason::kNone:
      break;
  }
  return "not over";
}

// ---------------------------------------------------------------------------------------------
// Chance nodes.

void DuelGame::chance_outcomes(const State& s, ChanceList<DuelGame>& out) const {
  out.clear();
  if (s.phase != Phase::kRoll) return;
  if (two_dice(s.roll) && s.rerolling == 0) {
    for (int first = 1; first <= 6; ++first) {
      for (int second = 1; second <= 6; ++second) {
        out.push_back({act::dice_pair(first, second), 1.0 / 36.0});
      }
    }
    return;
  }
  for (int face = 1; face <= 6; ++face) out.push_back({static_cast<Action>(face), 1.0 / 6.0});
}

void DuelGame::apply_chance(State& s, Action outcome) const {
  if (s.phase != Phase::kRoll) throw IllegalActionError("not a chance node");
  if (s.rerolling != 0 || !two_dice(s.roll)) {
    if (outcome < 1 || outcome > 6) throw IllegalActionError("a die shows 1 to 6");
  } else {
    const int first = static_cast<int>(outcome % 8), second = static_cast<int>(outcome / 8);
    if (first < 1 || first > 6 || second < 1 || second > 6) {
      throw IllegalActionError("not a pair of dice");
    }
  }
  settle_dice(s, outcome);
}

void DuelGame::settle_dice(State& s, Action outcome) const {
  if (s.rerolling != 0) {
    s.dice[s.rerolling - 1] = static_cast<std::uint8_t>(outcome);
    s.rerolling = 0;
    dice_final(s);
    return;
  }
  if (two_dice(s.roll)) {
    s.dice = {static_cast<std::uint8_t>(outcome % 8), static_cast<std::uint8_t>(outcome / 8)};
  } else {
    s.dice = {static_cast<std::uint8_t>(outcome), 0};
  }
  if (s.has(kGodAvailable)) {
    s.phase = Phase::kGod;  // David sees the dice and may re-roll one before they take effect
  } else {
    dice_final(s);
  }
}

void DuelGame::throw_dice(State& s, Roll roll) const {
  s.phase = Phase::kRoll;
  s.roll = roll;
  s.dice = {0, 0};
  s.rerolling = 0;
}

// Steps 1-13 of the rules, one per roll kind: the dice are final and take effect.
void DuelGame::dice_final(State& s) const {
  const int die = s.dice[0];
  const int second = s.dice[1];
  s.dice = {0, 0};
  switch (s.roll) {
    case Roll::kInitiative:
      if (die == second) {
        throw_dice(s, Roll::kInitiative);  // ties are rolled again
      } else {
        begin_turn(s, die > second ? kDavid : kGoliath);
      }
      return;
    case Roll::kDavidMove:
    case Roll::kFleeMove:
      if (die == 6) {  // David trips (or slips while fleeing): no movement
        end_turn(s);
      } else {
        s.allowance_cm = static_cast<std::uint8_t>(rules_.david_move - die);
        s.phase = Phase::kDestination;
      }
      return;
    case Roll::kGoliathMove:
      s.allowance_cm = static_cast<std::uint8_t>(std::max(0, move_base(s, kGoliath) - die));
      s.phase = Phase::kDestination;
      return;
    case Roll::kFleeTest:
      if (die >= rules_.flee_min) {
        throw_dice(s, Roll::kFleeMove);
      } else {
        end_turn(s);
      }
      return;
    case Roll::kStoneToHit:
      if (die <= shooting_capability(s, kDavid)) {
        throw_dice(s, Roll::kStoneDamage);
      } else {
        end_turn(s);
      }
      return;
    case Roll::kStoneDamage:
      if (die > protection(s)) {
        throw_dice(s, Roll::kStoneDaze);
      } else {
        end_turn(s);
      }
      return;
    case Roll::kStoneDaze:
      // "This roll is considered an action for Goliath": a stone-dazed Goliath loses his next turn.
      if (die <= rules_.daze_max) s.flags |= kGoliathDazed | kGoliathSkipsTurn;
      end_turn(s);
      return;
    case Roll::kSearch:
      if (die >= rules_.search_min) s.flags |= kDavidHasStone;
      end_turn(s);
      return;
    case Roll::kJavelin:
      if (die <= shooting_capability(s, kGoliath)) {
        finish(s, kGoliath, EndReason::kJavelin);
      } else {
        end_turn(s);
      }
      return;
    case Roll::kMelee: {
      const int david_total = die + combat_value(s, kDavid);
      const int goliath_total = second + combat_value(s, kGoliath);
      if (david_total < goliath_total) {
        finish(s, kGoliath, EndReason::kMelee);
      } else if (david_total > goliath_total) {
        s.flags |= kGoliathDazed;
        end_turn(s);
      } else {
        s.phase = Phase::kTieFlee;
      }
      return;
    }
    case Roll::kRecover:
      if (die >= rules_.recover_min) s.flags &= static_cast<std::uint8_t>(~kGoliathDazed);
      end_turn(s);
      return;
    case Roll::kNone:
      break;
  }
  throw IllegalActionError("no roll to resolve");
}

// ---------------------------------------------------------------------------------------------
// Turns.

void DuelGame::finish(State& s, Side winner, EndReason why) const {
  s.phase = Phase::kTerminal;
  s.winner = winner;
  s.end = why;
  s.roll = Roll::kNone;
  s.dice = {0, 0};
  s.allowance_cm = 0;
}

void DuelGame::begin_turn(State& s, Side side) const {
  s.actor = side;
  s.roll = Roll::kNone;
  s.allowance_cm = 0;
  const bool capped = rules_.turn_cap > 0 && s.turn >= rules_.turn_cap;
  if (capped || (turn_limit_ > 0 && s.turn >= turn_limit_)) {
    s.phase = Phase::kTerminal;
    s.winner = 2;
    s.end = capped ? EndReason::kTurnCap : EndReason::kTurnLimit;
    return;
  }
  if (s.turn < 0xffff) ++s.turn;  // saturates: only a turn cap reads it, and caps are smaller
  if (side == kDavid && s.has(kBeheadPending)) {
    s.flags &= static_cast<std::uint8_t>(~kBeheadPending);
    if (s.has(kGoliathDazed)) {
      finish(s, kDavid, EndReason::kBeheaded);
      return;
    }
  }
  if (side == kGoliath && s.has(kGoliathSkipsTurn)) {
    s.flags &= static_cast<std::uint8_t>(~kGoliathSkipsTurn);
    begin_turn(s, kDavid);
    return;
  }
  s.phase = Phase::kDeclare;
}

void DuelGame::end_turn(State& s) const {
  begin_turn(s, other(static_cast<Side>(s.actor)));
}

// ---------------------------------------------------------------------------------------------
// Decisions.

std::uint32_t DuelGame::declaration_mask(const State& s) const {
  // Bit a is set when declaring a (act::kMove .. act::kFlee) is legal.  Contact and the shooting
  // ranges are one lookup of the figures' separation for all the declarations.
  const auto bit = [](Action a) { return std::uint32_t{1} << a; };
  const std::uint8_t separation =
      geometry_.separation(s.david_x, s.david_y, s.goliath_x, s.goliath_y);
  const bool contact = (separation & DuelGeometry::kInContact) != 0;
  std::uint32_t mask = 0;
  if (s.actor == kDavid) {
    const bool stone = s.has(kDavidHasStone);
    if (!contact) mask |= bit(act::kMove);  // in contact David must Flee
    if (stone && (separation & DuelGeometry::kDavidInRange) != 0) mask |= bit(act::kShoot);
    if (contact) mask |= bit(act::kFight) | bit(act::kFlee);
    if (!stone) mask |= bit(act::kSearch);
    if (contact && s.has(kGoliathDazed)) mask |= bit(act::kBehead);
    return mask;
  }
  if (s.has(kGoliathDazed)) return bit(act::kRecover);  // a dazed Goliath can only try to recover
  mask |= bit(act::kMove);
  if (s.has(kGoliathJavelin) && (separation & DuelGeometry::kGoliathInRange) != 0) {
    mask |= bit(act::kShoot);
  }
  if (contact) mask |= bit(act::kFight);
  if (s.has(kGoliathShield)) mask |= bit(act::kDropShield);
  return mask;
}

bool DuelGame::declaration_legal(const State& s, Action a) const {
  return a >= act::kMove && a <= act::kFlee && ((declaration_mask(s) >> a) & 1) != 0;
}

bool DuelGame::destination_legal(const State& s, Side mover, int x, int y, int allowance_cm) const {
  if (x < 0 || y < 0 || x >= lattice_width(mover) || y >= lattice_height(mover)) return false;
  const int from_x = mover == kDavid ? s.david_x : s.goliath_x;
  const int from_y = mover == kDavid ? s.david_y : s.goliath_y;
  const std::int64_t px = centre_x(mover, from_x), py = centre_y(mover, from_y);
  const std::int64_t qx = centre_x(mover, x), qy = centre_y(mover, y);
  const std::int64_t step2 = (qx - px) * (qx - px) + (qy - py) * (qy - py);
  const std::int64_t allowance = static_cast<std::int64_t>(allowance_cm) * kUnitsPerCm;
  if (step2 > allowance * allowance) return false;
  if (step2 == 0) return true;  // staying put is moving zero
  const Side still = other(mover);
  const std::int64_t cx = centre_x(still, still == kDavid ? s.david_x : s.goliath_x);
  const std::int64_t cy = centre_y(still, still == kDavid ? s.david_y : s.goliath_y);
  return geometry_.path_clear(px, py, qx, qy, cx, cy);
}

void DuelGame::list_destinations(const State& s, ActionList<DuelGame>& out) const {
  const detail::DestinationTest test(geometry_, s);
  const int count = moves_.within[static_cast<std::size_t>(std::min<int>(s.allowance_cm, 12))];
  for (int i = 0; i < count; ++i) {
    const Action a = test.destination(moves_.offsets[static_cast<std::size_t>(i)]);
    if (a != kInvalidAction) out.push_back(a);
  }
}

void DuelGame::legal_actions(const State& s, ActionList<DuelGame>& out) const {
  out.clear();
  switch (s.phase) {
    case Phase::kDeclare:
      for (std::uint32_t mask = declaration_mask(s); mask != 0; mask &= mask - 1) {
        out.push_back(static_cast<Action>(std::countr_zero(mask)));  // in increasing order
      }
      return;
    case Phase::kGod:
      out.push_back(act::kAccept);
      out.push_back(act::kRerollFirst);
      if (two_dice(s.roll)) out.push_back(act::kRerollSecond);
      return;
    case Phase::kTieFlee:
      out.push_back(act::kTieFlee);
      out.push_back(act::kTieStay);
      return;
    case Phase::kDestination:
      list_destinations(s, out);
      return;
    case Phase::kRoll:
    case Phase::kTerminal:
      return;
  }
}

bool DuelGame::is_legal(const State& s, Action a) const {
  switch (s.phase) {
    case Phase::kDeclare:
      return declaration_legal(s, a);
    case Phase::kGod:
      return a == act::kAccept || a == act::kRerollFirst ||
             (a == act::kRerollSecond && two_dice(s.roll));
    case Phase::kTieFlee:
      return a == act::kTieFlee || a == act::kTieStay;
    case Phase::kDestination:
      return act::is_destination(a) && destination_legal(s, mover_of(s), act::destination_x(a),
                                                         act::destination_y(a), s.allowance_cm);
    case Phase::kRoll:
    case Phase::kTerminal:
      return false;
  }
  return false;
}

void DuelGame::apply_action(State& s, Action a) const {
  if (!is_legal(s, a)) {
    if (s.phase == Phase::kRoll || s.phase == Phase::kTerminal) {
      throw IllegalActionError("no decision is pending");
    }
    throw IllegalActionError("illegal action '" + action_to_string(s, a) + "'");
  }
  apply_decision(s, a);
}

void DuelGame::apply_unchecked(State& s, Action a) const {
  if (s.phase == Phase::kRoll) {
    settle_dice(s, a);
  } else {
    apply_decision(s, a);
  }
}

void DuelGame::apply_decision(State& s, Action a) const {
  switch (s.phase) {
    case Phase::kDeclare:
      declare(s, a);
      return;
    case Phase::kGod:
      if (a == act::kAccept) {
        dice_final(s);
      } else {
        s.flags &= static_cast<std::uint8_t>(~kGodAvailable);
        s.rerolling = static_cast<std::uint8_t>(a == act::kRerollFirst ? 1 : 2);
        s.phase = Phase::kRoll;
      }
      return;
    case Phase::kTieFlee:
      if (a == act::kTieFlee) {
        throw_dice(s, Roll::kFleeMove);  // the movement roll only, no 5-6 test
      } else {
        end_turn(s);
      }
      return;
    case Phase::kDestination:
      arrive(s, a);
      return;
    case Phase::kRoll:
    case Phase::kTerminal:
      return;
  }
}

void DuelGame::declare(State& s, Action a) const {
  switch (a) {
    case act::kMove:
      throw_dice(s, s.actor == kDavid ? Roll::kDavidMove : Roll::kGoliathMove);
      return;
    case act::kShoot:
      if (s.actor == kDavid) {
        s.flags &= static_cast<std::uint8_t>(~kDavidHasStone);  // a thrown stone is used up
        throw_dice(s, Roll::kStoneToHit);
      } else {
        s.flags &= static_cast<std::uint8_t>(~kGoliathJavelin);  // the javelin is thrown once
        throw_dice(s, Roll::kJavelin);
      }
      return;
    case act::kFight:
      throw_dice(s, Roll::kMelee);
      return;
    case act::kDropShield:
      // Taking the khopesh in both hands takes the turn, and an unused javelin is lost.
      s.flags &= static_cast<std::uint8_t>(~(kGoliathShield | kGoliathJavelin));
      end_turn(s);
      return;
    case act::kSearch:
      throw_dice(s, Roll::kSearch);
      return;
    case act::kBehead:
      s.flags |= kBeheadPending;
      end_turn(s);
      return;
    case act::kRecover:
      throw_dice(s, Roll::kRecover);
      return;
    case act::kFlee:
      throw_dice(s, Roll::kFleeTest);
      return;
    default:
      return;
  }
}

void DuelGame::arrive(State& s, Action destination) const {
  place_figure(s, mover_of(s), act::destination_x(destination), act::destination_y(destination));
  s.allowance_cm = 0;
  end_turn(s);
}

}  // namespace sling::duel
