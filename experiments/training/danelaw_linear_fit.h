#pragma once
// The fitter of danelaw's learned value model (solvers/danelaw/value_model.h): a logistic
// regression of the game's result on a position's features, by Newton's method with a small L2
// penalty on every weight but the bias.  One ValueFitter among others (danelaw_training_data.h).

#include <memory>
#include <vector>

#include "engine/danelaw/danelaw.h"
#include "experiments/training/danelaw_training_data.h"
#include "solvers/danelaw/value_model.h"

namespace sling::danelaw {

// One labelled position, as the linear model reads it.
struct Sample {
  Features features{};
  TownMasks towns;  // read only by a fit with town terms
  bool danes_won = false;
  bool held_out = false;
  int game = 0;        // the game it came from (its positions are consecutive, in play order)
  double target = -1;  // P(the Danes win) to fit toward; below 0: the game's result
};

// TD(lambda) targets, as TD-Gammon learnt: each position's target mixes the game's result with
// `bootstrap`'s value of the positions after it, target_i = (1 - lambda) V(s_i+1) +
// lambda target_i+1, the last position's target the result.  lambda = 1 is the result alone.
// The result alone teaches what the champion's own choices predict, which a planner that
// compares choices reads as what they cause; values of the next positions carry the champion's
// judgement of the choices it did not make (docs/results/danelaw-training).
void set_td_targets(std::vector<Sample>& samples, const ValueModel& bootstrap, double lambda);

// Positions at the start of each half-turn of one game, replayed from its history.
void collect_samples(const DanelawGame& game, const std::vector<Action>& history, bool danes_won,
                     bool held_out, std::vector<Sample>& out);

// Logistic regression on the samples that are not held out: the features' weights, then, with
// `towns` > 0, a weight for each of the first `towns` towns held and one for each garrisoned.
std::vector<double> fit_logistic(const std::vector<Sample>& samples, double l2, int towns = 0);

// Mean log loss and calibration (ten bands of predicted probability) on the held-out samples.
double held_out_log_loss(const ValueModel& model, const std::vector<Sample>& samples);
std::vector<CalibrationBin> calibration(const ValueModel& model, const std::vector<Sample>& samples,
                                        int bins = 10);

// The features of the data's positions from `samples.size()` on, appended (each extracted once).
void append_samples(const TrainingData& data, std::vector<Sample>& samples);

class LinearValueFitter final : public ValueModelFitter {
 public:
  // Starts from `start`'s weights (the evaluator before the first fit).  With `town_terms` the
  // fitted model has the terms of single towns of the data's map (TownTerms).
  // With `td_lambda` below 1 it fits TD(lambda) targets bootstrapped from the model before the
  // fit (`start` at the first: the champion, or the model the games were played with).
  explicit LinearValueFitter(double l2, const ValueModel& start = ValueModel::embedded(),
                             bool town_terms = false, double td_lambda = 1);
  void fit(const TrainingData& data) override;

 private:
  double l2_;
  bool town_terms_;
  double td_lambda_;
  std::vector<Sample> samples_;  // the features of the data's positions, extracted once each
};

}  // namespace sling::danelaw
