#pragma once
// The analysis of a duel decision from David's win probability after each legal action, as the
// exact solver (`solver`) and the interpolated lookahead (`lookahead`) both give it: one ranking,
// so that the two agents read and tie-break their values the same way.

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "agents/agent.h"

namespace sling {

// Each action's value for the side to move, in [-1, 1] (David's win probability p gives 2p - 1
// for David and 1 - 2p for Goliath), best first; equal values keep the order of the legal actions.
// `values` must not be empty.
inline Analysis rank_duel_action_values(const std::vector<std::pair<Action, double>>& values,
                                        bool david, bool exact) {
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
