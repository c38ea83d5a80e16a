#pragma once
// The value of a duel state by expectimax over the rest of its turn, both sides optimal, down to
// the states a solution stores (the next declare states, the initiative roll) and the game's end.
// Shared by the uncapped solution (DuelSolution) and the capped one (CappedDuelSolution), which
// differ only in how they value those leaves.

#include <functional>
#include <optional>
#include <unordered_map>
#include <utility>
#include <vector>

#include "engine/core/errors.h"

#include "engine/core/game.h"
#include "engine/duel/duel.h"

namespace sling::duel {

// `leaf(s, is_root)` returns the stored value of a state the expansion stops at, or nullopt to
// expand it (its chance outcomes, or its actions for the side to move).  States repeat within a
// turn (a tied melee is thrown again and again), so values are memoised; `forget_turn` zeroes the
// turn counter first when the values do not depend on it (no turn cap), so that repeats share
// one entry.
template <class Leaf>
double expectation_over_turn(const DuelGame& game, const DuelState& root_state, bool root,
                             bool forget_turn, const Leaf& leaf) {
  struct Hash {
    std::size_t operator()(const DuelState& s) const { return DuelGame::hash(s); }
  };
  std::unordered_map<DuelState, double, Hash> memo;
  std::function<double(const DuelState&, bool)> value_of = [&](const DuelState& raw, bool is_root) {
    DuelState s = raw;
    if (forget_turn) s.turn = 0;
    if (const std::optional<double> stored = leaf(s, is_root)) return *stored;
    if (!is_root) {
      const auto found = memo.find(s);
      if (found != memo.end()) return found->second;
    }
    double result = 0;
    if (s.phase == Phase::kRoll) {
      result = chance_expectation(game, s, [&](const DuelState& t) { return value_of(t, false); });
    } else {
      ActionList<DuelGame> actions;
      game.legal_actions(s, actions);
      const bool david = game.current_player(s) == kDavid;
      bool have = false;
      for (Action a : actions) {
        DuelState t = s;
        game.apply_action(t, a);
        const double v = value_of(t, false);
        if (!have || (david ? v > result : v < result)) result = v;
        have = true;
      }
    }
    if (!is_root) memo.emplace(s, result);
    return result;
  };
  return value_of(root_state, root);
}

// The value of each legal action at a decision (none at a roll or at the end): `after(t)`, the
// value of the state the action leads to.
template <class After>
std::vector<std::pair<Action, double>> values_of_actions(const DuelGame& game, const DuelState& s,
                                                         const After& after) {
  std::vector<std::pair<Action, double>> out;
  if (s.phase == Phase::kRoll || s.phase == Phase::kTerminal) return out;
  ActionList<DuelGame> actions;
  game.legal_actions(s, actions);
  for (Action a : actions) {
    DuelState t = s;
    game.apply_action(t, a);
    out.emplace_back(a, after(t));
  }
  return out;
}

// The index of the best of those values for the side to move (the first of equal ones); the
// studies read its value and, at God's decision, its gain over accepting (values[0]) too.
inline std::size_t best_index_of_actions(const DuelGame& game, const DuelState& s,
                                         const std::vector<std::pair<Action, double>>& values) {
  if (values.empty()) throw IllegalActionError("no decision is pending");
  const bool david = game.current_player(s) == kDavid;
  std::size_t best = 0;
  for (std::size_t i = 1; i < values.size(); ++i) {
    if (david ? values[i].second > values[best].second : values[i].second < values[best].second)
      best = i;
  }
  return best;
}

// The best of those values' action.
inline Action best_of_actions(const DuelGame& game, const DuelState& s,
                              const std::vector<std::pair<Action, double>>& values) {
  return values[best_index_of_actions(game, s, values)].first;
}

}  // namespace sling::duel
