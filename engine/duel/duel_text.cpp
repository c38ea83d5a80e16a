// The duel's text: names of rolls, actions and outcomes, reading an action typed by a person, and
// the state described in words.  Apart from the rules (duel.cpp) because only play, records and
// tests read it, never search.

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "engine/core/errors.h"
#include "engine/duel/duel.h"

namespace sling::duel {

namespace {

std::string format_cm(int units) {
  // Half-millimetre units to centimetres with at most two decimals, trailing zeros trimmed.
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%.2f", units / static_cast<double>(DuelGame::kUnitsPerCm));
  std::string text = buffer;
  while (text.back() == '0') text.pop_back();
  if (text.back() == '.') text.pop_back();
  return text;
}

std::string lower_trim(std::string_view text) {
  std::string out;
  for (char c : text) out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  const auto first = out.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) return "";
  const auto last = out.find_last_not_of(" \t\r\n");
  return out.substr(first, last - first + 1);
}

}  // namespace

std::string DuelGame::outcome_to_string(const State& s, Action outcome) const {
  if (two_dice(s.roll) && s.rerolling == 0) {
    return "david " + std::to_string(outcome % 8) + " goliath " + std::to_string(outcome / 8);
  }
  return std::to_string(outcome);
}

std::string_view DuelGame::roll_name(Roll roll) {
  switch (roll) {
    case Roll::kNone:
      return "none";
    case Roll::kInitiative:
      return "initiative";
    case Roll::kDavidMove:
      return "david-move";
    case Roll::kGoliathMove:
      return "goliath-move";
    case Roll::kFleeTest:
      return "flee-test";
    case Roll::kFleeMove:
      return "flee-move";
    case Roll::kStoneToHit:
      return "stone-to-hit";
    case Roll::kStoneDamage:
      return "stone-damage";
    case Roll::kStoneDaze:
      return "stone-daze";
    case Roll::kSearch:
      return "search";
    case Roll::kJavelin:
      return "javelin";
    case Roll::kMelee:
      return "melee";
    case Roll::kRecover:
      return "recover";
  }
  return "none";
}

std::string DuelGame::action_to_string(const State& s, Action a) const {
  if (s.phase == Phase::kRoll) return outcome_to_string(s, a);
  if (s.phase == Phase::kDestination) {
    if (!act::is_destination(a)) return "action#" + std::to_string(a);
    const Side mover = mover_of(s);
    return "to " + format_cm(centre_x(mover, act::destination_x(a))) + " " +
           format_cm(centre_y(mover, act::destination_y(a)));
  }
  switch (a) {
    case act::kMove:
      return "move";
    case act::kShoot:
      return "shoot";
    case act::kFight:
      return "fight";
    case act::kDropShield:
      return "drop-shield";
    case act::kSearch:
      return "search";
    case act::kBehead:
      return "behead";
    case act::kRecover:
      return "recover";
    case act::kFlee:
      return "flee";
    case act::kAccept:
      return "accept";
    case act::kRerollFirst:
      return two_dice(s.roll) ? "reroll-david" : "reroll";
    case act::kRerollSecond:
      return "reroll-goliath";
    case act::kTieFlee:
      return "flee";
    case act::kTieStay:
      return "stay";
    default:
      return "action#" + std::to_string(a);
  }
}

Action DuelGame::parse_action(const State& s, std::string_view raw) const {
  const std::string text = lower_trim(raw);
  if (s.phase == Phase::kRoll) {
    int first = 0, second = 0;
    if (two_dice(s.roll) && s.rerolling == 0 &&
        std::sscanf(text.c_str(), "david %d goliath %d", &first, &second) == 2 && first >= 1 &&
        first <= 6 && second >= 1 && second <= 6) {
      return act::dice_pair(first, second);
    }
    if (text.size() == 1 && text[0] >= '1' && text[0] <= '6')
      return static_cast<Action>(text[0] - '0');
    throw ParseError("'" + std::string(raw) + "' is not a die roll here");
  }
  if (s.phase == Phase::kDestination) {
    std::string coordinates = text;
    for (std::string_view prefix : {"to ", "move "}) {
      if (coordinates.rfind(prefix, 0) == 0) coordinates = coordinates.substr(prefix.size());
    }
    double x_cm = 0, y_cm = 0;
    char extra = 0;
    if (std::sscanf(coordinates.c_str(), "%lf %lf %c", &x_cm, &y_cm, &extra) != 2) {
      throw ParseError("'" + std::string(raw) + "': give a destination as 'to X Y' in cm");
    }
    const Side mover = mover_of(s);
    for (int x = 0; x < lattice_width(mover); ++x) {
      if (std::abs(centre_x(mover, x) - x_cm * kUnitsPerCm) > 0.05) continue;
      for (int y = 0; y < lattice_height(mover); ++y) {
        if (std::abs(centre_y(mover, y) - y_cm * kUnitsPerCm) <= 0.05)
          return act::destination(x, y);
      }
    }
    throw ParseError("'" + std::string(raw) + "' is not a point of the movement lattice");
  }
  ActionList<DuelGame> actions;
  legal_actions(s, actions);
  for (Action a : actions) {
    if (action_to_string(s, a) == text) return a;
  }
  // Known words that are not legal now parse, so the caller reports them as illegal moves.
  static constexpr std::pair<std::string_view, Action> kWords[] = {
      {"move", act::kMove},
      {"shoot", act::kShoot},
      {"fight", act::kFight},
      {"drop-shield", act::kDropShield},
      {"search", act::kSearch},
      {"behead", act::kBehead},
      {"recover", act::kRecover},
      {"flee", act::kFlee},
      {"accept", act::kAccept},
      {"reroll", act::kRerollFirst},
      {"reroll-david", act::kRerollFirst},
      {"reroll-goliath", act::kRerollSecond},
      {"stay", act::kTieStay}};
  for (const auto& [word, a] : kWords) {
    if (word == text) return a;
  }
  throw ParseError("unknown action '" + std::string(raw) + "'");
}

