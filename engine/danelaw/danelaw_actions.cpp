// Danelaw's rules in motion: the legal decisions and chance outcomes of each phase, and what
// applying one does (movement, battles, routs, the end of the game).  Apart from the game's setup
// and queries (danelaw.cpp) so that the rules of play read in one place.

#include <algorithm>
#include <string>

#include "engine/danelaw/danelaw.h"

namespace sling::danelaw {

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

}  // namespace sling::danelaw
