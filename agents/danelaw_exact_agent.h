#pragma once
// `exact`: danelaw played optimally on either side from the exact solver
// (solvers/danelaw/exact_solver.h), for scenarios small enough to solve (a small map, a few
// armies, a few turns).  The scenario is solved once per process and rules and shared by every
// agent (a match builds one per worker); a state the shared solve never reached (an opponent that
// played an action the solve had no need to look at) is solved in the agent's own table.
// `sling match danelaw --danes exact --english strong --rules FILE` measures an agent against it.

#include <cstddef>
#include <memory>
#include <string>

#include "agents/agent.h"
#include "engine/danelaw/danelaw.h"
#include "solvers/danelaw/exact_solver.h"

namespace sling::danelaw {

// The solve of `game` from its initial state, shared by every caller with the same rules (and
// state limit).  Throws ScenarioTooLargeError or RulesError for a scenario the solver refuses.
std::shared_ptr<const ExactSolver> shared_exact_solution(const DanelawGame& game,
                                                         std::size_t max_states);

class ExactAgent final : public Agent<DanelawGame> {
 public:
  ExactAgent(const DanelawGame& game, std::size_t max_states);
  void new_game(std::uint64_t) override {}
  Action act(const State& state) override;
  Analysis last_analysis() const override { return analysis_; }
  std::string spec() const override;

 private:
  DanelawGame game_;
  std::size_t max_states_;
  std::shared_ptr<const ExactSolver> shared_;
  std::unique_ptr<ExactSolver> own_;  // states the shared solve did not reach, made when needed
  Analysis analysis_;
};

}  // namespace sling::danelaw
