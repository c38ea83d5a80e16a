#include "play/duel_view.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <vector>

namespace sling::play {

using duel::DuelGame;
using duel::DuelState;
using duel::moved;
using duel::mover_of;
using duel::Phase;
using duel::Roll;
using duel::Side;
using duel::two_dice;
namespace act = duel::act;

namespace {

const char* side_name(int side) {
  return side == duel::kDavid ? "David" : "Goliath";
}

std::string format_cm(double cm) {
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%.2f", cm);
  std::string text = buffer;
  while (text.back() == '0') text.pop_back();
  if (text.back() == '.') text.pop_back();
  return text;
}

std::string fixed(double value, int decimals) {
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%.*f", decimals, value);
  return buffer;
}

// "1-3", "a 6", "5-6", or "never" for the faces lo..hi of a d6.
std::string faces(int lo, int hi) {
  lo = std::max(lo, 1);
  hi = std::min(hi, 6);
  if (lo > hi) return "never";
  if (lo == hi) return "a " + std::to_string(lo);
  return std::to_string(lo) + "-" + std::to_string(hi);
}

std::string die(int face, const Style& style) {
  return style.paint("[" + std::to_string(face) + "]", Colour::kBold);
}

double centre_cm(int units) {
  return units / static_cast<double>(DuelGame::kUnitsPerCm);
}

// What a roll of kind `roll` with dice (first, second) does in state `s` (the dice not yet final).
std::string roll_effect(const DuelGame& game, const DuelState& s, Roll roll, int first,
                        int second) {
  const auto& rules = game.rules();
  switch (roll) {
    case Roll::kInitiative:
      if (first == second) return "a tie: both roll again";
      return std::string(first > second ? "David" : "Goliath") + " goes first";
    case Roll::kDavidMove:
      if (first == 6) return "a 6: David trips and does not move";
      return "David may move up to " + std::to_string(rules.david_move - first) + " cm";
    case Roll::kGoliathMove:
      return "Goliath may move up to " +
             std::to_string(std::max(0, game.move_base(s, duel::kGoliath) - first)) + " cm";
    case Roll::kFleeTest:
      return first >= rules.flee_min
                 ? "David breaks away (needed " + faces(rules.flee_min, 6) + "): he rolls to move"
                 : "David fails to flee (needed " + faces(rules.flee_min, 6) + ")";
    case Roll::kFleeMove:
      if (first == 6) return "a 6: David slips and stays";
      return "David may flee up to " + std::to_string(rules.david_move - first) + " cm";
    case Roll::kStoneToHit: {
      const int cap = game.shooting_capability(s, duel::kDavid);
      return std::string(first <= cap ? "the stone hits" : "the stone misses") + " (hits on " +
             faces(1, cap) + ")";
    }
    case Roll::kStoneDamage: {
      const int protection = game.protection(s);
      return std::string(first > protection ? "the stone hurts Goliath"
                                            : "Goliath's protection stops it") +
             " (hurts on " + faces(protection + 1, 6) + ")";
    }
    case Roll::kStoneDaze:
      return first <= rules.daze_max
                 ? "Goliath is dazed and loses his next turn"
                 : "Goliath shrugs it off (dazed on " + faces(1, rules.daze_max) + ")";
    case Roll::kSearch:
      return first >= rules.search_min
                 ? std::string("David finds a stone")
                 : "David finds nothing (needed " + faces(rules.search_min, 6) + ")";
    case Roll::kJavelin: {
      const int cap = game.shooting_capability(s, duel::kGoliath);
      return first <= cap ? "the javelin kills David"
                          : "the javelin misses (kills on " + faces(1, cap) + ")";
    }
    case Roll::kMelee: {
      const int david = first + game.combat_value(s, duel::kDavid);
      const int goliath = second + game.combat_value(s, duel::kGoliath);
      std::string text = "David " + std::to_string(first) + "+" +
                         std::to_string(game.combat_value(s, duel::kDavid)) + "=" +
                         std::to_string(david) + " against Goliath " + std::to_string(second) +
                         "+" + std::to_string(game.combat_value(s, duel::kGoliath)) + "=" +
                         std::to_string(goliath) + ": ";
      if (david < goliath) return text + "David is killed";
      if (david > goliath) return text + "Goliath is dazed";
      return text + "a tie, David may flee at once";
    }
    case Roll::kRecover:
      return first >= rules.recover_min
                 ? std::string("Goliath recovers his senses")
                 : "Goliath stays dazed (recovers on " + faces(rules.recover_min, 6) + ")";
    case Roll::kNone:
      break;
  }
  return "";
}

std::string roll_title(const DuelGame& game, const DuelState& s, Roll roll) {
  const auto& rules = game.rules();
  switch (roll) {
    case Roll::kInitiative:
      return "Initiative";
    case Roll::kDavidMove:
      return "David's movement (" + std::to_string(rules.david_move) + " - d6, a 6 trips)";
    case Roll::kGoliathMove:
      return "Goliath's movement (" + std::to_string(game.move_base(s, duel::kGoliath)) + " - d6)";
    case Roll::kFleeTest:
      return "David's flee test";
    case Roll::kFleeMove:
      return "David's flight (" + std::to_string(rules.david_move) + " - d6)";
    case Roll::kStoneToHit:
      return "David's stone, to hit";
    case Roll::kStoneDamage:
      return "David's stone, damage";
    case Roll::kStoneDaze:
      return "David's stone, daze";
    case Roll::kSearch:
      return "David's search for a stone";
    case Roll::kJavelin:
      return "Goliath's javelin";
    case Roll::kMelee:
      return "Melee";
    case Roll::kRecover:
      return "Goliath's recovery";
    case Roll::kNone:
      break;
  }
  return "Roll";
}

// The chance of the whole stone sequence dazing Goliath from here.
double daze_chance(const DuelGame& game, const DuelState& s) {
  const int cap = std::clamp(game.shooting_capability(s, duel::kDavid), 0, 6);
  const int hurt = std::clamp(6 - game.protection(s), 0, 6);
  const int daze = std::clamp(game.rules().daze_max, 0, 6);
  return cap / 6.0 * hurt / 6.0 * daze / 6.0;
}

}  // namespace

std::string GameView<DuelGame>::board(const Game& game, const State& s, const Style& style) {
  const auto& rules = game.rules();
  // Two columns per centimetre and one row per centimetre (a terminal cell is about twice as tall
  // as it is wide), halved for large boards.
  const int columns_per_cm = rules.board_cm <= 40 ? 2 : 1;
  const double cell_w = 1.0 / columns_per_cm, cell_h = 2.0 / columns_per_cm;
  const int cols = rules.board_cm * columns_per_cm;
  const int rows = static_cast<int>(std::ceil(rules.board_cm / cell_h));
  const double gx = centre_cm(game.centre_x(duel::kGoliath, s.goliath_x));
  const double gy = centre_cm(game.centre_y(duel::kGoliath, s.goliath_y));
  const double dx = centre_cm(game.centre_x(duel::kDavid, s.david_x));
  const double dy = centre_cm(game.centre_y(duel::kDavid, s.david_y));
  const double goliath_r = rules.goliath_base_mm / 20.0, david_r = rules.david_base_mm / 20.0;
  const double band = rules.shooting_band_cm;
  const bool dazed = s.has(duel::kGoliathDazed);
  // While a figure is choosing its destination, the disc its centre can reach is shaded.
  const bool choosing = s.phase == Phase::kDestination;
  const Side mover = mover_of(s);
  const double reach_x = mover == duel::kDavid ? dx : gx, reach_y = mover == duel::kDavid ? dy : gy;
  const double reach = s.allowance_cm;

  std::ostringstream out;
  const std::string margin = "      ";
  out << margin << style.paint("north: Goliath's border", Colour::kDim) << "\n";
  out << margin << "+" << std::string(static_cast<std::size_t>(cols), '-') << "+\n";
  for (int row = 0; row < rows; ++row) {
    const double top = rules.board_cm - row * cell_h;
    const double cy = top - cell_h / 2;
    char label[16] = "";
    if (std::fmod(top, 5.0) == 0.0 && row > 0) std::snprintf(label, sizeof(label), "%4g", top);
    out << (label[0] ? std::string(label) + " -" : margin) << "|";
    for (int col = 0; col < cols; ++col) {
      const double cx = (col + 0.5) * cell_w;
      const double to_goliath = std::hypot(cx - gx, cy - gy);
      const double to_david = std::hypot(cx - dx, cy - dy);
      if (to_goliath <= goliath_r) {
        out << style.paint(to_goliath < 0.75 * cell_h ? "G" : "#",
                           dazed ? Colour::kYellow : Colour::kRed);
      } else if (to_david <= david_r) {
        out << style.paint(to_david < 0.75 * cell_h ? "D" : "o", Colour::kCyan);
      } else {
        // A dot where David's centre would sit on the boundary of a shooting band (edge-to-edge
        // distance a whole number of bands): inside the first ring David shoots at full strength.
        const double rings = (to_goliath - goliath_r - david_r) / band;
        const double nearest = std::round(rings);
        const double ring_error = std::abs(rings - nearest) * band;
        const bool reachable = choosing && std::hypot(cx - reach_x, cy - reach_y) <= reach;
        if (nearest >= 1 && nearest <= rules.david_shooting && ring_error < 0.6 * cell_w) {
          out << style.paint(".", Colour::kDim);
        } else if (reachable) {
          out << style.paint(":", Colour::kGreen);
        } else {
          out << ' ';
        }
      }
    }
    out << "|\n";
  }
  out << margin << "+" << std::string(static_cast<std::size_t>(cols), '-') << "+\n";
  // x axis: a tick every 5 cm.
  std::string ticks(static_cast<std::size_t>(cols + 8), ' ');
  for (int cm = 0; cm <= rules.board_cm; cm += 5) {
    const std::string number = std::to_string(cm);
    const std::size_t at = static_cast<std::size_t>(cm * columns_per_cm) + margin.size() + 1;
    const std::size_t start = at >= number.size() / 2 ? at - number.size() / 2 : 0;
    if (start + number.size() <= ticks.size()) ticks.replace(start, number.size(), number);
  }
  while (!ticks.empty() && ticks.back() == ' ') ticks.pop_back();
  out << style.paint(ticks, Colour::kDim) << "\n";
  out << margin
      << style.paint("south: David's border   (x, y in cm; rings: every full " + format_cm(band) +
                         " cm from Goliath" + (choosing ? "; ':' within reach" : "") + ")",
                     Colour::kDim)
      << "\n";

  // The panel.
  const bool contact = game.in_contact(s);
  out << "Distance " << fixed(game.edge_distance_cm(s), 2) << " cm edge to edge"
      << (contact ? style.paint("  IN CONTACT", Colour::kMagenta) : "") << "\n";
  out << style.paint("David  ", Colour::kCyan) << " at (" << format_cm(dx) << ", " << format_cm(dy)
      << ")  shooting " << game.shooting_capability(s, duel::kDavid) << "  "
      << (s.has(duel::kDavidHasStone) ? "stone in the sling" : "no stone") << "  God "
      << (s.has(duel::kGodAvailable) ? style.paint("unused", Colour::kGreen)
                                     : std::string(rules.god_enabled ? "used" : "disabled"))
      << "\n";
  out << style.paint("Goliath", Colour::kRed) << " at (" << format_cm(gx) << ", " << format_cm(gy)
      << ")  javelin "
      << (s.has(duel::kGoliathJavelin)
              ? "ready (shooting " + std::to_string(game.shooting_capability(s, duel::kGoliath)) +
                    ")"
              : std::string("gone"))
      << "  " << (s.has(duel::kGoliathShield) ? "shield" : "two-handed khopesh") << " (protection "
      << game.protection(s) << ", combat " << game.combat_value(s, duel::kGoliath) << ")";
  if (dazed) out << "  " << style.paint("DAZED", Colour::kYellow);
  if (s.has(duel::kGoliathSkipsTurn)) out << ", loses his next turn";
  if (s.has(duel::kBeheadPending))
    out << ", " << style.paint("David is beheading him", Colour::kYellow);
  out << "\n";
  out << "Turn " << s.turn;
  // Under a time limit the turns left decide how to play (a draw is worth half to both sides).
  if (game.rules().turn_cap > 0) {
    out << " of " << game.rules().turn_cap << " (" << game.rules().turn_cap - s.turn + 1
        << " left)";
  }
  out << ": ";
  switch (s.phase) {
    case Phase::kRoll:
      out << "rolling: " << roll_title(game, s, s.roll);
      break;
    case Phase::kGod:
      out << "David may invoke God on the dice";
      break;
    case Phase::kDeclare:
      out << side_name(s.actor) << " to declare an action";
      break;
    case Phase::kDestination:
      out << side_name(mover_of(s)) << " to move up to " << static_cast<int>(s.allowance_cm)
          << " cm";
      break;
    case Phase::kTieFlee:
      out << "the melee is tied: David may flee at once";
      break;
    case Phase::kTerminal:
      out << style.paint(result(game, s), Colour::kBold);
      break;
  }
  out << "\n";
  return out.str();
}

std::string GameView<DuelGame>::describe_chance(const Game& game, const State& before,
                                                Action outcome, const Style& style) {
  std::array<int, 2> dice{};
  const bool reroll = before.rerolling != 0;
  if (reroll) {
    dice = {before.dice[0], before.dice[1]};
    dice[before.rerolling - 1u] = static_cast<int>(outcome);
  } else if (two_dice(before.roll)) {
    dice = {static_cast<int>(outcome % 8), static_cast<int>(outcome / 8)};
  } else {
    dice = {static_cast<int>(outcome), 0};
  }
  std::string text = roll_title(game, before, before.roll) + ": ";
  if (reroll) {
    const bool second = before.rerolling == 2;
    text = "God re-rolls " +
           std::string(two_dice(before.roll) ? (second ? "Goliath's die" : "David's die")
                                             : "the die") +
           " of " + roll_title(game, before, before.roll) + ": " +
           die(dice[before.rerolling - 1u], style) + "  ";
  } else if (two_dice(before.roll)) {
    text += "David " + die(dice[0], style) + "  Goliath " + die(dice[1], style) + "  ";
  } else {
    text += die(dice[0], style) + "  ";
  }
  text += "-> " + roll_effect(game, before, before.roll, dice[0], dice[1]);
  if (!reroll && before.has(duel::kGodAvailable))
    text += style.paint("  (God is unused)", Colour::kDim);
  return text;
}

std::string GameView<DuelGame>::prompt(const Game& game, const State& s) {
  switch (s.phase) {
    case Phase::kDeclare:
      return std::string(side_name(s.actor)) + ", declare your action";
    case Phase::kDestination:
      return std::string(side_name(mover_of(s))) + ", move up to " +
             std::to_string(s.allowance_cm) +
             " cm: pick a number or type `to X Y` (the centre of your base, in cm)";
    case Phase::kGod:
      return "David, God is unused: accept the dice, or invoke God (once per game) to re-roll one";
    case Phase::kTieFlee:
      return "David, the melee is tied: flee at once (movement roll only, no test) or stay";
    default:
      break;
  }
  (void)game;
  return "";
}

std::string GameView<DuelGame>::option_label(const Game& game, const State& s, Action a) {
  const std::string name = game.action_to_string(s, a);
  const auto& rules = game.rules();
  switch (s.phase) {
    case Phase::kDeclare: {
      const bool david = s.actor == duel::kDavid;
      switch (a) {
        case act::kMove:
          return name + "  (" + std::to_string(game.move_base(s, static_cast<Side>(s.actor))) +
                 " - d6 cm" + (david ? ", a 6 trips" : "") + ")";
        case act::kShoot:
          if (david) {
            return name + "  (hits on " + faces(1, game.shooting_capability(s, duel::kDavid)) +
                   ", dazes Goliath " + percent(daze_chance(game, s)) + ")";
          }
          return name + "  (kills David on " +
                 faces(1, game.shooting_capability(s, duel::kGoliath)) + ")";
        case act::kFight:
          return name + "  (David d6+" + std::to_string(game.combat_value(s, duel::kDavid)) +
                 " against Goliath d6+" + std::to_string(game.combat_value(s, duel::kGoliath)) +
                 ")";
        case act::kDropShield:
          return name + "  (two-handed: protection " + std::to_string(rules.protection_two_handed) +
                 ", combat " + std::to_string(rules.combat_goliath_two_handed) + ", move " +
                 std::to_string(rules.goliath_move_two_handed) + " - d6; javelin lost)";
        case act::kSearch:
          return name + "  (finds a stone on " + faces(rules.search_min, 6) + ")";
        case act::kBehead:
          return name + "  (Goliath dies if still dazed at David's next turn)";
        case act::kRecover:
          return name + "  (recovers on " + faces(rules.recover_min, 6) + ")";
        case act::kFlee:
          return name + "  (escapes on " + faces(rules.flee_min, 6) + ", then " +
                 std::to_string(rules.david_move) + " - d6 cm)";
        default:
          return name;
      }
    }
    case Phase::kGod:
      if (a == act::kAccept) return name;
      if (a == act::kRerollSecond)
        return name + "  (re-roll Goliath's " + std::to_string(s.dice[1]) + ")";
      return name + "  (re-roll " + (two_dice(s.roll) ? "David's " : "the ") +
             std::to_string(s.dice[0]) + ")";
    case Phase::kTieFlee:
      return a == act::kTieFlee
                 ? name + "  (" + std::to_string(rules.david_move) + " - d6 cm, no test)"
                 : name;
    case Phase::kDestination: {
      if (!act::is_destination(a)) return name;
      const Side mover = mover_of(s);
      const State t = moved(s, mover, act::destination_x(a), act::destination_y(a));
      std::string label = name + "  gap " + fixed(game.edge_distance_cm(t), 1) + " cm";
      if (game.in_contact(t)) {
        label += ", contact";
      } else if (mover == duel::kDavid) {
        label += ", shooting " + std::to_string(game.shooting_capability(t, duel::kDavid));
      } else if (s.has(duel::kGoliathJavelin)) {
        label += ", javelin at " + std::to_string(game.shooting_capability(t, duel::kGoliath));
      }
      if (t == s) label += "  (stay)";
      Rng unused;
      if (game.heuristic_action(s, unused) == a) label += "  (rule of thumb)";
      return label;
    }
    default:
      return name;
  }
}

void GameView<DuelGame>::suggestions(const Game& game, const State& s, ActionList<Game>& out) {
  game.candidate_actions(s, out);
  if (s.phase != Phase::kDestination) return;
  Rng unused;
  const Action rule_of_thumb = game.heuristic_action(s, unused);
  if (std::find(out.begin(), out.end(), rule_of_thumb) == out.end()) out.push_back(rule_of_thumb);
  const Side mover = mover_of(s);
  std::sort(out.begin(), out.end(), [&](Action a, Action b) {
    const auto gap = [&](Action x) {
      return game.centre_distance2(moved(s, mover, act::destination_x(x), act::destination_y(x)));
    };
    return gap(a) != gap(b) ? gap(a) < gap(b) : a < b;
  });
}

std::string GameView<DuelGame>::explain_illegal(const Game& game, const State& s, Action a,
                                                const std::string& error) {
  const bool david = s.actor == duel::kDavid;
  const bool contact = game.in_contact(s);
  switch (s.phase) {
    case Phase::kGod:
      return "now the only choices are accept or a re-roll (God)";
    case Phase::kTieFlee:
      return "now the only choices are flee or stay";
    case Phase::kDestination: {
      if (!act::is_destination(a)) return "give a destination: a number or `to X Y`";
      const Side mover = mover_of(s);
      const int x = act::destination_x(a), y = act::destination_y(a);
      if (x >= game.lattice_width(mover) || y >= game.lattice_height(mover)) {
        return "that point is off the board";
      }
      const int fx = mover == duel::kDavid ? s.david_x : s.goliath_x;
      const int fy = mover == duel::kDavid ? s.david_y : s.goliath_y;
      const double step = std::hypot(game.centre_x(mover, x) - game.centre_x(mover, fx),
                                     game.centre_y(mover, y) - game.centre_y(mover, fy)) /
                          DuelGame::kUnitsPerCm;
      if (step > s.allowance_cm) {
        return "that is " + format_cm(step) + " cm away; the allowance is " +
               std::to_string(s.allowance_cm) + " cm";
      }
      const State t = moved(s, mover, x, y);
      if (game.centre_distance2(t) <
          static_cast<std::int64_t>(game.rules().david_base_mm + game.rules().goliath_base_mm) *
              (game.rules().david_base_mm + game.rules().goliath_base_mm)) {
        return "the bases would overlap there";
      }
      return "the straight path crosses the other figure's base";
    }
    case Phase::kDeclare:
      break;
    default:
      return error;
  }
  if (!david && s.has(duel::kGoliathDazed) && a != act::kRecover) {
    return "a dazed Goliath can only try to recover";
  }
  switch (a) {
    case act::kMove:
      return david && contact ? "David is in contact with Goliath: he must flee or fight" : error;
    case act::kShoot:
      if (david && !s.has(duel::kDavidHasStone)) return "David has no stone (search first)";
      if (!david && !s.has(duel::kGoliathJavelin)) return "Goliath's javelin is gone";
      return "out of range: the shooting capability at " + fixed(game.edge_distance_cm(s), 2) +
             " cm is 0";
    case act::kFight:
    case act::kFlee:
      if (!david && a == act::kFlee) return "only David can flee";
      return "only in contact (the gap is " + fixed(game.edge_distance_cm(s), 2) + " cm)";
    case act::kSearch:
      return david ? "David already has a stone in his sling" : "only David can search";
    case act::kBehead:
      if (!david) return "only David can behead";
      return contact ? "Goliath is not dazed" : "David must be in contact with a dazed Goliath";
    case act::kRecover:
      return david ? "only Goliath recovers" : "Goliath is not dazed";
    case act::kDropShield:
      return david ? "only Goliath carries a shield" : "the shield is already dropped";
    case act::kAccept:
    case act::kRerollFirst:
    case act::kRerollSecond:
      return "God is invoked only right after a roll";
    case act::kTieStay:
      return "stay is the answer after a tied melee";
    default:
      return error;
  }
}

std::string GameView<DuelGame>::rules_summary(const Game& game) {
  const auto& r = game.rules();
  std::ostringstream out;
  out << "THE DUEL: David against Goliath on a " << r.board_cm << " x " << r.board_cm
      << " cm board. Distances are edge to edge.\n"
      << "Start: David at the middle of the south border, Goliath of the north. Initiative: each\n"
      << "  side rolls a die, the higher acts first (ties roll again); then the sides alternate.\n"
      << "Each turn the side to act declares one action, then rolls for it.\n"
      << "DAVID\n"
      << "  move    " << r.david_move
      << " - d6 cm in a straight line (a 6: he trips). Not while in "
      << "contact.\n"
      << "  shoot   needs a stone; hits on d6 <= " << r.david_shooting << " - 1 per full "
      << r.shooting_band_cm << " cm; a hit hurts on d6 > protection (" << r.protection_shield
      << " with the shield, " << r.protection_two_handed << " two-handed);\n"
      << "          a hurt dazes on d6 <= " << r.daze_max
      << " and Goliath loses his next turn. The stone is used up.\n"
      << "  search  finds a stone on " << faces(r.search_min, 6) << " (he carries at most one).\n"
      << "  fight   in contact: d6+" << r.combat_david << " against Goliath's d6+"
      << r.combat_goliath_shield << " (" << r.combat_goliath_two_handed
      << " two-handed). Lower loses:\n"
      << "          David is killed, or Goliath is dazed. A tie lets David flee at once.\n"
      << "  flee    in contact: " << faces(r.flee_min, 6) << " escapes, then " << r.david_move
      << " - d6 cm (a 6 slips).\n"
      << "  behead  in contact with a dazed Goliath: if he is still dazed at David's next turn,\n"
      << "          he is beheaded and David wins.\n"
      << "GOLIATH\n"
      << "  move    " << r.goliath_move_shield << " - d6 cm with the shield, "
      << r.goliath_move_two_handed << " - d6 two-handed.\n"
      << "  shoot   the javelin, once: kills David on d6 <= " << r.goliath_shooting
      << " - 1 per full " << r.shooting_band_cm << " cm.\n"
      << "  fight   in contact, as above.\n"
      << "  drop-shield  takes the khopesh two-handed for good (an unused javelin is lost).\n"
      << "  recover a dazed Goliath can only do this: " << faces(r.recover_min, 6) << " recovers.\n"
      << "GOD\n"
      << (r.god_enabled ? "  Once per game, right after any die of either side, David may re-roll "
                          "one die;\n  the new roll stands. Sling asks after every roll while "
                          "God is unused.\n"
                        : "  Disabled by these rules.\n")
      << (r.turn_cap > 0 ? "A draw after " + std::to_string(r.turn_cap) + " turns.\n" : "")
      << "Full rules as implemented: docs/rules/duel.md\n";
  return out.str();
}

bool GameView<DuelGame>::roll_went_against_david(const Game& game, const State& s) {
  if (s.phase != Phase::kGod) return false;
  const auto& rules = game.rules();
  const int first = s.dice[0], second = s.dice[1];
  switch (s.roll) {
    case Roll::kJavelin:
      return first <= game.shooting_capability(s, duel::kGoliath);
    case Roll::kMelee:
      return first + game.combat_value(s, duel::kDavid) <
             second + game.combat_value(s, duel::kGoliath);
    case Roll::kRecover:
      return first >= rules.recover_min;
    case Roll::kStoneToHit:
      return first > game.shooting_capability(s, duel::kDavid);
    case Roll::kStoneDamage:
      return first <= game.protection(s);
    case Roll::kStoneDaze:
      return first > rules.daze_max;
    case Roll::kSearch:
      return first < rules.search_min;
    case Roll::kFleeTest:
      return first < rules.flee_min;
    case Roll::kDavidMove:
    case Roll::kFleeMove:
      return first == 6;
    case Roll::kGoliathMove: {  // far enough to reach contact with David
      const int allowance = std::max(0, game.move_base(s, duel::kGoliath) - first);
      return !game.in_contact(s) &&
             allowance + game.contact_tolerance_units() / 20.0 >= game.edge_distance_cm(s);
    }
    case Roll::kInitiative:
    case Roll::kNone:
      break;
  }
  return false;
}

std::optional<Action> GameView<DuelGame>::unasked_answer(const Game& game, const State& s,
                                                         DiceQuestions questions) {
  if (questions == DiceQuestions::kAfterEveryRoll || s.phase != Phase::kGod) return std::nullopt;
  if (roll_went_against_david(game, s)) return std::nullopt;
  return act::kAccept;
}

std::string GameView<DuelGame>::result(const Game& game, const State& s) {
  switch (s.end) {
    case duel::EndReason::kBeheaded:
      return "David wins: Goliath is beheaded";
    case duel::EndReason::kJavelin:
      return "Goliath wins: his javelin kills David";
    case duel::EndReason::kMelee:
      return "Goliath wins: David falls in the melee";
    case duel::EndReason::kTurnCap:
      return "A draw: the rules' cap of " + std::to_string(game.rules().turn_cap) +
             " turns is reached";
    case duel::EndReason::kTurnLimit:
      return "A draw: games between agents end after " + std::to_string(game.turn_limit()) +
             " turns (docs/rules/duel.md)";
    case duel::EndReason::kNone:
      break;
  }
  return "the game goes on";
}

}  // namespace sling::play
