#pragma once
// What the page needs to draw each game, beyond the generic state: the board as data (positions in
// centimetres, hexes with their centres in the map SVG, scores), which actions are picked on the
// board rather than from buttons, the faces of each die, and for the duel the legal destination
// nearest a clicked point.

#include <optional>
#include <utility>
#include <vector>

#include "engine/danelaw/danelaw.h"
#include "engine/duel/duel.h"
#include "engine/pig/pig.h"
#include "play/web/web_json.h"

namespace sling::web {

// The board of a position, written as the value of the "board" key.
void write_board(JsonWriter& out, const duel::DuelGame& game, const duel::DuelState& s);
void write_board(JsonWriter& out, const danelaw::DanelawGame& game, const danelaw::State& s);
void write_board(JsonWriter& out, const pig::PigGame& game, const pig::PigState& s);

// Extra fields of a listed action (written inside its object): a danelaw hex's centre and cost.
void write_action_fields(JsonWriter& out, const duel::DuelGame&, const duel::DuelState&, Action);
void write_action_fields(JsonWriter& out, const danelaw::DanelawGame& game, const danelaw::State& s,
                         Action a);
void write_action_fields(JsonWriter& out, const pig::PigGame&, const pig::PigState&, Action);

// True where the legal actions are points on the board (the duel's destinations): the page sends
// a clicked point instead and the list is not written out.
inline bool picks_points(const duel::DuelGame&, const duel::DuelState& s) {
  return s.phase == duel::Phase::kDestination;
}
template <class G, class S>
bool picks_points(const G&, const S&) {
  return false;
}

// God's question to David (the duel): the position whose stakes the page shows.
inline bool is_god_prompt(const duel::DuelGame&, const duel::DuelState& s) {
  return s.phase == duel::Phase::kGod;
}
template <class G, class S>
bool is_god_prompt(const G&, const S&) {
  return false;
}

// A figure's or an army's move, for the page to draw as a trail: the points it passed, from where
// it stood to where it went (the duel's board in centimetres, danelaw's map in the coordinates of
// its SVG, along the army's cheapest path).  Moves of one `group` belong together: the page shows
// a side's latest group (the duel: one move; danelaw: the moves of the side's latest half-turn).
struct MoveTrail {
  int side = -1;
  int group = 0;
  std::vector<std::pair<double, double>> points;
};
std::optional<MoveTrail> move_trail(const duel::DuelGame& game, const duel::DuelState& before,
                                    Action a, int ply);
std::optional<MoveTrail> move_trail(const danelaw::DanelawGame& game, const danelaw::State& before,
                                    Action a, int ply);
inline std::optional<MoveTrail> move_trail(const pig::PigGame&, const pig::PigState&, Action, int) {
  return std::nullopt;
}

// Where an action is on the board, for a hint drawn there: a duel destination's centre (cm), a
// danelaw hex's centre (the map's coordinates); nullopt for an action that is not a place.
std::optional<std::pair<double, double>> action_place(const duel::DuelGame& game,
                                                      const duel::DuelState& s, Action a);
std::optional<std::pair<double, double>> action_place(const danelaw::DanelawGame& game,
                                                      const danelaw::State& s, Action a);
inline std::optional<std::pair<double, double>> action_place(const pig::PigGame&,
                                                             const pig::PigState&, Action) {
  return std::nullopt;
}

// The faces of the dice of a chance outcome thrown at `before`.
std::vector<int> dice_faces(const duel::DuelGame&, const duel::DuelState& before, Action outcome);
std::vector<int> dice_faces(const danelaw::DanelawGame&, const danelaw::State&, Action outcome);
std::vector<int> dice_faces(const pig::PigGame&, const pig::PigState&, Action outcome);

// The duel's legal destination nearest a point (centimetres, board coordinates), or nullopt when
// no destination is to be chosen.
struct PointChoice {
  Action action = kInvalidAction;
  double x_cm = 0, y_cm = 0;  // where the figure's centre would be
  double move_cm = 0;         // how far it moves, centre to centre
  double gap_cm = 0;          // the edge-to-edge distance between the figures afterwards
};
std::optional<PointChoice> nearest_destination(const duel::DuelGame& game, const duel::DuelState& s,
                                               double x_cm, double y_cm);

}  // namespace sling::web