std::string DuelGame::state_to_string(const State& s) const {
  // A scaled board: one character per centimetre across, one line per two centimetres.
  const int cols = rules_.board_cm, rows = (rules_.board_cm + 1) / 2;
  std::vector<std::string> grid(static_cast<std::size_t>(rows),
                                std::string(static_cast<std::size_t>(cols), '.'));
  auto mark = [&](Side side, int x, int y, char c) {
    const int col = std::clamp(centre_x(side, x) / kUnitsPerCm, 0, cols - 1);
    const int row = std::clamp(
        (rules_.board_cm * kUnitsPerCm - centre_y(side, y)) / (2 * kUnitsPerCm), 0, rows - 1);
    grid[static_cast<std::size_t>(row)][static_cast<std::size_t>(col)] = c;
  };
  mark(kGoliath, s.goliath_x, s.goliath_y, 'G');
  mark(kDavid, s.david_x, s.david_y, 'D');
  std::ostringstream out;
  out << "+" << std::string(static_cast<std::size_t>(cols), '-') << "+  north (Goliath's border)\n";
  for (const auto& line : grid) out << "|" << line << "|\n";
  out << "+" << std::string(static_cast<std::size_t>(cols), '-') << "+  south (David's border)\n";
  char distance[64];
  std::snprintf(distance, sizeof(distance), "%.2f", edge_distance_cm(s));
  out << "David at (" << format_cm(centre_x(kDavid, s.david_x)) << ", "
      << format_cm(centre_y(kDavid, s.david_y)) << ")  Goliath at ("
      << format_cm(centre_x(kGoliath, s.goliath_x)) << ", "
      << format_cm(centre_y(kGoliath, s.goliath_y)) << ")  distance " << distance << " cm"
      << (in_contact(s) ? " (in contact)" : "") << "\n";
  out << "David: shooting " << shooting_capability(s, kDavid) << ", "
      << (s.has(kDavidHasStone) ? "has a stone" : "no stone") << ", God "
      << (s.has(kGodAvailable) ? "available" : (rules_.god_enabled ? "used" : "disabled")) << "\n";
  out << "Goliath: javelin " << (s.has(kGoliathJavelin) ? "ready" : "gone") << " (shooting "
      << shooting_capability(s, kGoliath) << "), "
      << (s.has(kGoliathShield) ? "shield" : "two-handed khopesh") << ", protection "
      << protection(s) << ", combat " << combat_value(s, kGoliath)
      << (s.has(kGoliathDazed) ? ", DAZED" : "")
      << (s.has(kGoliathSkipsTurn) ? " (loses his next turn)" : "")
      << (s.has(kBeheadPending) ? ", David is beheading him" : "") << "\n";
  out << "Turn " << s.turn << ": ";
  switch (s.phase) {
    case Phase::kRoll:
      out << "rolling for " << roll_name(s.roll);
      break;
    case Phase::kGod:
      out << "David may invoke God on the " << roll_name(s.roll) << " roll";
      break;
    case Phase::kDeclare:
      out << (s.actor == kDavid ? "David" : "Goliath") << " declares an action";
      break;
    case Phase::kDestination:
      out << (mover_of(s) == kDavid ? "David" : "Goliath") << " moves up to "
          << static_cast<int>(s.allowance_cm) << " cm";
      break;
    case Phase::kTieFlee:
      out << "the melee is tied: David may flee at once";
      break;
    case Phase::kTerminal:
      out << (s.winner == 2 ? "draw" : (s.winner == kDavid ? "David wins" : "Goliath wins")) << " ("
          << end_reason(s) << ")";
      break;
  }
  out << "\n";
  return out.str();
}

}  // namespace sling::duel
