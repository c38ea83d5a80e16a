#include "play/danelaw_view.h"

#include <sstream>

#include "engine/danelaw/render.h"

namespace sling::play {

using danelaw::ActionKind;
using danelaw::BattleResult;
using danelaw::DanelawGame;
using danelaw::Phase;

namespace {

std::string side_name(const DanelawGame& game, int side) {
  return display_name(game.info().sides[static_cast<std::size_t>(side)]);
}

// As the hints and the move log name it (the map's town, else label and nearest town).
std::string hex_name(const DanelawGame& game, int hex) {
  return game.hex_words(hex);
}

std::string result_text(BattleResult result) {
  switch (result) {
    case BattleResult::kDefenderDestroyed:
      return "the defender is destroyed";
    case BattleResult::kDefenderRouts:
      return "the defender routs";
    case BattleResult::kStandOff:
      return "a stand-off";
    case BattleResult::kAttackerRouts:
      return "the attacker routs";
    case BattleResult::kAttackerDestroyed:
      return "the attacker is destroyed";
  }
  return "";
}

std::string signed_number(int value) {
  return (value >= 0 ? "+" : "") + std::to_string(value);
}

}  // namespace

std::string GameView<DanelawGame>::board(const Game& game, const State& s, const Style& style) {
  std::string text = game.state_to_string(s);
  if (!text.empty() && text.back() != '\n') text += '\n';
  if (s.phase == Phase::kGameOver) text += style.paint(result(game, s), Colour::kBold) + "\n";
  return text;
}

std::optional<std::string> GameView<DanelawGame>::compact_board(const Game& game,
                                                                const State& shown, const State& s,
                                                                const Style& style) {
  if (shown.turn != s.turn || shown.side != s.side || s.phase == Phase::kGameOver) {
    return std::nullopt;
  }
  // The status is the last line of the full board's text.
  std::string text = game.state_to_string(s);
  while (!text.empty() && text.back() == '\n') text.pop_back();
  const std::size_t last = text.rfind('\n');
  const std::string status = last == std::string::npos ? text : text.substr(last + 1);
  return style.paint(status, Colour::kDim) + "  (`board` draws the map)\n";
}

std::string GameView<DanelawGame>::describe_chance(const Game& game, const State& before,
                                                   Action outcome, const Style& style) {
  const int payload = danelaw::action_payload(outcome);
  const auto die = [&](int face) {
    return style.paint("[" + std::to_string(face) + "]", Colour::kBold);
  };
  switch (before.phase) {
    case Phase::kMovementDice: {
      const int low = payload / 8, high = payload % 8;
      std::string text = side_name(game, before.side) +
                         (before.side == danelaw::kDanes ? "' movement: " : " movement: ") +
                         die(low) + " " + die(high) + "  -> " + std::to_string(low + high) +
                         " movement points";
      if (low == high) {
        text += before.side == danelaw::kDanes
                    ? "; a double: a reinforcement may land in sea sector " + std::to_string(low)
                    : (low >= 5 ? "; a double " + std::to_string(low) +
                                      ": a field army may muster at an English field town"
                                : "; a double, but only 5 or 6 reinforces the English");
      }
      return text;
    }
    case Phase::kBattleDice: {
      const int modifier = game.battle_modifier(before, before.selected, before.target);
      const int total = payload + modifier;
      std::string text = "Battle: " + side_name(game, before.side) + " at " +
                         hex_name(game, before.selected) + " against " +
                         hex_name(game, before.target) + ": total " + die(payload) +
                         (game.defender_in_open(before.target) ? " (best two of three dice)" : "");
      if (modifier != 0) text += " " + signed_number(modifier) + " = " + std::to_string(total);
      text += "  -> " + result_text(danelaw::battle_result(total));
      if (before.attack_rolls > 0 || before.battle_roll != 0)
        text += " (this roll replaces the last)";
      return text;
    }
    case Phase::kRoutDice:
      return "Rout: the army at " + hex_name(game, before.rout_hex) + " " + die(payload) +
             "  -> flees " + std::to_string(payload) + (payload == 1 ? " hex" : " hexes");
    default:
      break;
  }
  return "roll: " + game.action_to_string(before, outcome);
}

std::string GameView<DanelawGame>::option_label(const Game& game, const State& s, Action a) {
  std::string label = game.action_words(s, a);
  Rng rng(0, 0);
  if (game.heuristic_action(s, rng) == a) label += "  (rule of thumb)";
  return label;
}

void GameView<DanelawGame>::suggestions(const Game& game, const State& s, ActionList<Game>& out) {
  ActionList<Game> candidates;
  game.candidate_actions(s, candidates);
  Rng rng(0, 0);
  out.clear();
  out.push_back(game.heuristic_action(s, rng));
  for (Action a : candidates) {
    if (a != out[0]) out.push_back(a);
  }
}

std::string GameView<DanelawGame>::prompt(const Game& game, const State& s) {
  const std::string side = side_name(game, game.current_player(s));
  switch (s.phase) {
    case Phase::kPlace:
      return side + ", place an army on an empty sea hex (" + std::to_string(s.to_place) +
             " to place)";
    case Phase::kReinforce:
      return side + ", place your reinforcement";
    case Phase::kMove:
      return side + ", " + std::to_string(s.points) +
             " movement points left: choose an army (`army HEX`, or `army HEX to HEX`) or `end "
             "move`";
    case Phase::kMoveDestination:
      return side + ", move the army at " + hex_name(game, s.selected) + " (" +
             std::to_string(s.points) + " points left): `to HEX` (a label, q,r or a town)";
    case Phase::kChooseTarget:
      return side + ", choose an enemy army to attack, or `end battles`";
    case Phase::kChooseRoller:
      return side + ", choose the army to roll against " + hex_name(game, s.target) +
             (s.attack_rolls > 0 ? ", or `stop` to let the last roll stand" : "");
    case Phase::kAdvance:
      return side + ", advance into the hex won, or hold";
    case Phase::kRoutStep:
      return side + ", move the routing army at " + hex_name(game, s.rout_hex) + " one hex (" +
             std::to_string(s.rout_steps) + " to go)";
    default:
      break;
  }
  return side + " to act";
}

std::string GameView<DanelawGame>::rules_summary(const Game& game) {
  const auto& r = game.rules();
  std::ostringstream out;
  out << "DANELAW: Danes against English on a hex map of England, " << r.turn_limit << " turns.\n"
      << "The Danes win holding " << r.towns_to_win
      << " towns at the end (or by wiping the English out); otherwise the English win.\n"
      << "Each half-turn: roll 2d6 for movement points (a double reinforces: Danes at sea in\n"
      << "  that sector, English on a 5-5 or 6-6 at Winchester, York or Carlisle if held);\n"
      << "  move armies within the points (terrain, rivers and landings cost more; one army per\n"
      << "  hex; entering a town takes it); then battles: pick an adjacent enemy, roll 2d6 with\n"
      << "  one adjacent army (best two of 3d6 against a defender in the open), roll again with\n"
      << "  another to replace the roll, or stop.  Modifiers: -2 defender in hills, town or\n"
      << "  forest (English in wetland), -1 across a river, +1 for the Danes.\n"
      << "  11+ defender destroyed (advance or hold), 9-10 defender routs d6 hexes, 6-8 "
         "stand-off,\n"
      << "  4-5 attacker routs, 3 or less attacker destroyed. Militia never move; routed militia\n"
      << "  are destroyed.\n"
      << "Typed forms: `place HEX`, `reinforce HEX`, `army HEX`, `to HEX`, `army HEX to HEX`,\n"
      << "  `end move`, `attack HEX`, `roll HEX`, `stop`, `end battles`, `advance`, `hold`,\n"
      << "  `rout HEX`.  HEX is a label (0712), axial q,r, or a town name.\n"
      << "Full rules as implemented: docs/rules/danelaw.md\n";
  return out.str();
}

std::string GameView<DanelawGame>::result(const Game& game, const State& s) {
  if (s.phase != Phase::kGameOver || s.winner > 1) return "the game goes on";
  return side_name(game, s.winner) + " win: " + std::string(game.end_reason(s));
}

std::vector<std::string> GameView<DanelawGame>::split_input(const Game&, const State& s,
                                                            const std::string& line) {
  if (s.phase != Phase::kMove) return {line};
  const auto at = line.find(" to ");
  if (at == std::string::npos) return {line};
  return {line.substr(0, at), line.substr(at + 1)};
}

std::optional<std::string> GameView<DanelawGame>::svg(const Game& game, const State& s) {
  return danelaw::svg_map(game, &s);
}

}  // namespace sling::play
