#pragma once
// A hint: the strongest analysis the build offers of a person's position, computed and put in a
// player's order once for both ways of playing (the terminal's `hint`, play_session.h, and the
// page's Hint button, web/web_game.h).  The lines are best first, and moves a player cannot tell
// apart (the same action, or the same words: a planner's several plans that begin alike) are one
// line, valued by the best of them.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "agents/agent.h"
#include "agents/spec.h"
#include "play/play_agents.h"
#include "play/play_config.h"
#include "play/playout_analysis.h"
#include "play/style.h"

namespace sling::play {

struct HintLine {
  Action action = kInvalidAction;  // the move (the first of the equal ones merged into it)
  std::string text;                // the game's words for it
  double win = 0;                  // the mover's win chance
  std::int64_t count = 0;          // what backs the value, summed over the merged moves
  int merged = 1;                  // how many of the analysis' entries this line stands for
  bool best = false;
};

struct Hint {
  std::string source;  // the agent's spec, or the playouts in words
  std::string name;    // "strong" (the strongest analysis) or "playouts"
  bool exact = false;
  double win = 0;  // the mover's win chance with the best move
  Action best = kInvalidAction;
  // What `count` counts ("visits", "playouts", "dice samples"), or "" where the analysis counts
  // nothing worth showing (every entry backed by a single look).
  std::string count_word;
  bool ranked = false;  // the analysis valued the moves (an agent that reports none names its move)
  // The agent's word on its analysis (Analysis::note): why its move, starred best, can show a
  // lower win chance than a row below it (the duel's lookahead breaks near-ties toward closing in).
  std::string note;
  std::vector<HintLine> lines;
};

// The analysis' entries as a player reads them: best first (`best`, then by what backs them,
// then by value), equal moves merged.
template <Game G>
std::vector<HintLine> hint_lines(const G& game, const typename G::State& state,
                                 const Analysis& analysis, Action best) {
  std::vector<ActionStat> ranked = analysis.actions;
  std::stable_sort(ranked.begin(), ranked.end(), [&](const ActionStat& a, const ActionStat& b) {
    if ((a.action == best) != (b.action == best)) return a.action == best;
    if (a.visits != b.visits) return a.visits > b.visits;
    return a.value > b.value;
  });
  std::vector<HintLine> lines;
  for (const ActionStat& stat : ranked) {
    const std::string text = sling::action_words(game, state, stat.action);
    const double win = (stat.value + 1) / 2;
    const auto same = std::find_if(lines.begin(), lines.end(), [&](const HintLine& line) {
      return line.action == stat.action || line.text == text;
    });
    if (same == lines.end()) {
      lines.push_back({stat.action, text, win, stat.visits, 1, stat.action == best});
      continue;
    }
    same->win = std::max(same->win, win);
    same->count += stat.visits;
    ++same->merged;
  }
  if (lines.empty() && best != kInvalidAction)
    lines.push_back(
        {best, sling::action_words(game, state, best), (analysis.value + 1) / 2, 0, 1, true});
  return lines;
}

// The hint of `state` of `game` (the game stepped, its turn limit included) for the side to
// move.  `spec`: the agent to ask, made for `rules_game` (default_hint_spec), or "" for flat
// Monte Carlo playouts; `hinter` keeps that agent between hints.
template <Game G>
Hint compute_hint(const G& rules_game, const G& game, const typename G::State& state,
                  std::uint64_t seed, const std::string& spec, const std::string& solution_file,
                  AgentPtr<G>& hinter) {
  Hint hint;
  Analysis analysis;
  if (spec.empty()) {
    const PlayoutOptions options;
    analysis = playout_analysis(game, state, seed, options);
    hint.source = std::to_string(options.playouts) +
                  " playouts per move by the simple rule, each value within about +/-" +
                  percent(1.0 / std::sqrt(static_cast<double>(options.playouts))) +
                  " (two standard errors)";
    hint.name = "playouts";
    hint.count_word = "playouts";
    hint.best = analysis.actions.empty() ? kInvalidAction : analysis.actions.front().action;
  } else {
    if (!hinter) hinter = make_play_agent(rules_game, spec, solution_file, Table::kWithPerson);
    hinter->new_game(seed);
    hint.best = hinter->act(state);
    analysis = hinter->last_analysis();
    hint.source = hinter->spec();
    hint.name = "strong";
    const std::string agent = parse_agent_spec(spec).name;
    hint.count_word = agent == "planner" ? "dice samples" : "visits";
  }
  hint.exact = analysis.exact;
  hint.win = (analysis.value + 1) / 2;
  hint.ranked = !analysis.actions.empty();
  hint.note = analysis.note;
  hint.lines = hint_lines(game, state, analysis, hint.best);
  const bool counted = std::any_of(analysis.actions.begin(), analysis.actions.end(),
                                   [](const ActionStat& s) { return s.visits > 1; });
  if (!counted) hint.count_word.clear();
  return hint;
}

}  // namespace sling::play
