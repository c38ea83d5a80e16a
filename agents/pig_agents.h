#pragma once
// Pig's own agents: `solver` plays the exact optimal policy, `hold:N` holds at a turn total of N
// (or as soon as holding reaches the goal) and is the classic baseline.

#include <memory>
#include <string>

#include "agents/game_agents.h"
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

int read_hold_threshold(OptionReader& reader);
std::string read_solver_table(OptionReader& reader);

}  // namespace pig

template <>
struct GameAgents<pig::PigGame> {
  static void catalogue(const pig::PigGame& game, std::vector<AgentInfo>& out);
  static AgentPtr<pig::PigGame> make(const pig::PigGame& game, const AgentSpec& spec);
};

}  // namespace sling
