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
#include <string_view>
#include <utility>
#include <vector>

#include "engine/core/game.h"
#include "experiments/analysis/json_fields.h"
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
  // False when the hinting agent compared nothing (a rule-of-thumb move, a sole legal action): the
  // hint is its move alone, with no win chances (null in the JSON, not a made-up 50 %).
  bool estimated = true;
  double win = 0;
  std::string count_word;           // what each action's visits count, or "" (play/hint.h)
  std::string note;                 // the agent's word on its choice (play/hint.h), or ""
  std::vector<MoveChoice> actions;  // best first, equal moves merged
  std::vector<int> merged;          // how many equal moves each action stands for
  // Where each action is on the board (the duel's destination in cm, a danelaw hex in the map's
  // coordinates), for the page to draw the hint there.
  std::vector<std::optional<std::pair<double, double>>> places;
};

// A win chance as every part of the state's JSON gives it: rounded to three decimals.
inline double page_win(double win) {
  return std::round(win * 1000) / 1000;
}

// The fields the page shows of an action it offers with its win chance: its code (what a request
// sends back), its label and the chance.
inline void write_option_fields(JsonWriter& out, Action action, std::string_view label,
                                double win) {
  write_field(out, "code", action);
  write_field(out, "label", label);
  write_field(out, "win", page_win(win));
}

// One choice's fields; `estimated` false when its agent compared nothing (a null win chance, not
// a made-up 50 %).
inline void write_choice_fields(JsonWriter& out, const MoveChoice& c, bool best, bool estimated) {
  if (estimated) {
    write_option_fields(out, c.action, c.label, c.win);
  } else {
    write_field(out, "code", c.action);
    write_field(out, "label", c.label);
    write_key(out, "win");
    out.Null();
  }
  write_field(out, "visits", c.visits);
  write_field(out, "best", best);
}

inline void write_choices(JsonWriter& out, const std::vector<MoveChoice>& choices,
                          Action best = kInvalidAction) {
  out.StartArray();
  for (const MoveChoice& c : choices) {
    out.StartObject();
    write_choice_fields(out, c, c.action == best, true);
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
    write_field(out, "action", move.action);
    write_field(out, "estimated", move.estimated);
    write_field(out, "exact", move.exact);
    write_field(out, "win", page_win(move.win));
    write_key(out, "alternatives");
    write_choices(out, move.alternatives);
    write_field(out, "note", move.note);
    out.EndObject();
  }
  out.EndArray();
  write_field(out, "hint_running", hint_running);
  write_key(out, "hint");
  if (!hint || !current || hint->ply != plies) {
    out.Null();
    return;
  }
  out.StartObject();
  write_field(out, "source", hint->source);
  write_field(out, "source_name", hint->name);
  write_field(out, "error", hint->error);
  write_field(out, "exact", hint->exact);
  write_field(out, "estimated", hint->estimated);
  write_key(out, "win");
  if (hint->estimated) {
    out.Double(page_win(hint->win));
  } else {
    out.Null();
  }
  write_field(out, "count_word", hint->count_word);
  write_field(out, "note", hint->note);
  write_key(out, "actions");
  out.StartArray();
  for (std::size_t i = 0; i < hint->actions.size(); ++i) {
    out.StartObject();
    write_choice_fields(out, hint->actions[i], i == 0, hint->estimated);
    if (i < hint->merged.size()) write_field(out, "merged", hint->merged[i]);
    if (i < hint->places.size() && hint->places[i]) {
      write_field(out, "x", std::round(hint->places[i]->first * 1000) / 1000);
      write_field(out, "y", std::round(hint->places[i]->second * 1000) / 1000);
    }
    out.EndObject();
  }
  out.EndArray();
  out.EndObject();
}

}  // namespace sling::web
