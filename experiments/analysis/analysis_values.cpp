#include "experiments/analysis/analysis_values.h"

#include <memory>
#include <string>

#include "agents/pig_agents.h"
#include "engine/core/errors.h"
#include "solvers/danelaw/model_value.h"
#include "solvers/duel/solution.h"
#include "solvers/duel/solution_cache.h"

namespace sling {

AnalysisValue<duel::DuelGame> analysis_value(const duel::DuelGame& game,
                                             const AnalysisValueOptions& options) {
  using duel::CoarseDuelValue;
  const CoarseDuelValue::Scope scope = options.candidates_only
                                           ? CoarseDuelValue::Scope::kCandidates
                                           : CoarseDuelValue::Scope::kAllActions;
  std::shared_ptr<const CoarseDuelValue> values;
  duel::RefinementRequest refinement{options.refine, 0.0};
  const std::string lattice = std::to_string(game.rules().pitch_cm) + " cm lattice";
  if (!options.solution_file.empty()) {
    auto solution = std::make_shared<const duel::DuelSolution>(
        duel::DuelSolution::load(options.solution_file, &game));
    values = std::make_shared<const CoarseDuelValue>(game, std::move(solution), scope);
  } else if (options.refine == 0) {
    // The finest values already at hand, so that an analysis never starts a long computation:
    // the game's own exact solution, else the refined values `strong` computed on its lattice,
    // else the finest coarser solution cached; else the default coarse lattice, solved on first
    // use.
    const auto cached_exact = [&](int pitch) {
      duel::DuelRules rules = game.rules();
      rules.pitch_cm = pitch;
      rules.turn_cap = 0;
      return duel::cached_duel_solution_if_present(duel::DuelGame(rules));
    };
    if (auto own = cached_exact(game.rules().pitch_cm)) {
      values = std::make_shared<const CoarseDuelValue>(game, std::move(own), scope);
    } else if (duel::coarse_value_is_ready(game, 0, true, scope, duel::kStrongRefinement)) {
      refinement = duel::kStrongRefinement;
      values = duel::shared_coarse_value(game, 0, true, scope, refinement);
    }
    for (int pitch = game.rules().pitch_cm + 1; pitch <= 5 && !values; ++pitch) {
      std::shared_ptr<const duel::DuelSolution> cached;
      try {
        cached = cached_exact(pitch);
      } catch (const RulesError&) {
        break;  // a lattice too coarse for this board
      }
      if (cached) {
        values = std::make_shared<const CoarseDuelValue>(game, std::move(cached), scope);
      }
    }
  }
  if (!values) values = duel::shared_coarse_value(game, 0, true, scope, refinement);
  AnalysisValue<duel::DuelGame> out;
  out.exact = values->exact();
  if (out.exact) {
    out.source = "the exact solution of the " + lattice;
  } else if (values->refined()) {
    out.source =
        "the exact " + std::to_string(values->source_pitch_cm()) + " cm solution refined on the " +
        lattice + " (at most " + std::to_string(refinement.sweeps) + " sweeps" +
        (refinement == duel::kStrongRefinement ? ", as `strong` plays" : "") + "; approximate)";
  } else {
    out.source = "the exact " + std::to_string(values->source_pitch_cm()) +
                 " cm solution interpolated to the " + lattice + " (approximate)";
  }
  if (game.rules().turn_cap > 0) out.source += ", valued without the rules' turn cap";
  if (options.candidates_only) out.source += ", inside a turn over the candidate actions";
  out.value = [values, scope](const duel::DuelState& s) {
    return values->win_probability(s, scope);
  };
  return out;
}

AnalysisValue<pig::PigGame> analysis_value(const pig::PigGame& game,
                                           const AnalysisValueOptions& options) {
  if (!options.solution_file.empty()) {
    throw OptionError("--solution: Pig's analysis solves the game itself");
  }
  const std::shared_ptr<const pig::SolutionValue> values = GameValue<pig::PigGame>::make(game, {});
  AnalysisValue<pig::PigGame> out;
  out.exact = true;
  out.source = "the exact solution (goal " + std::to_string(game.goal()) + ")";
  out.value = [values](const pig::PigState& s) { return 0.5 * (1.0 + (*values)(s)); };
  return out;
}

AnalysisValue<danelaw::DanelawGame> analysis_value(const danelaw::DanelawGame& game,
                                                   const AnalysisValueOptions& options) {
  if (!options.solution_file.empty()) {
    throw OptionError(
        "--solution: danelaw has no exact solution; its analysis uses the value model");
  }
  AnalysisValue<danelaw::DanelawGame> out;
  out.exact = false;
  out.source = "the learned value model (approximate)";
  const auto value = std::make_shared<const danelaw::ModelValue>(game);
  out.value = [value](const danelaw::State& s) { return 0.5 * (1.0 + (*value)(s)); };
  return out;
}

}  // namespace sling
