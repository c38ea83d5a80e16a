#include "experiments/sprt.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "engine/core/errors.h"
#include "experiments/ratings.h"

namespace sling {

namespace {

// Per-game score of each pentanomial outcome.
constexpr std::array<double, 5> kOutcomeScore = {0.0, 0.25, 0.5, 0.75, 1.0};
// Stands in for an outcome never observed, so that every hypothesis mean stays inside the support
// (otherwise the constrained maximum does not exist).  Its weight is negligible once pairs accrue.
constexpr double kUnseenCount = 1e-3;

// The maximum-likelihood distribution q with mean `target` given frequencies p:
// q_j = p_j / (1 + lambda (x_j - target)), with lambda solving sum_j q_j (x_j - target) = 0.
// Returns sum_j p_j log(q_j / p_j) = -sum_j p_j log(1 + lambda (x_j - target)).
double constrained_log_likelihood(const std::array<double, 5>& frequency, double target) {
  // The constraint function f(lambda) = sum_j p_j (x_j - t) / (1 + lambda (x_j - t)) decreases in
  // lambda on the interval where every denominator is positive.
  const double low = -1.0 / (kOutcomeScore[4] - target);
  const double high = 1.0 / (target - kOutcomeScore[0]);
  auto f = [&](double lambda) {
    double sum = 0;
    for (int j = 0; j < 5; ++j) {
      const double deviation = kOutcomeScore[j] - target;
      sum += frequency[j] * deviation / (1.0 + lambda * deviation);
    }
    return sum;
  };
  double a = low, b = high;
  for (int i = 0; i < 200 && b - a > 1e-15 * (1.0 + std::abs(a)); ++i) {
    const double mid = 0.5 * (a + b);
    (f(mid) > 0 ? a : b) = mid;
  }
  const double lambda = 0.5 * (a + b);
  double total = 0;
  for (int j = 0; j < 5; ++j) {
    total -= frequency[j] * std::log(1.0 + lambda * (kOutcomeScore[j] - target));
  }
  return total;
}

int outcome_index(double score_first, double score_second) {
  auto valid = [](double s) { return s == 0.0 || s == 0.5 || s == 1.0; };
  if (!valid(score_first) || !valid(score_second)) {
    throw SlingError("SPRT: a game score must be 0, 0.5 or 1");
  }
  return static_cast<int>(std::lround(2.0 * (score_first + score_second)));
}

}  // namespace

SprtParameters SprtParameters::parse(std::string_view text) {
  std::vector<double> values;
  std::string field;
  std::istringstream in{std::string(text)};
  while (std::getline(in, field, ',')) {
    try {
      std::size_t used = 0;
      const double value = std::stod(field, &used);
      if (used != field.size()) throw std::invalid_argument("trailing characters");
      values.push_back(value);
    } catch (const std::exception&) {
      throw OptionError("--sprt: '" + field + "' is not a number (expected elo0,elo1,alpha,beta)");
    }
  }
  if (values.size() != 4) {
    throw OptionError("--sprt: expected four numbers elo0,elo1,alpha,beta, got '" +
                      std::string(text) + "'");
  }
  SprtParameters parameters{values[0], values[1], values[2], values[3]};
  parameters.validate();
  return parameters;
}

void SprtParameters::validate() const {
  if (!(elo0 < elo1)) throw OptionError("--sprt: elo0 must be smaller than elo1");
  if (std::abs(elo0) > 1000 || std::abs(elo1) > 1000) {
    throw OptionError("--sprt: elo0 and elo1 must lie within [-1000, 1000]");
  }
  if (!(alpha > 0 && alpha < 0.5) || !(beta > 0 && beta < 0.5)) {
    throw OptionError("--sprt: alpha and beta must lie in (0, 0.5)");
  }
}

Sprt::Sprt(const SprtParameters& parameters)
    : parameters_(parameters),
      lower_bound_(std::log(parameters.beta / (1.0 - parameters.alpha))),
      upper_bound_(std::log((1.0 - parameters.beta) / parameters.alpha)) {
  parameters_.validate();
}

void Sprt::add_pair_result(double score_first, double score_second) {
  ++counts_[outcome_index(score_first, score_second)];
  ++pairs_;
}

void Sprt::add_pair_winners(int winner_a_on_side0, int winner_a_on_side1) {
  auto score = [](int winner, int side_of_a) {
    return winner < 0 ? 0.5 : (winner == side_of_a ? 1.0 : 0.0);
  };
  add_pair_result(score(winner_a_on_side0, 0), score(winner_a_on_side1, 1));
}

double Sprt::llr() const {
  if (pairs_ == 0) return 0.0;
  std::array<double, 5> frequency{};
  double total = 0;
  for (int j = 0; j < 5; ++j) {
    frequency[j] = counts_[j] > 0 ? static_cast<double>(counts_[j]) : kUnseenCount;
    total += frequency[j];
  }
  for (double& f : frequency) f /= total;
  const double s0 = elo_to_score(parameters_.elo0);
  const double s1 = elo_to_score(parameters_.elo1);
  return static_cast<double>(pairs_) *
         (constrained_log_likelihood(frequency, s1) - constrained_log_likelihood(frequency, s0));
}

SprtDecision Sprt::status() const {
  const double ratio = llr();
  if (ratio >= upper_bound_) return SprtDecision::kAcceptH1;
  if (ratio <= lower_bound_) return SprtDecision::kAcceptH0;
  return SprtDecision::kContinue;
}

double Sprt::score() const {
  if (pairs_ == 0) return 0.5;
  double sum = 0;
  for (int j = 0; j < 5; ++j) sum += static_cast<double>(counts_[j]) * kOutcomeScore[j];
  return sum / static_cast<double>(pairs_);
}

double Sprt::elo() const {
  const double s = std::clamp(score(), 1e-6, 1.0 - 1e-6);
  return score_to_elo(s);
}

double Sprt::elo_ci_halfwidth() const {
  if (pairs_ < 2) return std::numeric_limits<double>::infinity();
  const double mean = score();
  double variance = 0;
  for (int j = 0; j < 5; ++j) {
    variance += static_cast<double>(counts_[j]) * std::pow(kOutcomeScore[j] - mean, 2);
  }
  variance /= static_cast<double>(pairs_ - 1);
  const double se = std::sqrt(variance / static_cast<double>(pairs_));
  const double low = std::clamp(mean - 1.959963984540054 * se, 1e-6, 1.0 - 1e-6);
  const double high = std::clamp(mean + 1.959963984540054 * se, 1e-6, 1.0 - 1e-6);
  return 0.5 * (score_to_elo(high) - score_to_elo(low));
}

std::string Sprt::summary() const {
  char buffer[256];
  std::snprintf(buffer, sizeof buffer,
                "SPRT [%g, %g] alpha %g beta %g: LLR %.2f (%.2f, %.2f) after %lld pairs "
                "[%lld %lld %lld %lld %lld], Elo %+.1f +/- %.1f: %s",
                parameters_.elo0, parameters_.elo1, parameters_.alpha, parameters_.beta, llr(),
                lower_bound_, upper_bound_, static_cast<long long>(pairs_),
                static_cast<long long>(counts_[0]), static_cast<long long>(counts_[1]),
                static_cast<long long>(counts_[2]), static_cast<long long>(counts_[3]),
                static_cast<long long>(counts_[4]), elo(), elo_ci_halfwidth(),
                to_string(status()).c_str());
  return buffer;
}

std::string to_string(SprtDecision decision) {
  switch (decision) {
    case SprtDecision::kAcceptH0:
      return "H0 accepted";
    case SprtDecision::kAcceptH1:
      return "H1 accepted";
    case SprtDecision::kContinue:
      break;
  }
  return "continue";
}

}  // namespace sling
