#include "experiments/training/danelaw_linear_fit.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "engine/core/errors.h"
#include "engine/core/game.h"

namespace sling::danelaw {

void collect_samples(const DanelawGame& game, const std::vector<Action>& history, bool danes_won,
                     bool held_out, std::vector<Sample>& out) {
  State s = game.initial_state();
  for (Action a : history) {
    if (s.phase == Phase::kMovementDice) {
      out.push_back({extract_features(game, s), town_masks(game, s), danes_won, held_out, 0, -1});
    }
    apply_any(game, s, a);
  }
}

namespace {

double sigmoid(double z) {
  return 1.0 / (1.0 + std::exp(-std::clamp(z, -40.0, 40.0)));
}

// The regression's inputs of a sample: its features, then its held and garrisoned towns' bits.
void inputs_of(const Sample& s, int towns, std::vector<double>& x) {
  std::copy(s.features.begin(), s.features.end(), x.begin());
  for (int t = 0; t < towns; ++t) {
    x[kFeatureCount + t] = static_cast<double>(s.towns.held >> t & 1u);
    x[kFeatureCount + towns + t] = static_cast<double>(s.towns.garrisoned >> t & 1u);
  }
}

// Solves the symmetric positive definite system a x = b (Cholesky); a is n x n row-major.
std::vector<double> solve_spd(std::vector<double> a, std::vector<double> b) {
  const int n = static_cast<int>(b.size());
  for (int j = 0; j < n; ++j) {
    double d = a[j * n + j];
    for (int k = 0; k < j; ++k) d -= a[j * n + k] * a[j * n + k];
    d = std::sqrt(std::max(d, 1e-12));
    a[j * n + j] = d;
    for (int i = j + 1; i < n; ++i) {
      double v = a[i * n + j];
      for (int k = 0; k < j; ++k) v -= a[i * n + k] * a[j * n + k];
      a[i * n + j] = v / d;
    }
  }
  for (int i = 0; i < n; ++i) {  // forward: L y = b
    for (int k = 0; k < i; ++k) b[i] -= a[i * n + k] * b[k];
    b[i] /= a[i * n + i];
  }
  for (int i = n - 1; i >= 0; --i) {  // backward: L^T x = y
    for (int k = i + 1; k < n; ++k) b[i] -= a[k * n + i] * b[k];
    b[i] /= a[i * n + i];
  }
  return b;
}

}  // namespace

std::vector<double> fit_logistic(const std::vector<Sample>& samples, double l2, int towns) {
  if (towns < 0 || towns > kMaxTowns) throw SlingError("danelaw training: bad town count");
  const int n = kFeatureCount + 2 * towns;
  std::vector<double> w(static_cast<std::size_t>(n), 0.0), x(static_cast<std::size_t>(n), 0.0);
  std::size_t count = 0;
  for (const Sample& s : samples) count += !s.held_out;
  if (count == 0) throw SlingError("danelaw training: no positions to fit");
  const double penalty = l2 * static_cast<double>(count);
  for (int iteration = 0; iteration < 50; ++iteration) {
    std::vector<double> gradient(n, 0.0), hessian(n * n, 0.0);
    for (const Sample& s : samples) {
      if (s.held_out) continue;
      inputs_of(s, towns, x);
      double z = 0;
      for (int i = 0; i < n; ++i) z += w[i] * x[i];
      const double p = sigmoid(z);
      const double r = p - (s.target >= 0 ? s.target : s.danes_won ? 1.0 : 0.0);
      const double h = std::max(p * (1 - p), 1e-9);
      for (int i = 0; i < n; ++i) {
        if (x[i] == 0) continue;  // town bits are mostly zero
        gradient[i] += r * x[i];
        for (int j = 0; j <= i; ++j) hessian[i * n + j] += h * x[i] * x[j];
      }
    }
    for (int i = 1; i < n; ++i) {  // the bias is not penalised
      gradient[i] += penalty * w[i];
      hessian[i * n + i] += penalty;
    }
    hessian[0] += 1e-9 * static_cast<double>(count);
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j < i; ++j) hessian[j * n + i] = hessian[i * n + j];
    }
    const std::vector<double> step = solve_spd(hessian, gradient);
    double largest = 0;
    for (int i = 0; i < n; ++i) {
      w[i] -= step[i];
      largest = std::max(largest, std::abs(step[i]));
    }
    if (largest < 1e-8) break;
  }
  return w;
}

