#include "play/web/web_views.h"

#include <cmath>
#include <limits>
#include <string>

#include "engine/danelaw/render.h"

namespace sling::web {
namespace {

using duel::DuelGame;
using duel::DuelState;

double cm(int units) {
  return static_cast<double>(units) / DuelGame::kUnitsPerCm;
}

void write_number(JsonWriter& out, std::string_view key, double value) {
  write_key(out, key);
  out.Double(std::round(value * 1000.0) / 1000.0);
}
void write_int(JsonWriter& out, std::string_view key, std::int64_t value) {
  write_key(out, key);
  out.Int64(value);
}
void write_bool(JsonWriter& out, std::string_view key, bool value) {
  write_key(out, key);
  out.Bool(value);
}
void write_text(JsonWriter& out, std::string_view key, std::string_view value) {
  write_key(out, key);
  write_string(out, value);
}

void write_figure(JsonWriter& out, const DuelGame& game, duel::Side side, int x, int y) {
  const int base_mm =
      side == duel::kDavid ? game.rules().david_base_mm : game.rules().goliath_base_mm;
  out.StartObject();
  write_number(out, "x", cm(game.centre_x(side, x)));
  write_number(out, "y", cm(game.centre_y(side, y)));
  write_number(out, "r", base_mm / 20.0);
  out.EndObject();
}

}  // namespace

void write_board(JsonWriter& out, const DuelGame& game, const DuelState& s) {
  const duel::DuelRules& rules = game.rules();
  out.StartObject();
  write_int(out, "board_cm", rules.board_cm);
  write_int(out, "pitch_cm", rules.pitch_cm);
  write_key(out, "david");
  write_figure(out, game, duel::kDavid, s.david_x, s.david_y);
  write_key(out, "goliath");
  write_figure(out, game, duel::kGoliath, s.goliath_x, s.goliath_y);
  write_int(out, "band_cm", rules.shooting_band_cm);
  // The rings of the shooting bands around Goliath's base, with each side's capability beyond
  // them (a hit needs a d6 at most the capability; 0 cannot hit).
  write_key(out, "rings");
  out.StartArray();
  const double goliath_r = rules.goliath_base_mm / 20.0;
  for (int band = 1; goliath_r + band * rules.shooting_band_cm < rules.board_cm * 1.5; ++band) {
    out.StartObject();
    write_number(out, "r", goliath_r + band * rules.shooting_band_cm);
    write_int(out, "cm", band * rules.shooting_band_cm);
    write_int(out, "david", std::max(0, rules.david_shooting - band));
    write_int(out, "goliath", std::max(0, rules.goliath_shooting - band));
    out.EndObject();
  }
  out.EndArray();
  write_key(out, "shooting");
  out.StartObject();
  write_int(out, "david", game.shooting_capability(s, duel::kDavid));
  write_int(out, "goliath",
            s.has(duel::kGoliathJavelin) ? game.shooting_capability(s, duel::kGoliath) : 0);
  out.EndObject();
  write_number(out, "gap_cm", game.edge_distance_cm(s));
  write_bool(out, "contact", game.in_contact(s));
  write_text(out, "roll", DuelGame::roll_name(s.roll));
  write_int(out, "actor", s.actor);
  // Who moves now: the side the movement roll was for, which after a tied melee or a flee test is
  // David, whoever's turn it is.
  write_int(out, "mover", s.phase == duel::Phase::kDestination ? duel::mover_of(s) : -1);
  write_int(out, "turn", s.turn);
  write_int(out, "allowance_cm", s.phase == duel::Phase::kDestination ? s.allowance_cm : 0);
  write_bool(out, "stone", s.has(duel::kDavidHasStone));
  write_bool(out, "shield", s.has(duel::kGoliathShield));
  write_bool(out, "javelin", s.has(duel::kGoliathJavelin));
  write_bool(out, "god_available", s.has(duel::kGodAvailable));
  write_bool(out, "god_prompt", s.phase == duel::Phase::kGod);
  write_bool(out, "dazed", s.has(duel::kGoliathDazed));
  write_key(out, "dice");
  out.StartArray();
  for (std::uint8_t d : s.dice) {
    if (d) out.Int(d);
  }
  out.EndArray();
  // The reachable area: every legal destination's centre.
  write_key(out, "reach");
  out.StartArray();
  if (s.phase == duel::Phase::kDestination) {
    ActionList<DuelGame> legal;
    game.legal_actions(s, legal);
    const duel::Side mover = duel::mover_of(s);
    for (Action a : legal) {
      if (!duel::act::is_destination(a)) continue;
      out.StartArray();
      out.Double(cm(game.centre_x(mover, duel::act::destination_x(a))));
      out.Double(cm(game.centre_y(mover, duel::act::destination_y(a))));
      out.EndArray();
    }
  }
  out.EndArray();
  out.EndObject();
}

std::optional<PointChoice> nearest_destination(const DuelGame& game, const DuelState& s,
                                               double x_cm, double y_cm) {
  if (s.phase != duel::Phase::kDestination) return std::nullopt;
  ActionList<DuelGame> legal;
  game.legal_actions(s, legal);
  const duel::Side mover = duel::mover_of(s);
  const double from_x = cm(game.centre_x(mover, mover == duel::kDavid ? s.david_x : s.goliath_x));
  const double from_y = cm(game.centre_y(mover, mover == duel::kDavid ? s.david_y : s.goliath_y));
  std::optional<PointChoice> best;
  double best_d2 = std::numeric_limits<double>::infinity();
  for (Action a : legal) {
    if (!duel::act::is_destination(a)) continue;
    const double x = cm(game.centre_x(mover, duel::act::destination_x(a)));
    const double y = cm(game.centre_y(mover, duel::act::destination_y(a)));
    const double d2 = (x - x_cm) * (x - x_cm) + (y - y_cm) * (y - y_cm);
    if (d2 < best_d2) {
      best_d2 = d2;
      best = PointChoice{a, x, y, std::hypot(x - from_x, y - from_y), 0};
    }
  }
  if (best) {
    best->gap_cm = game.edge_distance_cm(duel::moved(
        s, mover, duel::act::destination_x(best->action), duel::act::destination_y(best->action)));
  }
  return best;
}

void write_action_fields(JsonWriter&, const DuelGame&, const DuelState&, Action) {}

std::optional<std::pair<double, double>> action_place(const DuelGame& game, const DuelState& s,
                                                      Action a) {
  if (s.phase != duel::Phase::kDestination || !duel::act::is_destination(a)) return std::nullopt;
  const duel::Side mover = duel::mover_of(s);
  return std::pair{cm(game.centre_x(mover, duel::act::destination_x(a))),
                   cm(game.centre_y(mover, duel::act::destination_y(a)))};
}

std::optional<MoveTrail> move_trail(const DuelGame& game, const DuelState& before, Action a,
                                    int ply) {
  if (before.phase != duel::Phase::kDestination || !duel::act::is_destination(a))
    return std::nullopt;
  const duel::Side mover = duel::mover_of(before);
  const bool david = mover == duel::kDavid;
  MoveTrail trail;
  trail.side = mover;
  trail.group = ply;
  trail.points.emplace_back(cm(game.centre_x(mover, david ? before.david_x : before.goliath_x)),
                            cm(game.centre_y(mover, david ? before.david_y : before.goliath_y)));
  trail.points.emplace_back(cm(game.centre_x(mover, duel::act::destination_x(a))),
                            cm(game.centre_y(mover, duel::act::destination_y(a))));
  return trail;
}

std::vector<int> dice_faces(const DuelGame&, const DuelState&, Action outcome) {
  // A single die is its face; two dice are first + 8 * second.
  if (outcome < 8) return {static_cast<int>(outcome)};
  return {static_cast<int>(outcome % 8), static_cast<int>(outcome / 8)};
}

// ---------------------------------------------------------------------------------------------
// Danelaw.  Hex centres are in the coordinates of engine/danelaw/render.cpp's svg_map (pointy-top
// hexes of 18 units, a 40-unit margin), so the page can lay clickable hexes over that SVG.

namespace {

using danelaw::ActionKind;
using danelaw::DanelawGame;

struct HexFrame {
  double dx = 0, dy = 0;
  static constexpr double kSize = 18.0;
  static constexpr double kMargin = 40.0;

