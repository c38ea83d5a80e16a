#include "agents/danelaw_exact_agent.h"

#include <algorithm>
#include <vector>

#include "engine/core/keyed_cache.h"

namespace sling::danelaw {

namespace {
// Solved scenarios by rules; two at most (a table may take hundreds of MB).
KeyedCache<ExactSolver> solved_scenarios(2);

// A probability of the Danes winning as the payoff of `player`, in [-1, 1].
double payoff_for(Player player, double danes_win) {
  return player == kDanes ? 2 * danes_win - 1 : 1 - 2 * danes_win;
}
}  // namespace

std::shared_ptr<const ExactSolver> shared_exact_solution(const DanelawGame& game,
                                                         std::size_t max_states) {
  const std::string key = game.rules_json() + "\nmax_states " + std::to_string(max_states);
  return solved_scenarios.get(key, [&] {
    ExactSolver solver(game, ExactOptions{max_states});
    solver.solve(game.initial_state());
    return solver;
  });
}

ExactAgent::ExactAgent(const DanelawGame& game, std::size_t max_states)
    : game_(game), max_states_(max_states), shared_(shared_exact_solution(game, max_states)) {}

Action ExactAgent::act(const State& state) {
  std::optional<std::vector<ExactActionValue>> values = shared_->find_action_values(state);
  if (!values) {
    if (!own_) own_ = std::make_unique<ExactSolver>(game_, ExactOptions{max_states_});
    values = own_->action_values(state);
  }
  const Player player = game_.current_player(state);
  const ExactActionValue best = ExactSolver::best_of(*values, player);
  analysis_ = Analysis{};
  analysis_.exact = true;
  analysis_.value = payoff_for(player, best.danes_win);
  for (const ExactActionValue& v : *values) {
    analysis_.actions.push_back({v.action, payoff_for(player, v.danes_win), 0});
  }
  std::stable_sort(analysis_.actions.begin(), analysis_.actions.end(),
                   [](const ActionStat& a, const ActionStat& b) { return a.value > b.value; });
  return best.action;
}

std::string ExactAgent::spec() const {
  return "exact:max_states=" + std::to_string(max_states_);
}

}  // namespace sling::danelaw