double held_out_log_loss(const ValueModel& model, const std::vector<Sample>& samples) {
  double loss = 0;
  int count = 0;
  for (const Sample& s : samples) {
    if (!s.held_out) continue;
    const double p = std::clamp(model.probability(s.features, s.towns), 1e-12, 1 - 1e-12);
    loss -= std::log(s.danes_won ? p : 1 - p);
    ++count;
  }
  return count ? loss / count : 0.0;
}

std::vector<CalibrationBin> calibration(const ValueModel& model, const std::vector<Sample>& samples,
                                        int bins) {
  std::vector<CalibrationBin> out(static_cast<std::size_t>(bins));
  for (int b = 0; b < bins; ++b) {
    out[b].low = static_cast<double>(b) / bins;
    out[b].high = static_cast<double>(b + 1) / bins;
  }
  for (const Sample& s : samples) {
    if (!s.held_out) continue;
    const double p = model.probability(s.features, s.towns);
    const int b = std::min(bins - 1, static_cast<int>(p * bins));
    out[b].predicted += p;
    out[b].observed += s.danes_won;
    ++out[b].count;
  }
  for (CalibrationBin& b : out) {
    if (b.count) {
      b.predicted /= b.count;
      b.observed /= b.count;
    }
  }
  return out;
}

LinearValueFitter::LinearValueFitter(double l2, const ValueModel& start, bool town_terms,
                                     double td_lambda)
    : ValueModelFitter(start), l2_(l2), town_terms_(town_terms), td_lambda_(td_lambda) {}

void set_td_targets(std::vector<Sample>& samples, const ValueModel& bootstrap, double lambda) {
  for (std::size_t i = samples.size(); i-- > 0;) {
    Sample& s = samples[i];
    const bool last = i + 1 == samples.size() || samples[i + 1].game != s.game;
    if (last) {
      s.target = s.danes_won ? 1.0 : 0.0;
    } else {
      const Sample& next = samples[i + 1];
      s.target =
          (1 - lambda) * bootstrap.probability(next.features, next.towns) + lambda * next.target;
    }
  }
}

void append_samples(const TrainingData& data, std::vector<Sample>& samples) {
  for (std::size_t i = samples.size(); i < data.positions.size(); ++i) {
    const TrainingPosition& p = data.positions[i];
    const DanelawGame& game = data.variants[static_cast<std::size_t>(p.variant)];
    samples.push_back({extract_features(game, p.state), town_masks(game, p.state), p.danes_won,
                       p.held_out, p.game, -1});
  }
}

void LinearValueFitter::fit(const TrainingData& data) {
  append_samples(data, samples_);
  if (td_lambda_ < 1) set_td_targets(samples_, model(), td_lambda_);
  ValueModel fitted;
  if (!town_terms_) {
    fitted.weights = fit_logistic(samples_, l2_);
  } else {
    // Every rules variant of the data plays one map, so a town's bit means one town throughout.
    const HexMap& map = data.variants.front().map();
    for (const DanelawGame& variant : data.variants) {
      if (variant.map().content_hash() != map.content_hash()) {
        throw SlingError("danelaw training: town terms need every rules variant on one map");
      }
    }
    const int towns = static_cast<int>(map.towns().size());
    std::vector<double> w = fit_logistic(samples_, l2_, towns);
    fitted.weights.assign(w.begin(), w.begin() + kFeatureCount);
    TownTerms& terms = fitted.towns;
    terms.map_hash = map.content_hash();
    for (int t = 0; t < towns; ++t) {
      terms.names.push_back(map.towns()[static_cast<std::size_t>(t)].name);
      terms.held.push_back(w[static_cast<std::size_t>(kFeatureCount + t)]);
      terms.garrisoned.push_back(w[static_cast<std::size_t>(kFeatureCount + towns + t)]);
    }
  }
  set_model(std::move(fitted));
}

}  // namespace sling::danelaw
