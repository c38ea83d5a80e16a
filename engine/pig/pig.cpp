#include "engine/pig/pig.h"

#include <charconv>
#include <cmath>

#include "engine/core/json_options.h"

namespace sling::pig {

void PigRules::validate() const {
  if (goal < 1 || goal > PigGame::kMaxGoal) {
    throw RulesError("pig rules: 'goal' must be in [1, " + std::to_string(PigGame::kMaxGoal) +
                     "], got " + std::to_string(goal));
  }
}

PigGame::PigGame(const PigRules& rules) : rules_(rules) {
  rules_.validate();
  info_ = GameInfo{"pig", {"first", "second"}, kFaces, 2, false};
}

void PigGame::apply_action(State& s, Action action) const {
  if (s.phase != Phase::kDecision) {
    throw IllegalActionError("pig: no decision is pending (" + state_to_string(s) + ")");
  }
  if (action != kRoll && action != kHold) {
    throw IllegalActionError("pig: action " + std::to_string(action) +
                             " is neither roll (0) nor hold (1)");
  }
  apply_unchecked(s, action);
}

void PigGame::apply_chance(State& s, Action outcome) const {
  if (s.phase != Phase::kRolling) {
    throw IllegalActionError("pig: no die roll is pending (" + state_to_string(s) + ")");
  }
  if (outcome < 1 || outcome > kFaces) {
    throw IllegalActionError("pig: a die cannot show " + std::to_string(outcome));
  }
  apply_unchecked(s, outcome);
}

std::string PigGame::action_to_string(const State& s, Action action) const {
  if (s.phase == Phase::kRolling) return std::to_string(action);
  return action == kRoll   ? "roll"
         : action == kHold ? "hold"
                           : "invalid(" + std::to_string(action) + ")";
}

Action PigGame::parse_action(const State& s, std::string_view text) const {
  if (s.phase == Phase::kRolling) {
    int face = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), face);
    if (error != std::errc() || end != text.data() + text.size() || face < 1 || face > kFaces) {
      throw ParseError("pig: '" + std::string(text) + "' is not a die face (1-6)");
    }
    return static_cast<Action>(face);
  }
  if (text == "roll" || text == "r") return kRoll;
  if (text == "hold" || text == "h") return kHold;
  throw ParseError("pig: '" + std::string(text) + "' is not an action (roll, hold)");
}

std::string PigGame::state_to_string(const State& s) const {
  std::string out = "first " + std::to_string(s.scores[0]) + ", second " +
                    std::to_string(s.scores[1]) + " (goal " + std::to_string(rules_.goal) + "); ";
  const std::string side = s.to_move == 0 ? "first" : "second";
  switch (s.phase) {
    case Phase::kDecision:
      out += side + " to move, turn total " + std::to_string(s.turn_total);
      break;
    case Phase::kRolling:
      out += side + " rolling, turn total " + std::to_string(s.turn_total);
      break;
    case Phase::kOver:
      out += side + " wins";
      break;
  }
  return out;
}

std::string PigGame::rules_json() const {
  return options_to_json(rules_);
}

PigGame PigGame::from_rules_json(std::string_view text) {
  return PigGame(options_from_json<PigRules>(text, "pig rules"));
}

double PigGame::evaluate(const State& s) const {
  if (s.phase == Phase::kOver) return s.to_move == 0 ? 1.0 : -1.0;
  const double mover = s.scores[s.to_move] + s.turn_total;
  const double other = s.scores[s.to_move ^ 1];
  // Being on move is worth about a sixth of an average turn; the lead matters more near the goal.
  const double lead = (mover - other + 4.0) / rules_.goal;
  const double closeness = 1.0 + std::max(mover, other) / rules_.goal;
  const double value = std::tanh(1.5 * lead * closeness);
  return s.to_move == 0 ? value : -value;
}

}  // namespace sling::pig
