#pragma once
// A fitter of danelaw's value model with hidden units (solvers/danelaw/value_model.h): the
// logistic model of the features plus a layer of tanh units over the same features, so that the
// evaluation can weigh features by each other (towns held by turns left, reach by the pools),
// which the linear model cannot.  It starts from the logistic fit (the network then equals the
// linear model) and trains every weight together by Adam on the log loss, full batch, with the
// same L2 penalty on every weight but the bias.  Deterministic: the starting weights of the
// hidden units come from the seed, and the sums run in one fixed order.

#include <cstdint>
#include <memory>
#include <vector>

#include "experiments/training/danelaw_linear_fit.h"
#include "experiments/training/danelaw_training_data.h"
#include "solvers/danelaw/value_model.h"

namespace sling::danelaw {

struct NetworkFitOptions {
  int hidden = 16;     // tanh units
  int epochs = 400;    // full-batch Adam steps
  double rate = 0.01;  // Adam's step size
  double l2 = 1e-3;    // per position, on every weight but the bias
  std::uint64_t seed = 1;
};

// Fits a network on the samples that are not held out; its linear part starts at `linear`.
ValueModel fit_network(const std::vector<Sample>& samples, const std::vector<double>& linear,
                       const NetworkFitOptions& options);

class NetworkValueFitter final : public ValueModelFitter {
 public:
  explicit NetworkValueFitter(const NetworkFitOptions& options,
                              const ValueModel& start = ValueModel::embedded());
  void fit(const TrainingData& data) override;

 private:
  NetworkFitOptions options_;
  std::vector<Sample> samples_;  // the features of the data's positions, extracted once each
};

// How `sling train danelaw` fits: a network of `hidden` tanh units, or the linear model when
// `hidden` is 0 (with single towns' terms when `town_terms`, and TD(lambda) targets when
// `td_lambda` < 1; a network has neither).
struct FitChoice {
  double l2 = 1e-3;
  int hidden = 0;
  std::uint64_t seed = 1;
  bool town_terms = false;
  double td_lambda = 1;
};
// The fitter of `choice`; the linear model's starts from (and bootstraps TD targets from) `start`.
std::unique_ptr<ValueModelFitter> make_model_fitter(
    const FitChoice& choice, const ValueModel& start = ValueModel::embedded());

}  // namespace sling::danelaw
