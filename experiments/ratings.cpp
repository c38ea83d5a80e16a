#include "experiments/ratings.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "engine/core/errors.h"

namespace sling {

namespace {

// Natural-log units per Elo point: P = sigmoid(kNaturalPerElo * elo_difference).
const double kNaturalPerElo = std::log(10.0) / 400.0;

double sigmoid(double x) {
  return 1.0 / (1.0 + std::exp(-x));
}

using Matrix = std::vector<std::vector<double>>;

// Inverts a symmetric positive-definite matrix by Gauss–Jordan elimination with partial pivoting.
// The matrices here are tiny (one row per agent), so clarity beats speed.
Matrix invert(Matrix a) {
  const std::size_t n = a.size();
  Matrix inverse(n, std::vector<double>(n, 0.0));
  for (std::size_t i = 0; i < n; ++i) inverse[i][i] = 1.0;
  for (std::size_t column = 0; column < n; ++column) {
    std::size_t pivot = column;
    for (std::size_t row = column + 1; row < n; ++row) {
      if (std::abs(a[row][column]) > std::abs(a[pivot][column])) pivot = row;
    }
    std::swap(a[column], a[pivot]);
    std::swap(inverse[column], inverse[pivot]);
    const double scale = a[column][column];
    if (std::abs(scale) < 1e-300) throw SlingError("rating fit: singular information matrix");
    for (std::size_t k = 0; k < n; ++k) {
      a[column][k] /= scale;
      inverse[column][k] /= scale;
    }
    for (std::size_t row = 0; row < n; ++row) {
      if (row == column || a[row][column] == 0.0) continue;
      const double factor = a[row][column];
      for (std::size_t k = 0; k < n; ++k) {
        a[row][k] -= factor * a[column][k];
        inverse[row][k] -= factor * inverse[column][k];
      }
    }
  }
  return inverse;
}

// Games aggregated by (side-0 agent, side-1 agent) in the compact index of agents that played.
struct Cell {
  int first = 0;
  int second = 0;
  bool uses_side_term = true;
  double weight = 0;  // games
  double score = 0;   // points scored by `first`
};

}  // namespace

double elo_to_score(double elo_difference) {
  return sigmoid(kNaturalPerElo * elo_difference);
}

double score_to_elo(double score) {
  return std::log(score / (1.0 - score)) / kNaturalPerElo;
}

double normal_cdf(double x) {
  return 0.5 * std::erfc(-x / std::sqrt(2.0));
}

double normal_quantile(double p) {
  if (!(p > 0.0 && p < 1.0)) throw SlingError("normal_quantile: p must be in (0, 1)");
  double low = -40.0, high = 40.0;
  for (int i = 0; i < 200; ++i) {
    const double mid = 0.5 * (low + high);
    (normal_cdf(mid) < p ? low : high) = mid;
  }
  return 0.5 * (low + high);
}

double RatingFit::difference_stderr(int i, int j) const {
  const double variance = covariance[i][i] + covariance[j][j] - 2.0 * covariance[i][j];
  return std::sqrt(std::max(variance, 0.0));
}

double RatingFit::likelihood_of_superiority(int i, int j) const {
  const double difference = agents[i].elo - agents[j].elo;
  const double se = difference_stderr(i, j);
  if (!(se > 0.0) || !std::isfinite(se)) return difference > 0 ? 1.0 : (difference < 0 ? 0.0 : 0.5);
  return normal_cdf(difference / se);
}

RatingFit fit_ratings(const std::vector<std::string>& names, const std::vector<RatedGame>& games,
                      const RatingOptions& options) {
  const int n = static_cast<int>(names.size());
  if (n == 0) throw SlingError("rating fit: no agents");
  RatingFit fit;
  fit.agents.resize(n);
  for (int i = 0; i < n; ++i) fit.agents[i].name = names[i];

  // 1. Agents that played get a compact index; the first of them anchors the scale while fitting.
  std::vector<int> compact(n, -1);
  std::vector<int> original;
  for (const RatedGame& game : games) {
    if (game.agent0 < 0 || game.agent0 >= n || game.agent1 < 0 || game.agent1 >= n ||
        game.agent0 == game.agent1) {
      throw SlingError("rating fit: a game names an invalid pair of agents");
    }
    for (int agent : {game.agent0, game.agent1}) {
      if (compact[agent] < 0) {
        compact[agent] = static_cast<int>(original.size());
        original.push_back(agent);
      }
    }
    fit.agents[game.agent0].games += 1;
    fit.agents[game.agent1].games += 1;
    fit.agents[game.agent0].score += game.score0;
    fit.agents[game.agent1].score += 1.0 - game.score0;
  }
  const int active = static_cast<int>(original.size());
  if (active == 0) {
    fit.covariance.assign(n + 1, std::vector<double>(n + 1, 0.0));
    const double infinity = std::numeric_limits<double>::infinity();
    for (int i = 0; i <= n; ++i) fit.covariance[i][i] = infinity;
    for (AgentRating& rating : fit.agents) {
      rating.stderr_elo = infinity;
      rating.ci_low = -infinity;
      rating.ci_high = infinity;
    }
    fit.side_advantage_stderr = infinity;
    fit.side_advantage_ci_low = -infinity;
    fit.side_advantage_ci_high = infinity;
    return fit;
  }

  // 2. Aggregate into cells, and add the prior's virtual draws.
  std::map<std::pair<int, int>, Cell> cells;
  std::map<std::pair<int, int>, bool> met;
  for (const RatedGame& game : games) {
    const int a = compact[game.agent0], b = compact[game.agent1];
    Cell& cell = cells[{a, b}];
    cell.first = a;
    cell.second = b;
    cell.weight += 1.0;
    cell.score += game.score0;
    met[{std::min(a, b), std::max(a, b)}] = true;
  }
  std::vector<Cell> terms;
  for (const auto& [key, cell] : cells) terms.push_back(cell);
  if (options.prior_draws > 0) {
    for (const auto& [key, unused] : met) {
      terms.push_back({key.first, key.second, false, options.prior_draws, options.prior_draws / 2});
    }
  }

  // Parameters: x_1 .. x_{active-1} (x_0 = 0) in natural units, then the side term h.
  const int m = active;  // (active - 1) ratings + h
  std::vector<double> theta(m, 0.0);
  auto rating_of = [&](const std::vector<double>& t, int k) { return k == 0 ? 0.0 : t[k - 1]; };
  const int h_index = m - 1;
  auto log_likelihood = [&](const std::vector<double>& t) {
    double total = 0;
    for (const Cell& c : terms) {
      const double d =
          rating_of(t, c.first) - rating_of(t, c.second) + (c.uses_side_term ? t[h_index] : 0.0);
      // log sigmoid(d) = -log(1 + e^-d), computed stably on both sides.
      auto log_sigmoid = [](double x) {
        return x > 0 ? -std::log1p(std::exp(-x)) : x - std::log1p(std::exp(x));
      };
      total += c.score * log_sigmoid(d) + (c.weight - c.score) * log_sigmoid(-d);
    }
    if (options.prior_draws > 0) {
      const double h = t[h_index];
      total += options.prior_draws / 2 * (std::log(sigmoid(h)) + std::log(sigmoid(-h)));
    }
    return total;
  };
  auto gradient_and_information = [&](const std::vector<double>& t, std::vector<double>& gradient,
                                      Matrix& information) {
    gradient.assign(m, 0.0);
    information.assign(m, std::vector<double>(m, 0.0));
    auto add = [&](int index_a, int index_b, bool side, double weight, double score) {
      const double d = rating_of(t, index_a) - rating_of(t, index_b) + (side ? t[h_index] : 0.0);
      const double p = sigmoid(d);
      const double g = score - weight * p;
      const double w = weight * p * (1.0 - p);
      // d(d)/d(param): +1 for a's rating, -1 for b's rating, +1 for h.
      int index[3];
      double sign[3];
      int count = 0;
      if (index_a != 0) index[count] = index_a - 1, sign[count++] = 1.0;
      if (index_b != 0) index[count] = index_b - 1, sign[count++] = -1.0;
      if (side) index[count] = h_index, sign[count++] = 1.0;
      for (int i = 0; i < count; ++i) {
        gradient[index[i]] += sign[i] * g;
        for (int j = 0; j < count; ++j) information[index[i]][index[j]] += sign[i] * sign[j] * w;
      }
    };
    for (const Cell& c : terms) add(c.first, c.second, c.uses_side_term, c.weight, c.score);
    if (options.prior_draws > 0) {
      const double p = sigmoid(t[h_index]);
      gradient[h_index] += options.prior_draws * (0.5 - p);
      information[h_index][h_index] += options.prior_draws * p * (1.0 - p);
    }
    // A vanishing ridge keeps the matrix invertible when some agents never met (disconnected
    // results); their intervals then come out enormous, which is the honest answer.
    for (int i = 0; i < m; ++i) information[i][i] += 1e-12;
  };

  // 3. Newton's method with step halving (the log-likelihood is concave, so this converges).
  std::vector<double> gradient;
  Matrix information;
  double current = log_likelihood(theta);
  for (fit.iterations = 0; fit.iterations < 200; ++fit.iterations) {
    gradient_and_information(theta, gradient, information);
    const Matrix inverse = invert(information);
    std::vector<double> step(m, 0.0);
    double largest = 0;
    for (int i = 0; i < m; ++i) {
      for (int j = 0; j < m; ++j) step[i] += inverse[i][j] * gradient[j];
      largest = std::max(largest, std::abs(step[i]));
    }
    if (largest < 1e-10) break;
    double fraction = 1.0;
    std::vector<double> trial(m);
    for (int halvings = 0; halvings < 60; ++halvings, fraction /= 2) {
      for (int i = 0; i < m; ++i) trial[i] = theta[i] + fraction * step[i];
      const double value = log_likelihood(trial);
      if (value >= current - 1e-12) {
        current = value;
        break;
      }
    }
    theta = trial;
  }

  // 4. Shift to average zero over the agents that played, and carry the covariance through the
  // same linear map: y = A theta with y_k = x_k - mean(x) and the side term unchanged.
  gradient_and_information(theta, gradient, information);
  Matrix sigma = invert(information);
  fit.intervals = IntervalMethod::kModel;
  // With a separated result (an agent, or a side, that won all or none of its games) the estimate
  // is set by the prior, not by the data; the sandwich would then only measure how steady that
  // prior-made value is, so such fits keep the model interval, which shows how little the data
  // pin it down.
  bool separated = false;
  double side0_score = 0;
  for (const RatedGame& game : games) side0_score += game.score0;
  separated |= side0_score == 0 || side0_score == static_cast<double>(games.size());
  for (const AgentRating& rating : fit.agents) {
    separated |= rating.games > 0 && (rating.score == 0 || rating.score == rating.games);
  }
  if (options.intervals == IntervalMethod::kClustered && !separated) {
    // Sum each cluster's gradient contributions at the fit, then sandwich.
    std::map<std::int64_t, std::vector<double>> cluster_scores;
    std::int64_t solo = -1;
    for (const RatedGame& game : games) {
      const int a = compact[game.agent0], b = compact[game.agent1];
      const double d = rating_of(theta, a) - rating_of(theta, b) + theta[h_index];
      const double residual = game.score0 - sigmoid(d);
      const std::int64_t key = game.cluster >= 0 ? game.cluster : std::int64_t{-2} - (++solo);
      std::vector<double>& u = cluster_scores[key];
      if (u.empty()) u.assign(m, 0.0);
      if (a != 0) u[a - 1] += residual;
      if (b != 0) u[b - 1] -= residual;
      u[h_index] += residual;
    }
    const auto clusters = static_cast<double>(cluster_scores.size());
    if (clusters > 2.0 * m) {
      Matrix meat(m, std::vector<double>(m, 0.0));
      for (const auto& [key, u] : cluster_scores) {
        for (int i = 0; i < m; ++i) {
          for (int j = 0; j < m; ++j) meat[i][j] += u[i] * u[j];
        }
      }
      const double correction = clusters / (clusters - m);
      Matrix sandwich(m, std::vector<double>(m, 0.0));
      for (int i = 0; i < m; ++i) {
        for (int j = 0; j < m; ++j) {
          double sum = 0;
          for (int p = 0; p < m; ++p) {
            for (int q = 0; q < m; ++q) sum += sigma[i][p] * meat[p][q] * sigma[q][j];
          }
          sandwich[i][j] = correction * sum;
        }
      }
      sigma = std::move(sandwich);
      fit.intervals = IntervalMethod::kClustered;
    }
  }
  Matrix map(active + 1, std::vector<double>(m, 0.0));
  for (int k = 0; k < active; ++k) {
    for (int p = 1; p < active; ++p) map[k][p - 1] = (k == p ? 1.0 : 0.0) - 1.0 / active;
  }
  map[active][h_index] = 1.0;
  Matrix mapped(active + 1, std::vector<double>(active + 1, 0.0));
  for (int i = 0; i <= active; ++i) {
    for (int j = 0; j <= active; ++j) {
      double sum = 0;
      for (int p = 0; p < m; ++p) {
        if (map[i][p] == 0.0) continue;
        for (int q = 0; q < m; ++q) sum += map[i][p] * sigma[p][q] * map[j][q];
      }
      mapped[i][j] = sum / (kNaturalPerElo * kNaturalPerElo);
    }
  }
  double mean = 0;
  for (int k = 0; k < active; ++k) mean += rating_of(theta, k);
  mean /= std::max(active, 1);

  const double z = normal_quantile(0.5 + options.confidence / 2);
  const double infinity = std::numeric_limits<double>::infinity();
  fit.covariance.assign(n + 1, std::vector<double>(n + 1, 0.0));
  for (int i = 0; i < n; ++i) {
    AgentRating& rating = fit.agents[i];
    if (compact[i] < 0) {
      rating.stderr_elo = infinity;
      rating.ci_low = -infinity;
      rating.ci_high = infinity;
      fit.covariance[i][i] = infinity;
      continue;
    }
    rating.elo = (rating_of(theta, compact[i]) - mean) / kNaturalPerElo;
    for (int j = 0; j < n; ++j) {
      if (compact[j] >= 0) fit.covariance[i][j] = mapped[compact[i]][compact[j]];
    }
    fit.covariance[i][n] = fit.covariance[n][i] = mapped[compact[i]][active];
    rating.stderr_elo = std::sqrt(std::max(fit.covariance[i][i], 0.0));
    rating.ci_low = rating.elo - z * rating.stderr_elo;
    rating.ci_high = rating.elo + z * rating.stderr_elo;
  }
  fit.covariance[n][n] = mapped[active][active];
  fit.side_advantage_elo = theta[h_index] / kNaturalPerElo;
  fit.side_advantage_stderr = std::sqrt(std::max(fit.covariance[n][n], 0.0));
  fit.side_advantage_ci_low = fit.side_advantage_elo - z * fit.side_advantage_stderr;
  fit.side_advantage_ci_high = fit.side_advantage_elo + z * fit.side_advantage_stderr;
  return fit;
}

}  // namespace sling
