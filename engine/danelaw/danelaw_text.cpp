// Danelaw's text: actions and states in words, and reading an action typed by a person.  Apart
// from the rules because only play, records and tests read it, never search.

#include <algorithm>
#include <cctype>
#include <sstream>

#include "engine/danelaw/danelaw.h"
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

}  // namespace

// ---------------------------------------------------------------------------------------------
// Text.

std::string DanelawGame::hex_text(int hex) const {
  std::string text = map_->label(hex);
  const int town = map_->hex(hex).town;
  if (town >= 0) text += " " + map_->towns()[town].name;
  return text;
}

// The nearest town by hex distance (the first in the map's order on a tie), so that the words of
// a hex without a town still point at a name the unzoomed map shows.
std::string DanelawGame::hex_words(int hex) const {
  const int town = map_->hex(hex).town;
  if (town >= 0) return map_->towns()[static_cast<std::size_t>(town)].name;
  const Town* nearest = nullptr;
  int best = 0;
  for (const Town& t : map_->towns()) {
    const int d = map_->distance(hex, t.hex);
    if (!nearest || d < best) nearest = &t, best = d;
  }
  std::string text = map_->label(hex);
  if (nearest) text += " near " + nearest->name;
  return text;
}

template <class HexName>
std::string DanelawGame::action_text(Action action, HexName hex_name) const {
  const int p = action_payload(action);
  switch (action_kind(action)) {
    case ActionKind::kPlace:
      return "place " + hex_name(p);
    case ActionKind::kReinforce:
      return "reinforce " + hex_name(p);
    case ActionKind::kSelect:
      return "army " + hex_name(p);
    case ActionKind::kMoveTo:
      return "to " + hex_name(p);
    case ActionKind::kEndMove:
      return "end move";
    case ActionKind::kAttack:
      return "attack " + hex_name(p);
    case ActionKind::kRoll:
      return "roll " + hex_name(p);
    case ActionKind::kStop:
      return "stop";
    case ActionKind::kEndBattles:
      return "end battles";
    case ActionKind::kAdvance:
      return "advance";
    case ActionKind::kHold:
      return "hold";
    case ActionKind::kRoutStep:
      return "rout " + hex_name(p);
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

std::string DanelawGame::action_to_string(const State&, Action action) const {
  return action_text(action, [&](int hex) { return hex_text(hex); });
}

std::string DanelawGame::action_words(const State&, Action action) const {
  return action_text(action, [&](int hex) { return hex_words(hex); });
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
