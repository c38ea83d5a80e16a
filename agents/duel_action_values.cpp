#include "agents/duel_action_values.h"

#include <algorithm>
#include <cstdint>

namespace sling {

Analysis rank_duel_action_values(const std::vector<std::pair<Action, double>>& values, bool david,
                                 bool exact) {
  Analysis analysis;
  analysis.exact = exact;
  analysis.nodes = static_cast<std::int64_t>(values.size());
  for (const auto& [action, p] : values) {
    analysis.actions.push_back({action, david ? 2 * p - 1 : 1 - 2 * p, 0});
  }
  std::stable_sort(analysis.actions.begin(), analysis.actions.end(),
                   [](const ActionStat& a, const ActionStat& b) { return a.value > b.value; });
  analysis.value = analysis.actions.front().value;
  return analysis;
}

}  // namespace sling
