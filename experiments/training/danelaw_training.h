#pragma once
// Fitting danelaw's value model from self-play (`sling train danelaw`), in three steps an
// iteration: self-play (danelaw_self_play.h) writes labelled positions (danelaw_training_data.h),
// a fitter learns an evaluator from all the positions so far (ValueFitter; the logistic model of
// danelaw_linear_fit.h for `sling train`), and the next iteration's self-play scores with it.
//
// Iteration 0 plays the heuristic against itself; each later iteration plays the given agent,
// scoring with the evaluator fitted so far, against itself.  Every game contributes the positions
// at the start of each half-turn (the positions the planner scores), labelled with the game's
// result; every fifth game is held out to measure log loss and calibration.

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "engine/danelaw/danelaw.h"
#include "experiments/training/danelaw_linear_fit.h"
#include "experiments/training/danelaw_training_data.h"
#include "solvers/danelaw/value_model.h"

namespace sling::danelaw {

struct TrainingOptions {
  int games = 1000;    // per iteration
  int iterations = 2;  // 1 = heuristic self-play only
  std::uint64_t seed = 1;
  int threads = 0;  // 0 = every core
  // The agent of iterations 1 and later; it scores with the evaluator of the previous iteration
  // when it scores with the game's value function at all (UsesGameValue, agents/game_value.h).
  std::string planner = "planner:plans=8,samples=2,battle=2";
  // Also play rule variants where the Danes win more often (+10 Danes; 11 towns needed), a game
  // in three each.  Default-rules games alone hold few Danish wins to learn from; the features
  // are scaled by the rules (towns needed, pool, turn limit), so what is learnt carries over.
  bool mixed_rules = false;
  std::string command;      // recorded in the model
  double l2 = 1e-3;         // penalty per position on every weight but the bias
  int hidden = 0;           // hidden units of the fitted network (danelaw_network_fit.h); 0: linear
  bool town_terms = false;  // the linear model with the terms of single towns (TownTerms)
  double td_lambda = 1;     // below 1: TD(lambda) targets (set_td_targets); 1: the results
};

// How the last fit measures on the held-out positions.
struct TrainingSummary {
  int games = 0;
  int positions = 0;
  double log_loss = 0;
  std::vector<CalibrationBin> calibration;
};

// The self-play and fits of `options` with any fitter; `progress` receives one line per iteration.
TrainingSummary train_value(const DanelawGame& game, const TrainingOptions& options,
                            ValueFitter& fitter,
                            const std::function<void(const std::string&)>& progress);

// train_value with the fitter of `options.hidden` (the linear model, or a network): the model,
// with the command and seed that produced it.
ValueModel train_value_model(const DanelawGame& game, const TrainingOptions& options,
                             const std::function<void(const std::string&)>& progress);

}  // namespace sling::danelaw
