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

// The features of the data's positions from `samples.size()` on, appended (each extracted once).
void append_samples(const TrainingData& data, std::vector<Sample>& samples);

class LinearValueFitter final : public ValueModelFitter {
 public:
  // Starts from `start`'s weights (the evaluator before the first fit).
  explicit LinearValueFitter(double l2, const ValueModel& start = ValueModel::embedded());
  void fit(const TrainingData& data) override;

 private:
  double l2_;
  std::vector<Sample> samples_;  // the features of the data's positions, extracted once each
};

}  // namespace sling::danelaw
