#pragma once
// What the page shows of the agents' thinking: each agent's last move with its estimate and main
// alternatives, and a hint (the strongest analysis of a person's position), as WebGame keeps them
// and writes them into the state.

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/core/game.h"
#include "play/web/web_json.h"

namespace sling::web {

struct MoveChoice {  // an action with its win chance (and a search's visits)
  Action action;
  std::string label;
  double win;
  std::int64_t visits;
};
struct AiMove {  // what an agent found when it last moved
  bool present = false;
  std::string action;
  bool exact = false;
  bool estimated = false;  // false: the agent reports no analysis
  double win = 0;
  std::vector<MoveChoice> alternatives;
  std::string note;  // Analysis::note: a line for the person (e.g. the agent switched values)
};
struct HintResult {
  std::size_t ply = 0;
  std::string source, name, error;  // the agent's spec and its short name
  bool exact = false;
  double win = 0;
  std::vector<MoveChoice> actions;
};

inline void write_choices(JsonWriter& out, const std::vector<MoveChoice>& choices,
                          Action best = kInvalidAction) {
  out.StartArray();
  for (const MoveChoice& c : choices) {
    out.StartObject();
    write_key(out, "code");
    out.Uint(c.action);
    write_key(out, "label");
    write_string(out, c.label);
    write_key(out, "win");
    out.Double(std::round(c.win * 1000) / 1000);
    write_key(out, "visits");
    out.Int64(c.visits);
    write_key(out, "best");
    out.Bool(c.action == best);
    out.EndObject();
  }
  out.EndArray();
}

// The keys "analysis" (each agent's last move with its estimate), "hint_running" and "hint" (the
// hint of the position after `plies` plies, when `current`).
inline void write_moves_and_hint(JsonWriter& out, const std::array<AiMove, 2>& moves,
                                 bool hint_running, const std::optional<HintResult>& hint,
                                 bool current, std::size_t plies) {
  write_key(out, "analysis");
  out.StartArray();
  for (const AiMove& move : moves) {
    if (!move.present) {
      out.Null();
      continue;
    }
    out.StartObject();
    write_key(out, "action");
    write_string(out, move.action);
    write_key(out, "estimated");
    out.Bool(move.estimated);
    write_key(out, "exact");
    out.Bool(move.exact);
    write_key(out, "win");
    out.Double(std::round(move.win * 1000) / 1000);
    write_key(out, "alternatives");
    write_choices(out, move.alternatives);
    write_key(out, "note");
    write_string(out, move.note);
    out.EndObject();
  }
  out.EndArray();
  write_key(out, "hint_running");
  out.Bool(hint_running);
  write_key(out, "hint");
  if (!hint || !current || hint->ply != plies) {
    out.Null();
    return;
  }
  out.StartObject();
  write_key(out, "source");
  write_string(out, hint->source);
  write_key(out, "source_name");
  write_string(out, hint->name);
  write_key(out, "error");
  write_string(out, hint->error);
  write_key(out, "exact");
  out.Bool(hint->exact);
  write_key(out, "win");
  out.Double(std::round(hint->win * 1000) / 1000);
  write_key(out, "actions");
  write_choices(out, hint->actions,
                hint->actions.empty() ? kInvalidAction : hint->actions.front().action);
  out.EndObject();
}

}  // namespace sling::web
