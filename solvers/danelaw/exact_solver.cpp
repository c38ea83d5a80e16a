#include "solvers/danelaw/exact_solver.h"

#include <string>
#include <utility>

namespace sling::danelaw {

namespace {

double danes_win(const State& s) {
  return s.winner == kDanes ? 1.0 : 0.0;
}

// The bound a side's decision can reach: no action does better.
double bound_for(Player player) {
  return player == kDanes ? 1.0 : 0.0;
}

bool better_for(Player player, double candidate, double best) {
  return player == kDanes ? candidate > best : candidate < best;
}

}  // namespace

void check_exact_scenario(const DanelawGame& game) {
  const auto fail = [](const std::string& why) {
    throw RulesError("danelaw exact solver: " + why);
  };
  if (game.map().size() > kExactMaxHexes) {
    fail("the map has " + std::to_string(game.map().size()) + " hexes, the solver at most " +
         std::to_string(kExactMaxHexes));
  }
  int militia = 0;
  for (const Town& t : game.map().towns()) militia += t.coastal;
  const int armies = game.rules().danish_pool() + game.rules().pool + militia;
  if (armies > kExactMaxArmies) {
    fail("up to " + std::to_string(armies) + " armies could be on the map (pools " +
         std::to_string(game.rules().danish_pool()) + " and " + std::to_string(game.rules().pool) +
         ", " + std::to_string(militia) + " militia), the solver handles at most " +
         std::to_string(kExactMaxArmies));
  }
}

ExactSolver::ExactSolver(DanelawGame game, ExactOptions options)
    : game_(std::move(game)), table_(options.max_states) {
  check_exact_scenario(game_);
}

double ExactSolver::solve(const State& s) {
  return value(s, 0);
}

std::optional<double> ExactSolver::find(const State& s) const {
  if (game_.is_terminal(s)) return danes_win(s);
  if (const double* v = table_.find(exact_key(s))) return *v;
  return std::nullopt;
}

// Expectimax, depth first.  Recursion depth is the length of a game in plies (a few hundred for a
// few turns); a frame holds a state and a key, its lists are lists_[depth].
double ExactSolver::value(const State& s, int depth) {
  if (game_.is_terminal(s)) return danes_win(s);
  const ExactKey key = exact_key(s);
  if (const double* v = table_.find(key)) return *v;
  if (depth >= kExactMaxPlies) {
    throw ScenarioTooLargeError("danelaw exact solver: the scenario's games run past " +
                                std::to_string(kExactMaxPlies) +
                                " plies; solve a scenario with fewer turns");
  }
  if (static_cast<int>(lists_.size()) <= depth) lists_.emplace_back();
  NodeLists& lists = lists_[static_cast<std::size_t>(depth)];
  const Player player = game_.current_player(s);
  double result = 0;
  if (player == kChancePlayer) {
    game_.chance_outcomes(s, lists.outcomes);
    for (const ChanceOutcome& o : lists.outcomes) {
      State next = s;
      game_.apply_chance_unchecked(next, o.outcome);
      result += o.probability * value(next, depth + 1);
    }
  } else {
    game_.legal_actions(s, lists.actions);
    result = 1.0 - bound_for(player);  // the worst for the side to move; every node has an action
    for (const Action a : lists.actions) {
      State next = s;
      game_.apply_unchecked(next, a);
      const double v = value(next, depth + 1);
      if (better_for(player, v, result)) result = v;
      if (result == bound_for(player)) break;
    }
  }
  table_.insert(key, result);
  return result;
}

std::vector<ExactActionValue> ExactSolver::action_values(const State& s) {
  const Player player = game_.current_player(s);
  ActionList<DanelawGame> actions;
  game_.legal_actions(s, actions);
  std::vector<ExactActionValue> out;
  for (const Action a : actions) {
    State next = s;
    game_.apply_unchecked(next, a);
    out.push_back({a, value(next, 0)});
    if (out.back().danes_win == bound_for(player)) break;
  }
  return out;
}

std::optional<std::vector<ExactActionValue>> ExactSolver::find_action_values(const State& s) const {
  const Player player = game_.current_player(s);
  ActionList<DanelawGame> actions;
  game_.legal_actions(s, actions);
  std::vector<ExactActionValue> out;
  for (const Action a : actions) {
    State next = s;
    game_.apply_unchecked(next, a);
    const std::optional<double> v = find(next);
    if (!v) return std::nullopt;
    out.push_back({a, *v});
    if (*v == bound_for(player)) break;
  }
  return out;
}

ExactActionValue ExactSolver::best_of(const std::vector<ExactActionValue>& values, Player player) {
  ExactActionValue best = values.front();
  for (const ExactActionValue& v : values) {
    if (better_for(player, v.danes_win, best.danes_win)) best = v;
  }
  return best;
}

}  // namespace sling::danelaw
