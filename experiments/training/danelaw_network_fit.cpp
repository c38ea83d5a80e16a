#include "experiments/training/danelaw_network_fit.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "engine/core/errors.h"
#include "engine/core/random.h"

namespace sling::danelaw {

namespace {

constexpr int kF = kFeatureCount;

// Every trained weight in one vector: the linear weights, then each hidden unit's feature
// weights, then the output weights; Adam treats them alike.
struct Layout {
  int hidden;
  int size() const { return kF + hidden * kF + hidden; }
  int unit(int h) const { return kF + h * kF; }
  int out(int h) const { return kF + hidden * kF + h; }
};

// The mean log loss's gradient over the samples that are not held out, and the loss.
double gradient(const std::vector<Sample>& samples, const Layout& at, const std::vector<double>& w,
                std::vector<double>& g) {
  std::fill(g.begin(), g.end(), 0.0);
  std::vector<double> t(static_cast<std::size_t>(at.hidden));
  double loss = 0;
  int count = 0;
  for (const Sample& s : samples) {
    if (s.held_out) continue;
    const Features& f = s.features;
    double z = 0;
    for (int i = 0; i < kF; ++i) z += w[i] * f[i];
    for (int h = 0; h < at.hidden; ++h) {
      double a = 0;
      for (int i = 0; i < kF; ++i) a += w[at.unit(h) + i] * f[i];
      t[h] = std::tanh(a);
      z += w[at.out(h)] * t[h];
    }
    const double p = 1.0 / (1.0 + std::exp(-std::clamp(z, -40.0, 40.0)));
    const double y = s.danes_won ? 1.0 : 0.0;
    loss -= std::log(std::clamp(s.danes_won ? p : 1 - p, 1e-12, 1.0));
    const double r = p - y;
    for (int i = 0; i < kF; ++i) g[i] += r * f[i];
    for (int h = 0; h < at.hidden; ++h) {
      g[at.out(h)] += r * t[h];
      const double back = r * w[at.out(h)] * (1 - t[h] * t[h]);
      for (int i = 0; i < kF; ++i) g[at.unit(h) + i] += back * f[i];
    }
    ++count;
  }
  if (count == 0) throw SlingError("danelaw training: no positions to fit");
  for (double& x : g) x /= count;
  return loss / count;
}

}  // namespace

ValueModel fit_network(const std::vector<Sample>& samples, const std::vector<double>& linear,
                       const NetworkFitOptions& options) {
  if (options.hidden < 1 || options.hidden > kMaxHiddenUnits) {
    throw OptionError("danelaw training: hidden units must be 1 to " +
                      std::to_string(kMaxHiddenUnits));
  }
  const Layout at{options.hidden};
  std::vector<double> w(static_cast<std::size_t>(at.size()), 0.0);
  std::copy(linear.begin(), linear.end(), w.begin());
  // Small random feature weights and zero output weights: the first network is the linear fit.
  Rng rng(options.seed, 0x6e6574);
  for (int h = 0; h < at.hidden; ++h) {
    for (int i = 0; i < kF; ++i) w[at.unit(h) + i] = 0.6 * (rng.uniform01() - 0.5);
  }
  std::vector<double> g(w.size()), m(w.size(), 0.0), v(w.size(), 0.0);
  constexpr double kBeta1 = 0.9, kBeta2 = 0.999, kEpsilon = 1e-8;
  double decay1 = 1, decay2 = 1;
  for (int epoch = 0; epoch < options.epochs; ++epoch) {
    gradient(samples, at, w, g);
    decay1 *= kBeta1;
    decay2 *= kBeta2;
    for (std::size_t k = 0; k < w.size(); ++k) {
      if (k != feature::kBias) g[k] += options.l2 * w[k];
      m[k] = kBeta1 * m[k] + (1 - kBeta1) * g[k];
      v[k] = kBeta2 * v[k] + (1 - kBeta2) * g[k] * g[k];
      w[k] -= options.rate * (m[k] / (1 - decay1)) / (std::sqrt(v[k] / (1 - decay2)) + kEpsilon);
    }
  }
  ValueModel model;
  model.weights.assign(w.begin(), w.begin() + kF);
  for (int h = 0; h < at.hidden; ++h) {
    Features row{};
    for (int i = 0; i < kF; ++i) row[i] = w[at.unit(h) + i];
    model.hidden.push_back(row);
    model.output.push_back(w[at.out(h)]);
  }
  return model;
}

NetworkValueFitter::NetworkValueFitter(const NetworkFitOptions& options, const ValueModel& start)
    : ValueModelFitter(start), options_(options) {}

void NetworkValueFitter::fit(const TrainingData& data) {
  append_samples(data, samples_);
  set_model(fit_network(samples_, fit_logistic(samples_, options_.l2), options_));
}

std::unique_ptr<ValueModelFitter> make_model_fitter(const FitChoice& choice,
                                                    const ValueModel& start) {
  if (choice.hidden > 0 && (choice.town_terms || choice.td_lambda < 1)) {
    throw OptionError("--town-terms and --td-lambda fit the linear model: give no --hidden");
  }
  if (choice.td_lambda < 0 || choice.td_lambda > 1) {
    throw OptionError("--td-lambda must lie in [0, 1]");
  }
  if (choice.hidden == 0) {
    return std::make_unique<LinearValueFitter>(choice.l2, start, choice.town_terms,
                                               choice.td_lambda);
  }
  NetworkFitOptions options;
  options.hidden = choice.hidden;
  options.l2 = choice.l2;
  options.seed = choice.seed;
  return std::make_unique<NetworkValueFitter>(options);
}

}  // namespace sling::danelaw
