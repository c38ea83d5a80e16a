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
#include "play/hint.h"
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
    text += (listed++ ? ", " : "; alternatives: ") + sling::action_words(game, state, stat.action) +
            " " + percent((stat.value + 1) / 2);
  }
  return text;
}

inline constexpr std::size_t kHintShown = 5;

// A hint's lines (play/hint.h), best first, numbered as in the options `listed` at the prompt;
// the best kHintShown unless `all`.
inline void write_hint_table(std::ostream& out, const Hint& hint, const std::vector<Action>& listed,
                             bool all) {
  // The best few: a danelaw position can offer over a hundred candidates.
  const std::size_t shown =
      all ? hint.lines.size() : std::min<std::size_t>(hint.lines.size(), kHintShown);
  for (std::size_t k = 0; k < shown; ++k) {
    const HintLine& line = hint.lines[k];
    const auto at = std::find(listed.begin(), listed.end(), line.action);
    std::string number = at == listed.end() ? "" : std::to_string(at - listed.begin() + 1) + ")";
    while (number.size() < 5) number = " " + number;
    out << number << " " << line.text << "  win " << percent(line.win);
    if (!hint.count_word.empty() && line.count > 0)
      out << "  (" << line.count << " " << hint.count_word << ")";
    out << (line.best ? "  <- best" : "") << "\n";
  }
  if (shown < hint.lines.size()) {
    out << "  ... and " << hint.lines.size() - shown << " more (`hint all` lists every one)\n";
  }
}

}  // namespace sling::play
