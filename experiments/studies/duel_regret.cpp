#include "experiments/studies/duel_regret.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>

#include "agents/registry.h"
#include "solvers/duel/solution.h"

namespace sling::duel {
namespace {

std::string decision_kind(const DuelGame& game, const DuelState& s, Action chosen) {
  switch (s.phase) {
    case Phase::kGod:
      return "god";
    case Phase::kTieFlee:
      return "tie flee";
    case Phase::kDestination:
      return "destination";
    default: {
      const std::string name = game.action_to_string(s, chosen);
      return "declare: " + name.substr(0, name.find(' '));
    }
  }
}

}  // namespace

RegretResult measure_regret(const RegretOptions& options) {
  const DuelSolution solution = DuelSolution::load(options.solution_file);
  const DuelGame& game = solution.game();
  const Side studied = options.side;
  auto agent = make_agent(game, options.agent);
  auto solver = make_agent(game, "solver:file=" + options.solution_file);
  std::map<std::string, RegretRow> rows;
  RegretResult result;
  const double david_value = solution.value(game.initial_state());
  result.solved_value = studied == kDavid ? david_value : 1 - david_value;
  double sum = 0, sum_squares = 0;
  for (int g = 0; g < options.games; ++g) {
    Rng dice(options.seed, static_cast<std::uint64_t>(g));
    agent->new_game(Rng(options.seed, 1'000'000 + static_cast<std::uint64_t>(g)).next());
    solver->new_game(Rng(options.seed, 2'000'000 + static_cast<std::uint64_t>(g)).next());
    DuelState s = game.initial_state();
    double game_regret = 0;
    std::int64_t plies = 0;
    for (; !game.is_terminal(s) && plies < options.max_plies; ++plies) {
      const Player player = game.current_player(s);
      Action a;
      if (player == kChancePlayer) {
        a = sample_chance(game, s, dice);
      } else if (player == studied) {
        a = agent->act(s);
        double best = -1, chosen = -1;
        for (const auto& [action, david_win] : solution.action_values(s)) {
          const double v = studied == kDavid ? david_win : 1 - david_win;
          best = std::max(best, v);
          if (action == a) chosen = v;
        }
        if (chosen < 0)
          throw IllegalActionError("regret study: the agent played an illegal action");
        const double regret = std::max(0.0, best - chosen);
        RegretRow& row = rows[decision_kind(game, s, a)];
        ++row.decisions;
        row.mistakes += regret > 1e-9;
        row.regret += regret;
        row.largest = std::max(row.largest, regret);
        game_regret += regret;
      } else {
        a = solver->act(s);
      }
      const DuelState before = s;
      apply_any(game, s, a);
      agent->observe(before, a);
      solver->observe(before, a);
    }
    ++result.games;
    if (!game.is_terminal(s)) {
      ++result.cut;
    } else if (game.returns(s)[studied] > 0) {
      ++result.wins;
    }
    sum += game_regret;
    sum_squares += game_regret * game_regret;
  }
  for (auto& [kind, row] : rows) {
    row.kind = kind;
    result.rows.push_back(row);
  }
  const double n = std::max(1, result.games);
  result.regret_per_game = sum / n;
  const double variance =
      std::max(0.0, sum_squares / n - result.regret_per_game * result.regret_per_game);
  result.regret_standard_error = std::sqrt(variance / n);
  return result;
}

}  // namespace sling::duel
