#include "solvers/duel/solution.h"

#include <cstdio>
#include <string>

#include "engine/core/errors.h"
#include "solvers/duel/turn_expectation.h"

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

double DuelSolution::turn_value(const DuelState& root_state, bool root) const {
  return expectation_over_turn(
      game_, root_state, root, /*forget_turn=*/true,
      [&](const DuelState& s, bool is_root) -> std::optional<double> {
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
        return std::nullopt;
      });
}

double DuelSolution::value(const DuelState& s) const {
  if (s.phase == Phase::kRoll && s.roll == Roll::kInitiative && s.rerolling == 0) {
    return initiative_value(s.has(kGodAvailable));
  }
  return turn_value(s, true);
}

std::vector<std::pair<Action, double>> DuelSolution::action_values(const DuelState& s) const {
  return values_of_actions(game_, s, [&](const DuelState& t) { return turn_value(t, false); });
}

Action DuelSolution::best_action(const DuelState& s) const {
  return best_of_actions(game_, s, action_values(s));
}

}  // namespace sling::duel
