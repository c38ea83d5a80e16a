#include "solvers/duel/solution.h"

#include <cstdio>
#include <functional>
#include <string>
#include <unordered_map>

#include "engine/core/errors.h"

namespace sling::duel {

// DuelSolution: values anywhere, by expectimax over the rest of the turn with DuelGame itself.

DuelSolution::DuelSolution(const DuelGame& game, std::vector<double> values, SolveSummary summary,
                           bool complete)
    : game_(game),
      index_(game),
      values_(std::move(values)),
      summary_(std::move(summary)),
      complete_(complete) {
  if (values_.size() != index_.size())
    throw FileFormatError("duel solution: wrong number of values");
}

std::string DuelSolution::certificate_problem() const {
  if (summary_.certified) return "";
  const SolveSummary& s = summary_;
  const bool god = game_.rules().god_enabled;
  char line[320];
  const std::string where =
      s.failed_layer.empty() ? std::string("every certificate held but the bracket is too wide")
                             : "the " + s.failed_pass + " pass failed on layer " + s.failed_layer;
  std::snprintf(line, sizeof line, "not certified: %s; bracket [%.10f, %.10f], gap %.3g%s",
                where.c_str(), god ? s.lower_bound : s.lower_bound_without_god,
                god ? s.upper_bound : s.upper_bound_without_god,
                god ? s.gap() : s.gap_without_god(),
                god ? (s.certified_without_god ? " (the game without God is certified)"
                                               : " (without God not certified either)")
                    : "");
  return line;
}

double DuelSolution::initiative_value(bool god) const {
  return god ? summary_.start : summary_.start_without_god;
}

namespace {

struct StateHash {
  std::size_t operator()(const DuelState& s) const { return DuelGame::hash(s); }
};

}  // namespace

double DuelSolution::turn_value(const DuelState& root_state, bool root) const {
  std::unordered_map<DuelState, double, StateHash> memo;
  std::function<double(const DuelState&, bool)> value_of = [&](const DuelState& raw, bool is_root) {
    DuelState s = raw;
    s.turn = 0;
    switch (s.phase) {
      case Phase::kTerminal:
        return s.winner == kDavid ? 1.0 : 0.0;
      case Phase::kDeclare:
        if (!is_root) {
          const auto i = index_.index_of(s);
          if (!i) throw IllegalActionError("duel solution: state outside the solved index");
          return values_[*i];
        }
        break;
      case Phase::kRoll:
        if (!is_root && s.roll == Roll::kInitiative && s.rerolling == 0) {
          return initiative_value(s.has(kGodAvailable));
        }
        break;
      default:
        break;
    }
    if (!is_root) {
      const auto found = memo.find(s);
      if (found != memo.end()) return found->second;
    }
    double result = 0;
    if (s.phase == Phase::kRoll) {
      ChanceList<DuelGame> outcomes;
      game_.chance_outcomes(s, outcomes);
      for (const ChanceOutcome& o : outcomes) {
        DuelState t = s;
        game_.apply_chance(t, o.outcome);
        result += o.probability * value_of(t, false);
      }
    } else {
      ActionList<DuelGame> actions;
      game_.legal_actions(s, actions);
      const bool david = game_.current_player(s) == kDavid;
      bool have = false;
      for (Action a : actions) {
        DuelState t = s;
        game_.apply_action(t, a);
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

double DuelSolution::value(const DuelState& s) const {
  if (s.phase == Phase::kRoll && s.roll == Roll::kInitiative && s.rerolling == 0) {
    return initiative_value(s.has(kGodAvailable));
  }
  return turn_value(s, true);
}

std::vector<std::pair<Action, double>> DuelSolution::action_values(const DuelState& s) const {
  std::vector<std::pair<Action, double>> out;
  if (s.phase == Phase::kRoll || s.phase == Phase::kTerminal) return out;
  ActionList<DuelGame> actions;
  game_.legal_actions(s, actions);
  for (Action a : actions) {
    DuelState t = s;
    game_.apply_action(t, a);
    out.emplace_back(a, turn_value(t, false));
  }
  return out;
}

Action DuelSolution::best_action(const DuelState& s) const {
  const auto values = action_values(s);
  if (values.empty()) throw IllegalActionError("no decision is pending");
  const bool david = game_.current_player(s) == kDavid;
  std::size_t best = 0;
  for (std::size_t i = 1; i < values.size(); ++i) {
    if (david ? values[i].second > values[best].second : values[i].second < values[best].second)
      best = i;
  }
  return values[best].first;
}

}  // namespace sling::duel
