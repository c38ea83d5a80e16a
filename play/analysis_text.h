#pragma once
// How an agent's analysis reads to a person: the one-line summary after an agent's move and the
// ranked table of a hint.  Presentation only; the session (play_session.h) decides when to show
// them.

#include <algorithm>
#include <cstddef>
#include <ostream>
#include <string>
#include <vector>

#include "agents/agent.h"
#include "play/style.h"

namespace sling::play {

// "estimated win chance 63.0%; alternatives: shoot 58.1%, fight 12.0%"
template <Game G>
std::string summarise_analysis(const G& game, const typename G::State& state,
                               const Analysis& analysis, Action chosen) {
  std::string text = std::string(analysis.exact ? "exact" : "estimated") + " win chance " +
                     percent((analysis.value + 1) / 2);
  int listed = 0;
  for (const ActionStat& stat : analysis.actions) {
    if (stat.action == chosen || listed == 3) continue;
    text += (listed++ ? ", " : "; alternatives: ") + game.action_to_string(state, stat.action) +
            " " + percent((stat.value + 1) / 2);
  }
  return text;
}

inline constexpr std::size_t kHintShown = 5;

// A hint's candidates, best first (`best`, then by visits, then by value), numbered as in the
// options `listed` at the prompt; the best kHintShown unless `all`.  `by_playouts`: the visits
// are flat Monte Carlo playouts, not search visits.
template <Game G>
void write_hint_table(std::ostream& out, const G& game, const typename G::State& state,
                      const Analysis& analysis, Action best, const std::vector<Action>& listed,
                      bool all, bool by_playouts) {
  // The best few, best first: a danelaw position can offer over a hundred candidates.
  std::vector<ActionStat> ranked = analysis.actions;
  std::stable_sort(ranked.begin(), ranked.end(), [&](const ActionStat& a, const ActionStat& b) {
    if ((a.action == best) != (b.action == best)) return a.action == best;
    if (a.visits != b.visits) return a.visits > b.visits;
    return a.value > b.value;
  });
  const std::size_t shown = all ? ranked.size() : std::min<std::size_t>(ranked.size(), kHintShown);
  for (std::size_t k = 0; k < shown; ++k) {
    const ActionStat& stat = ranked[k];
    const auto at = std::find(listed.begin(), listed.end(), stat.action);
    std::string number = at == listed.end() ? "" : std::to_string(at - listed.begin() + 1) + ")";
    while (number.size() < 5) number = " " + number;
    out << number << " " << game.action_to_string(state, stat.action) << "  win "
        << percent((stat.value + 1) / 2);
    if (stat.visits > 0) out << "  (" << stat.visits << (by_playouts ? " playouts)" : " visits)");
    out << (stat.action == best ? "  <- best" : "") << "\n";
  }
  if (shown < ranked.size()) {
    out << "  ... and " << ranked.size() - shown << " more (`hint all` lists every one)\n";
  }
}

}  // namespace sling::play
