#include "agents/duel_solver_agent.h"

#include <iostream>
#include <mutex>
#include <set>
#include <utility>

#include "agents/duel_action_values.h"
#include "engine/core/errors.h"
#include "engine/core/keyed_cache.h"
#include "solvers/duel/capped_cache.h"
#include "solvers/duel/capped_solution.h"
#include "solvers/duel/solver.h"

namespace sling {

template <class Solution>
ExactDuelAgent<Solution>::ExactDuelAgent(std::shared_ptr<const Solution> solution, std::string file,
                                         std::string spec_options)
    : solution_(std::move(solution)),
      file_(std::move(file)),
      spec_options_(std::move(spec_options)) {}

template <class Solution>
Action ExactDuelAgent<Solution>::act(const duel::DuelState& state) {
  const auto values = solution_->action_values(state);
  if (values.empty()) throw IllegalActionError("solver agent: no decision is pending");
  const bool david = solution_->game().current_player(state) == duel::kDavid;
  analysis_ = rank_duel_action_values(values, david, true);
  return analysis_.actions.front().action;
}

template <class Solution>
std::string ExactDuelAgent<Solution>::spec() const {
  if (file_.empty()) return "solver:" + spec_options_;
  return "solver:file=" + file_ + spec_options_;
}

template class ExactDuelAgent<duel::DuelSolution>;
template class ExactDuelAgent<duel::CappedDuelSolution>;

namespace {

// The loaded solutions of each kind (see shared_duel_solution).
template <class Solution>
KeyedCache<Solution> loaded_exact_solutions(2);

template <class Solution>
std::shared_ptr<const Solution> shared_exact_solution(const duel::DuelGame& game,
                                                      const std::string& file) {
  std::shared_ptr<const Solution> solution = loaded_exact_solutions<Solution>.get(
      file_content_key(file), [&] { return Solution::load(file, &game); });
  if (!(solution->game().rules() == game.rules())) {
    solution = std::make_shared<const Solution>(Solution::load(file, &game));
  }
  return solution;
}

// The files whose uncertified solution has been warned about in this process.
struct UncertifiedWarnings {
  std::mutex mutex;
  std::set<std::string> files;
};
UncertifiedWarnings uncertified_warnings;

}  // namespace

std::shared_ptr<const duel::DuelSolution> shared_duel_solution(const duel::DuelGame& game,
                                                               const std::string& file) {
  return shared_exact_solution<duel::DuelSolution>(game, file);
}

std::shared_ptr<const duel::CappedDuelSolution> shared_capped_duel_solution(
    const duel::DuelGame& game, const std::string& file) {
  return shared_exact_solution<duel::CappedDuelSolution>(game, file);
}

void warn_uncertified_once(const std::string& file, const std::string& line) {
  auto& warned = uncertified_warnings;
  const std::lock_guard<std::mutex> lock(warned.mutex);
  if (warned.files.insert(file).second) std::cerr << "sling: warning: " << line << '\n';
}

DuelSolverOptions DuelSolverOptions::read(OptionReader& reader) {
  DuelSolverOptions o;
  o.file = reader.text(
      "file", "",
      "solution file written by `sling solve duel` for these rules (with --turn-cap N for rules "
      "with a turn cap); required without a cap; under a cap it may be left out: the capped "
      "game is solved on first use and cached");
  o.allow_uncertified =
      reader.integer("allow_uncertified", 0, 0, 1,
                     "1: play from a solution whose bracket is not certified (warns)") != 0;
  o.objective = reader.text("objective", "score",
                            "without a file under a turn cap: what to maximise, score (a draw "
                            "is worth half) or win (David's win probability)");
  return o;
}

AgentPtr<duel::DuelGame> make_duel_solver_agent(const duel::DuelGame& game, const AgentSpec& spec) {
  OptionReader reader(spec);
  const DuelSolverOptions options = DuelSolverOptions::read(reader);
  reader.finish();
  const std::string& file = options.file;
  const bool allow_uncertified = options.allow_uncertified;
  const std::string& objective = options.objective;
  if (file.empty() && game.rules().turn_cap > 0) {
    const duel::CappedObjective chosen = duel::parse_objective(objective);
    return std::make_unique<DuelCappedSolverAgent>(
        duel::cached_capped_duel_solution(game, chosen), "",
        std::string("objective=") + duel::objective_name(chosen));
  }
  if (file.empty()) {
    throw OptionError(
        "agent 'solver': give the solution file, e.g. solver:file=duel.sol (only rules with a "
        "turn cap are solved on first use)");
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
  return std::make_unique<DuelSolverAgent>(std::move(solution), file,
                                           allow_uncertified ? ",allow_uncertified=1" : "");
}

}  // namespace sling
