#pragma once
// `solver`: plays either side of the duel optimally from a saved exact solution
// (`solver:file=duel.sol`, written by `sling solve duel`).  Every decision, God's included, is the
// best by the solved values, and the analysis lists the exact value of every legal action.

#include <iostream>
#include <memory>
#include <mutex>
#include <set>
#include <string>

#include "agents/agent.h"
#include "agents/duel_action_values.h"
#include "agents/shared_cache.h"
#include "agents/spec.h"
#include "engine/core/errors.h"
#include "solvers/duel/capped_solution.h"
#include "solvers/duel/solver.h"

namespace sling {

class DuelSolverAgent final : public Agent<duel::DuelGame> {
 public:
  DuelSolverAgent(std::shared_ptr<const duel::DuelSolution> solution, std::string file,
                  bool allow_uncertified = false)
      : solution_(std::move(solution)),
        file_(std::move(file)),
        allow_uncertified_(allow_uncertified) {}

  void new_game(std::uint64_t) override {}

  Action act(const duel::DuelState& state) override {
    const auto values = solution_->action_values(state);
    if (values.empty()) throw IllegalActionError("solver agent: no decision is pending");
    const bool david = solution_->game().current_player(state) == duel::kDavid;
    analysis_ = rank_duel_action_values(values, david, true);
    return analysis_.actions.front().action;
  }

  Analysis last_analysis() const override { return analysis_; }
  std::string spec() const override {
    return "solver:file=" + file_ + (allow_uncertified_ ? ",allow_uncertified=1" : "");
  }
  const duel::DuelSolution& solution() const { return *solution_; }

 private:
  std::shared_ptr<const duel::DuelSolution> solution_;
  std::string file_;
  bool allow_uncertified_ = false;
  Analysis analysis_;
};

// Loads the solution named by `file=` once per content (a rewritten file is read again) and checks
// that it was solved for this game's rules.  Two solutions stay loaded at most: one at the default
// lattice takes about 2 GiB.
inline std::shared_ptr<const duel::DuelSolution> shared_duel_solution(const duel::DuelGame& game,
                                                                      const std::string& file) {
  static SharedCache<duel::DuelSolution> loaded(2);
  std::shared_ptr<const duel::DuelSolution> solution =
      loaded.get(file_content_key(file), [&] { return duel::DuelSolution::load(file, &game); });
  if (!(solution->game().rules() == game.rules())) {
    solution = std::make_shared<const duel::DuelSolution>(duel::DuelSolution::load(file, &game));
  }
  return solution;
}

// `solver` under rules with a turn cap: plays from a capped solution (`sling solve duel
// --turn-cap N`), choosing by the values with the turns that are left (the state's turn counter
// says how many) under the solution's objective (score or win).
class DuelCappedSolverAgent final : public Agent<duel::DuelGame> {
 public:
  DuelCappedSolverAgent(std::shared_ptr<const duel::CappedDuelSolution> solution, std::string file)
      : solution_(std::move(solution)), file_(std::move(file)) {}

  void new_game(std::uint64_t) override {}

  Action act(const duel::DuelState& state) override {
    const auto values = solution_->action_values(state);
    if (values.empty()) throw IllegalActionError("solver agent: no decision is pending");
    const bool david = solution_->game().current_player(state) == duel::kDavid;
    analysis_ = rank_duel_action_values(values, david, true);
    return analysis_.actions.front().action;
  }

  Analysis last_analysis() const override { return analysis_; }
  std::string spec() const override { return "solver:file=" + file_; }
  const duel::CappedDuelSolution& solution() const { return *solution_; }

 private:
  std::shared_ptr<const duel::CappedDuelSolution> solution_;
  std::string file_;
  Analysis analysis_;
};

// As shared_duel_solution, for a capped solution (its recomputed turns are shared too).
inline std::shared_ptr<const duel::CappedDuelSolution> shared_capped_duel_solution(
    const duel::DuelGame& game, const std::string& file) {
  static SharedCache<duel::CappedDuelSolution> loaded(2);
  std::shared_ptr<const duel::CappedDuelSolution> solution = loaded.get(
      file_content_key(file), [&] { return duel::CappedDuelSolution::load(file, &game); });
  if (!(solution->game().rules() == game.rules())) {
    solution = std::make_shared<const duel::CappedDuelSolution>(
        duel::CappedDuelSolution::load(file, &game));
  }
  return solution;
}

// One warning on stderr per file and process for an uncertified solution played anyway.
inline void warn_uncertified_once(const std::string& file, const std::string& line) {
  static std::mutex mutex;
  static std::set<std::string> warned;
  std::lock_guard<std::mutex> lock(mutex);
  if (warned.insert(file).second) std::cerr << "sling: warning: " << line << '\n';
}

inline AgentPtr<duel::DuelGame> make_duel_solver_agent(const duel::DuelGame& game,
                                                       const AgentSpec& spec) {
  OptionReader reader(spec);
  const std::string file =
      reader.text("file", "",
                  "solution file written by `sling solve duel` for these rules (with "
                  "--turn-cap N for rules with a turn cap)");
  const bool allow_uncertified =
      reader.integer("allow_uncertified", 0, 0, 1,
                     "1: play from a solution whose bracket is not certified (warns)") != 0;
  reader.finish();
  if (file.empty()) {
    throw OptionError("agent 'solver': give the solution file, e.g. solver:file=duel.sol");
  }
  if (game.rules().turn_cap > 0) {
    // A capped solution is exact (no bracket): allow_uncertified has nothing to allow.
    return std::make_unique<DuelCappedSolverAgent>(shared_capped_duel_solution(game, file), file);
  }
  auto solution = shared_duel_solution(game, file);
  if (!solution->certified()) {
    const std::string problem =
        "agent 'solver': '" + file + "' is " + solution->certificate_problem();
    if (!allow_uncertified) {
      throw OptionError(problem + "; give allow_uncertified=1 to play from it anyway");
    }
    warn_uncertified_once(file, problem + "; playing from it (allow_uncertified=1)");
  }
  return std::make_unique<DuelSolverAgent>(std::move(solution), file, allow_uncertified);
}

}  // namespace sling
