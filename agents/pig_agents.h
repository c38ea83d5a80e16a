#pragma once
// Pig's own agents: `solver` plays the exact optimal policy, `hold:N` holds at a turn total of N
// (or as soon as holding reaches the goal) and is the classic baseline.

#include <memory>
#include <string>

#include "agents/game_agents.h"
#include "agents/game_value.h"
#include "engine/pig/pig.h"
#include "solvers/pig/solver.h"

namespace sling {
namespace pig {

// The solution for `goal`, solved once per process and shared by every agent (matches build one
// agent per game and per worker).  Thread-safe.
std::shared_ptr<const PigSolution> shared_solution(int goal);
// The solution stored in a policy file, loaded once per path.  Thread-safe.
std::shared_ptr<const PigSolution> shared_solution_file(const std::string& path);

class SolverAgent final : public Agent<PigGame> {
 public:
  SolverAgent(const PigGame& game, std::string table_path);
  void new_game(std::uint64_t) override {}
  Action act(const PigState& state) override;
  Analysis last_analysis() const override { return analysis_; }
  std::string spec() const override {
    return table_path_.empty() ? "solver" : "solver:table=" + table_path_;
  }

 private:
  std::string table_path_;
  std::shared_ptr<const PigSolution> solution_;
  Analysis analysis_;
};

class HoldAgent final : public Agent<PigGame> {
 public:
  HoldAgent(const PigGame& game, int threshold) : game_(game), threshold_(threshold) {}
  void new_game(std::uint64_t) override {}
  Action act(const PigState& state) override { return game_.hold_at_action(state, threshold_); }
  std::string spec() const override { return "hold:" + std::to_string(threshold_); }

 private:
  const PigGame& game_;
  int threshold_;
};

// "Keep pace and end race" (Neller and Presser's practical rule for Pig, goal 100): once either
// side has 71 points, roll until the turn reaches the goal; before that, hold at 21 plus an eighth
// of the opponent's lead.  Stronger than holding at 20, a little weaker than the exact policy: the
// `normal` preset.  Other goals scale the three numbers with the goal.
class PaceAgent final : public Agent<PigGame> {
 public:
  explicit PaceAgent(const PigGame& game) : game_(game) {}
  void new_game(std::uint64_t) override {}
  Action act(const PigState& state) override;
  std::string spec() const override { return "pace"; }

 private:
  const PigGame& game_;
};

// Pig's value function for `leaf=value`: the exact solution's win probability, as side 0's payoff.
class SolutionValue {
 public:
  explicit SolutionValue(std::shared_ptr<const PigSolution> solution)
      : solution_(std::move(solution)) {}
  double operator()(const PigState& s) const {
    if (s.phase == Phase::kOver) return s.to_move == 0 ? 1.0 : -1.0;
    const int mine = s.scores[s.to_move], theirs = s.scores[1 - s.to_move];
    const double p = s.phase == Phase::kDecision
                         ? solution_->win_probability(mine, theirs, s.turn_total)
                         : solution_->roll_value(mine, theirs, s.turn_total);
    return s.to_move == 0 ? 2 * p - 1 : 1 - 2 * p;
  }

 private:
  std::shared_ptr<const PigSolution> solution_;
};

int read_hold_threshold(OptionReader& reader);
std::string read_solver_table(OptionReader& reader);

}  // namespace pig

template <>
struct GameValue<pig::PigGame> {
  static constexpr bool kAvailable = true;
  using Function = pig::SolutionValue;
  struct Options {};
  static Options read(OptionReader&) { return {}; }
  static std::string spec(const Options&) { return ""; }
  static std::shared_ptr<const Function> make(const pig::PigGame& game, const Options&);
};

template <>
struct GameAgents<pig::PigGame> {
  static void catalogue(const pig::PigGame& game, std::vector<AgentInfo>& out);
  static AgentPtr<pig::PigGame> make(const pig::PigGame& game, const AgentSpec& spec);
  // easy: the heuristic; normal: a quick search; strong: the exact solver.
  static std::vector<PresetInfo> presets(const pig::PigGame& game);
  static constexpr std::string_view kSolutionFileOption = "table";
};

}  // namespace sling
