#pragma once
// The log of a game for the page: every die and decision with its ply, the faces of each die, and
// each side's latest moves as trails (web_views.h, move_trail), written from the history alone.

#include <array>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "engine/core/game.h"
#include "play/game_views.h"
#include "play/web/web_json.h"
#include "play/web/web_views.h"

namespace sling::web {

// Writes the keys "log" and "trails" of a game's state shown at ply `shown_ply`: the log is the
// whole history (the page steps through it), the trails are those of the position shown.
// `automatic[i]` marks ply i + 1 as an answer given for a person (written so in the log).
template <Game G>
void write_log_and_trails(JsonWriter& out, const G& game, const std::vector<Action>& history,
                          std::size_t shown_ply, const std::vector<bool>& automatic) {
  using View = play::GameView<G>;
  write_key(out, "log");
  out.StartArray();
  typename G::State s = game.initial_state();
  const play::Style plain;
  std::array<std::vector<MoveTrail>, 2> trails;  // each side's latest group of moves
  for (std::size_t ply = 0; ply < history.size(); ++ply) {
    const Player p = game.current_player(s);
    const Action a = history[ply];
    if (auto trail = ply < shown_ply ? move_trail(game, s, a, static_cast<int>(ply)) : std::nullopt;
        trail && trail->side >= 0 && trail->side < 2) {
      std::vector<MoveTrail>& group = trails[static_cast<std::size_t>(trail->side)];
      if (!group.empty() && group.back().group != trail->group) group.clear();
      // A figure that stayed where it stood (the duel's "stay") made the side's latest move but
      // leaves no trail.
      if (trail->points.front() != trail->points.back()) group.push_back(std::move(*trail));
    }
    out.StartObject();
    write_key(out, "ply");
    out.Uint64(ply + 1);
    write_key(out, "side");
    out.Int(p);
    write_key(out, "text");
    if (p == kChancePlayer) {
      write_string(out, View::describe_chance(game, s, a, plain));
      write_key(out, "faces");
      out.StartArray();
      for (int face : dice_faces(game, s, a)) out.Int(face);
      out.EndArray();
    } else {
      const bool answered_for_person = ply < automatic.size() && automatic[ply];
      write_string(out, play::display_name(game.info().sides[static_cast<std::size_t>(p)]) + ": " +
                            sling::action_words(game, s, a) +
                            (answered_for_person ? " (answered automatically)" : ""));
      if (answered_for_person) write_field(out, "automatic", true);
    }
    out.EndObject();
    apply_any(game, s, a);
  }
  out.EndArray();
  // The latest moves of each side, as trails from where the figure or army stood.
  write_key(out, "trails");
  out.StartArray();
  for (const std::vector<MoveTrail>& group : trails) {
    out.StartArray();
    for (const MoveTrail& trail : group) {
      out.StartArray();
      for (const auto& [x, y] : trail.points) {
        out.StartArray();
        out.Double(std::round(x * 1000) / 1000);
        out.Double(std::round(y * 1000) / 1000);
        out.EndArray();
      }
      out.EndArray();
    }
    out.EndArray();
  }
  out.EndArray();
}

}  // namespace sling::web
