#include "agents/pig_agents.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "engine/core/keyed_cache.h"

namespace sling {
namespace pig {

namespace {
// Solved tables by goal, and tables read from files by content; four of each at most (a table to
// the largest goal takes 62 MB).
KeyedCache<PigSolution> solved_tables(4);
KeyedCache<PigSolution> loaded_tables(4);
}  // namespace

std::shared_ptr<const PigSolution> shared_solution(int goal) {
  return solved_tables.get("goal " + std::to_string(goal),
                           [&] { return PigSolution::solve(goal); });
}

std::shared_ptr<const PigSolution> shared_solution_file(const std::string& path) {
  return loaded_tables.get(file_content_key(path), [&] { return PigSolution::load(path); });
}

SolverAgent::SolverAgent(const PigGame& game, std::string table_path)
    : table_path_(std::move(table_path)) {
  if (table_path_.empty()) {
    if (game.goal() > PigSolution::kMaxSolvableGoal) {
      throw OptionError("agent 'solver': pig goal " + std::to_string(game.goal()) +
                        " is beyond the solver's limit of " +
                        std::to_string(PigSolution::kMaxSolvableGoal));
    }
    solution_ = shared_solution(game.goal());
  } else {
    solution_ = shared_solution_file(table_path_);
    if (solution_->goal() != game.goal()) {
      throw OptionError("agent 'solver': policy file " + table_path_ + " is for goal " +
                        std::to_string(solution_->goal()) + ", the game's goal is " +
                        std::to_string(game.goal()));
    }
  }
}

Action SolverAgent::act(const PigState& state) {
  const int mine = state.scores[state.to_move];
  const int theirs = state.scores[state.to_move ^ 1];
  const int total = state.turn_total;
  // Values for the player to move, as payoffs in [-1, 1].
  const double roll = 2 * solution_->roll_value(mine, theirs, total) - 1;
  const double hold = 2 * solution_->hold_value(mine, theirs, total) - 1;
  const Action best = solution_->best_action(state);
  analysis_ = Analysis{};
  analysis_.exact = true;
  analysis_.nodes = 0;
  analysis_.value = best == kRoll ? roll : hold;
  const ActionStat roll_stat{kRoll, roll, 0}, hold_stat{kHold, hold, 0};
  analysis_.actions = best == kRoll ? std::vector<ActionStat>{roll_stat, hold_stat}
                                    : std::vector<ActionStat>{hold_stat, roll_stat};
  return best;
}

Action PaceAgent::act(const PigState& state) {
  const int goal = game_.goal();
  const int mine = state.scores[state.to_move];
  const int theirs = state.scores[state.to_move ^ 1];
  const int total = state.turn_total;
  if (mine + total >= goal) return kHold;
  // 71, 21 and 8 at goal 100, in whole points at other goals.
  const auto scaled = [goal](int at_100) { return std::max(1, (at_100 * goal + 50) / 100); };
  if (std::max(mine, theirs) >= scaled(71)) return kRoll;
  const double lead = static_cast<double>(theirs - mine) / scaled(8);
  const int threshold = scaled(21) + static_cast<int>(std::lround(lead));
  return total >= threshold ? kHold : kRoll;
}

int read_hold_threshold(OptionReader& reader) {
  reader.positional_means("at");
  return static_cast<int>(reader.integer("at", 20, 1, PigGame::kMaxGoal,
                                         "turn total to hold at (also holds at the goal)"));
}

std::string read_solver_table(OptionReader& reader) {
  return reader.text("table", "",
                     "policy file from `sling solve pig --out` (default: solve the game's goal "
                     "at start-up)");
}

}  // namespace pig

void GameAgents<pig::PigGame>::catalogue(const pig::PigGame&, std::vector<AgentInfo>& out) {
  out.push_back(describe_agent("solver", "the exact optimal policy (value iteration)",
                               [](OptionReader& r) { pig::read_solver_table(r); }));
  out.push_back(describe_agent("hold", "hold at a turn total of N or at the goal; written hold:N",
                               [](OptionReader& r) { pig::read_hold_threshold(r); }));
  out.push_back(describe_agent(
      "pace",
      "keep pace and end race: hold at 21 plus an eighth of the opponent's lead; roll for "
      "the goal once either side has 71",
      [](OptionReader&) {}));
}

AgentPtr<pig::PigGame> GameAgents<pig::PigGame>::make(const pig::PigGame& game,
                                                      const AgentSpec& spec) {
  if (spec.name == "solver") {
    OptionReader r(spec);
    const std::string table = pig::read_solver_table(r);
    r.finish();
    return std::make_unique<pig::SolverAgent>(game, table);
  }
  if (spec.name == "pace") {
    OptionReader r(spec);
    r.finish();
    return std::make_unique<pig::PaceAgent>(game);
  }
  if (spec.name == "hold") {
    OptionReader r(spec);
    const int threshold = pig::read_hold_threshold(r);
    r.finish();
    return std::make_unique<pig::HoldAgent>(game, threshold);
  }
  return nullptr;
}

std::shared_ptr<const pig::SolutionValue> GameValue<pig::PigGame>::make(const pig::PigGame& game,
                                                                        const Options&) {
  if (game.goal() > pig::PigSolution::kMaxSolvableGoal) {
    throw OptionError("leaf=value: pig goal " + std::to_string(game.goal()) +
                      " is beyond the solver's limit of " +
                      std::to_string(pig::PigSolution::kMaxSolvableGoal));
  }
  return std::make_shared<const pig::SolutionValue>(pig::shared_solution(game.goal()));
}

std::vector<PresetInfo> GameAgents<pig::PigGame>::presets(const pig::PigGame&) {
  return {
      {"easy", "hold:10", "a timid player: holds at a turn total of 10"},
      {"normal", "heuristic", "the rule of thumb: holds at 20"},
      {"strong", "solver", "the exact optimal policy (solved in about a second)"},
  };
}

}  // namespace sling
