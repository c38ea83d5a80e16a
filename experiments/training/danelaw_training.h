#pragma once
// Fitting danelaw's value model from self-play (`sling train danelaw`).
//
// Iteration 0 plays the heuristic against itself; each later iteration plays the planner, scoring
// with the model fitted so far, against itself.  Every game contributes the positions at the start
// of each half-turn (the positions the planner scores), labelled with the game's result.  After
// each iteration a logistic regression (Newton's method with a small L2 penalty) is fitted on all
// positions so far, holding out every fifth game to measure log loss and calibration.

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "engine/danelaw/danelaw.h"
#include "solvers/danelaw/value_model.h"

namespace sling::danelaw {

struct TrainingOptions {
  int games = 1000;    // per iteration
  int iterations = 2;  // 1 = heuristic self-play only
  std::uint64_t seed = 1;
  int threads = 0;  // 0 = every core
  // The agent of iterations 1 and later; it scores with the model of the previous iteration.
  std::string planner = "planner:plans=8,samples=2,battle=2";
  // Also play rule variants where the Danes win more often (+10 Danes; 11 towns needed), a game
  // in three each.  Default-rules games alone hold few Danish wins to learn from; the features
  // are scaled by the rules (towns needed, pool, turn limit), so what is learnt carries over.
  bool mixed_rules = false;
  std::string command;  // recorded in the model
  double l2 = 1e-3;     // penalty per position on every weight but the bias
};

// One labelled position.
struct Sample {
  Features features;
  bool danes_won = false;
  bool held_out = false;
};

// Positions at the start of each half-turn of one game, replayed from its history.
void collect_samples(const DanelawGame& game, const std::vector<Action>& history, bool danes_won,
                     bool held_out, std::vector<Sample>& out);

// Logistic regression on the samples that are not held out.
std::vector<double> fit_logistic(const std::vector<Sample>& samples, double l2);

// Mean log loss and calibration (ten bands of predicted probability) on the held-out samples.
double held_out_log_loss(const ValueModel& model, const std::vector<Sample>& samples);
std::vector<CalibrationBin> calibration(const ValueModel& model, const std::vector<Sample>& samples,
                                        int bins = 10);

// Plays and fits; `progress` receives one line per stage.
ValueModel train_value_model(const DanelawGame& game, const TrainingOptions& options,
                             const std::function<void(const std::string&)>& progress);

}  // namespace sling::danelaw