  explicit HexFrame(const danelaw::HexMap& map) {
    double x_min = 1e9, y_min = 1e9;
    for (const danelaw::HexInfo& h : map.hexes()) {
      x_min = std::min(x_min, raw_x(h));
      y_min = std::min(y_min, raw_y(h));
    }
    dx = kMargin - x_min;
    dy = kMargin - y_min;
  }
  static double raw_x(const danelaw::HexInfo& h) {
    return kSize * std::sqrt(3.0) * (h.q + h.r / 2.0);
  }
  static double raw_y(const danelaw::HexInfo& h) { return kSize * 1.5 * h.r; }
  double x(const danelaw::HexInfo& h) const { return raw_x(h) + dx; }
  double y(const danelaw::HexInfo& h) const { return raw_y(h) + dy; }
};

bool has_hex(ActionKind kind) {
  switch (kind) {
    case ActionKind::kPlace:
    case ActionKind::kReinforce:
    case ActionKind::kSelect:
    case ActionKind::kMoveTo:
    case ActionKind::kAttack:
    case ActionKind::kRoll:
    case ActionKind::kRoutStep:
      return true;
    default:
      return false;
  }
}

void write_hex_point(JsonWriter& out, const DanelawGame& game, const HexFrame& frame, int hex) {
  const danelaw::HexInfo& h = game.map().hex(hex);
  write_int(out, "hex", hex);
  write_number(out, "x", frame.x(h));
  write_number(out, "y", frame.y(h));
}

}  // namespace

void write_board(JsonWriter& out, const DanelawGame& game, const danelaw::State& s) {
  const HexFrame frame(game.map());
  out.StartObject();
  write_text(out, "svg", danelaw::svg_map(game, &s));
  write_int(out, "turn", s.turn);
  write_int(out, "turn_limit", game.rules().turn_limit);
  write_int(out, "side", s.side);
  write_int(out, "points", s.points);
  write_key(out, "movement_dice");
  out.StartArray();
  if (s.dice_low) {
    out.Int(s.dice_low);
    out.Int(s.dice_high);
  }
  out.EndArray();
  write_int(out, "danish_towns", game.danish_town_count(s));
  write_int(out, "towns", static_cast<int>(game.map().towns().size()));
  write_int(out, "towns_to_win", game.rules().towns_to_win);
  write_key(out, "pool");
  out.StartArray();
  out.Int(s.pool[0]);
  out.Int(s.pool[1]);
  out.EndArray();
  int armies[2] = {0, 0};
  for (int i = 0; i < s.army_count; ++i) ++armies[s.armies[static_cast<std::size_t>(i)].side & 1];
  write_key(out, "armies");
  out.StartArray();
  out.Int(armies[0]);
  out.Int(armies[1]);
  out.EndArray();
  write_int(out, "battle_roll", s.battle_roll);
  write_int(out, "attack_rolls", s.attack_rolls);
  // The hexes the current decision is about: the army moving or rolling, the attacked army.
  for (const auto& [key, hex] : {std::pair<const char*, std::uint16_t>{"selected", s.selected},
                                 {"target", s.target},
                                 {"rout", s.rout_hex}}) {
    write_key(out, key);
    if (hex == danelaw::kNoHex || hex >= game.map().size()) {
      out.Null();
    } else {
      out.StartObject();
      write_hex_point(out, game, frame, hex);
      out.EndObject();
    }
  }
  out.EndObject();
}

void write_action_fields(JsonWriter& out, const DanelawGame& game, const danelaw::State& s,
                         Action a) {
  const ActionKind kind = danelaw::action_kind(a);
  const int hex = danelaw::action_payload(a);
  if (!has_hex(kind) || hex >= game.map().size()) return;
  write_hex_point(out, game, HexFrame(game.map()), hex);
  write_text(out, "kind",
             kind == ActionKind::kMoveTo     ? "move"
             : kind == ActionKind::kSelect   ? "army"
             : kind == ActionKind::kAttack   ? "attack"
             : kind == ActionKind::kRoll     ? "roll"
             : kind == ActionKind::kRoutStep ? "rout"
                                             : "place");
  if (kind == ActionKind::kMoveTo && s.selected != danelaw::kNoHex) {
    // The movement points this destination costs (the Dijkstra distance field of the army).
    danelaw::ReachList reach;
    game.destinations(s, s.selected, s.points, reach);
    for (const danelaw::Reach& r : reach) {
      if (r.hex == hex) write_int(out, "cost", r.cost);
    }
  }
}

std::optional<std::pair<double, double>> action_place(const DanelawGame& game,
                                                      const danelaw::State&, Action a) {
  const int hex = danelaw::action_payload(a);
  if (!has_hex(danelaw::action_kind(a)) || hex >= game.map().size()) return std::nullopt;
  const HexFrame frame(game.map());
  const danelaw::HexInfo& h = game.map().hex(hex);
  return std::pair{frame.x(h), frame.y(h)};
}

std::optional<MoveTrail> move_trail(const DanelawGame& game, const danelaw::State& before, Action a,
                                    int) {
  if (danelaw::action_kind(a) != ActionKind::kMoveTo || before.selected == danelaw::kNoHex ||
      before.selected >= game.map().size())
    return std::nullopt;
  const int to = danelaw::action_payload(a);
  if (to >= game.map().size()) return std::nullopt;
  const auto side = static_cast<danelaw::Side>(before.side);
  // The cheapest path around the enemy's armies, as the move's cost was reckoned.
  danelaw::HexSet occupied, enemy;
  game.occupancy(before, side, occupied, enemy);
  danelaw::PathResult path = game.movement().path(side, before.selected, to, enemy);
  if (path.hexes.empty()) path.hexes = {before.selected, to};
  const HexFrame frame(game.map());
  MoveTrail trail;
  trail.side = before.side;
  trail.group = before.turn * 2 + before.side;
  for (int hex : path.hexes) {
    const danelaw::HexInfo& h = game.map().hex(hex);
    trail.points.emplace_back(frame.x(h), frame.y(h));
  }
  return trail;
}

std::vector<int> dice_faces(const DanelawGame&, const danelaw::State&, Action outcome) {
  const int p = danelaw::action_payload(outcome);
  switch (danelaw::action_kind(outcome)) {
    case ActionKind::kMovementDice:
      return {p / 8, p % 8};
    case ActionKind::kRoutDice:
      return {p};
    default:
      return {};  // a battle roll is reported by its total (two dice, or the best two of three)
  }
}

// ---------------------------------------------------------------------------------------------
// Pig.

void write_board(JsonWriter& out, const pig::PigGame& game, const pig::PigState& s) {
  out.StartObject();
  write_key(out, "scores");
  out.StartArray();
  out.Int(s.scores[0]);
  out.Int(s.scores[1]);
  out.EndArray();
  write_int(out, "turn_total", s.turn_total);
  write_int(out, "goal", game.goal());
  write_int(out, "to_move", s.to_move);
  out.EndObject();
}

void write_action_fields(JsonWriter&, const pig::PigGame&, const pig::PigState&, Action) {}

std::vector<int> dice_faces(const pig::PigGame&, const pig::PigState&, Action outcome) {
  return {static_cast<int>(outcome)};
}

}  // namespace sling::web
