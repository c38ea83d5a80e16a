#pragma once
// The analysis of a duel decision from David's win probability after each legal action, as the
// exact solver (`solver`) and the interpolated lookahead (`lookahead`) both give it: one ranking,
// so that the two agents read and tie-break their values the same way.

#include <utility>
#include <vector>

#include "agents/agent.h"

namespace sling {

// Each action's value for the side to move, in [-1, 1] (David's win probability p gives 2p - 1
// for David and 1 - 2p for Goliath), best first; equal values keep the order of the legal actions.
// `values` must not be empty.
Analysis rank_duel_action_values(const std::vector<std::pair<Action, double>>& values, bool david,
                                 bool exact);

}  // namespace sling
