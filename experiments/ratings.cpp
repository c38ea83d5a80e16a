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

namespace {

// log sigmoid(x) = -log(1 + e^-x), computed stably on both sides.
double log_sigmoid(double x) {
  return x > 0 ? -std::log1p(std::exp(-x)) : x - std::log1p(std::exp(x));
}

// The agents that played, in the order they first appear: compact[agent] is an agent's index
// among them (-1 when it never played), original[k] the agent of compact index k.
struct ActiveAgents {
  std::vector<int> compact;
  std::vector<int> original;
};

// Indexes the agents that played and counts each agent's games and score into fit.agents.
ActiveAgents index_active_agents(int n, const std::vector<RatedGame>& games, RatingFit& fit) {
  ActiveAgents active{std::vector<int>(n, -1), {}};
  for (const RatedGame& game : games) {
    if (game.agent0 < 0 || game.agent0 >= n || game.agent1 < 0 || game.agent1 >= n ||
        game.agent0 == game.agent1) {
      throw SlingError("rating fit: a game names an invalid pair of agents");
    }
    for (int agent : {game.agent0, game.agent1}) {
      if (active.compact[agent] < 0) {
        active.compact[agent] = static_cast<int>(active.original.size());
        active.original.push_back(agent);
      }
    }
    fit.agents[game.agent0].games += 1;
    fit.agents[game.agent1].games += 1;
    fit.agents[game.agent0].score += game.score0;
    fit.agents[game.agent1].score += 1.0 - game.score0;
  }
  return active;
}

// No game was played: every rating and the side term are unknown (infinite intervals).
void mark_unrated(int n, RatingFit& fit) {
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
}

// The likelihood's terms: the games aggregated into cells, then the prior's virtual draws
// between every pair of agents that met.
std::vector<Cell> likelihood_terms(const std::vector<RatedGame>& games,
                                   const std::vector<int>& compact, double prior_draws) {
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
  if (prior_draws > 0) {
    for (const auto& [key, unused] : met) {
      terms.push_back({key.first, key.second, false, prior_draws, prior_draws / 2});
    }
  }
  return terms;
}

// The Bradley–Terry model with a side term. Parameters: x_1 .. x_{active-1} (x_0 = 0) in natural
// units, then the side term h.
struct RatingModel {
  std::vector<Cell> terms;
  double prior_draws = 0;
  int m = 0;        // parameters: (active - 1) ratings + h
  int h_index = 0;  // m - 1

  static double rating_of(const std::vector<double>& t, int k) { return k == 0 ? 0.0 : t[k - 1]; }

  double log_likelihood(const std::vector<double>& t) const {
    double total = 0;
    for (const Cell& c : terms) {
      const double d =
          rating_of(t, c.first) - rating_of(t, c.second) + (c.uses_side_term ? t[h_index] : 0.0);
      total += c.score * log_sigmoid(d) + (c.weight - c.score) * log_sigmoid(-d);
    }
    if (prior_draws > 0) {
      const double h = t[h_index];
      total += prior_draws / 2 * (std::log(sigmoid(h)) + std::log(sigmoid(-h)));
    }
    return total;
  }

  void gradient_and_information(const std::vector<double>& t, std::vector<double>& gradient,
                                Matrix& information) const {
    gradient.assign(m, 0.0);
    information.assign(m, std::vector<double>(m, 0.0));
    for (const Cell& c : terms) add_term(t, c, gradient, information);
    if (prior_draws > 0) {
      const double p = sigmoid(t[h_index]);
      gradient[h_index] += prior_draws * (0.5 - p);
      information[h_index][h_index] += prior_draws * p * (1.0 - p);
    }
    // A vanishing ridge keeps the matrix invertible when some agents never met (disconnected
    // results); their intervals then come out enormous, which is the honest answer.
    for (int i = 0; i < m; ++i) information[i][i] += 1e-12;
  }

 private:
  void add_term(const std::vector<double>& t, const Cell& c, std::vector<double>& gradient,
                Matrix& information) const {
    const double d =
        rating_of(t, c.first) - rating_of(t, c.second) + (c.uses_side_term ? t[h_index] : 0.0);
    const double p = sigmoid(d);
    const double g = c.score - c.weight * p;
    const double w = c.weight * p * (1.0 - p);
    // d(d)/d(param): +1 for a's rating, -1 for b's rating, +1 for h.
    int index[3];
    double sign[3];
    int count = 0;
    if (c.first != 0) index[count] = c.first - 1, sign[count++] = 1.0;
    if (c.second != 0) index[count] = c.second - 1, sign[count++] = -1.0;
    if (c.uses_side_term) index[count] = h_index, sign[count++] = 1.0;
    for (int i = 0; i < count; ++i) {
      gradient[index[i]] += sign[i] * g;
      for (int j = 0; j < count; ++j) information[index[i]][index[j]] += sign[i] * sign[j] * w;
    }
  }
};

// Newton's method with step halving from theta (the log-likelihood is concave, so this
// converges); returns the iterations taken.
int maximise_likelihood(const RatingModel& model, std::vector<double>& theta) {
  const int m = model.m;
  std::vector<double> gradient;
  Matrix information;
  double current = model.log_likelihood(theta);
  int iterations = 0;
  for (; iterations < 200; ++iterations) {
    model.gradient_and_information(theta, gradient, information);
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
      const double value = model.log_likelihood(trial);
      if (value >= current - 1e-12) {
        current = value;
        break;
      }
    }
    theta = trial;
  }
  return iterations;
}

// With a separated result (an agent, or a side, that won all or none of its games) the estimate
// is set by the prior, not by the data; the sandwich would then only measure how steady that
// prior-made value is, so such fits keep the model interval, which shows how little the data pin
// it down.
bool is_separated(const std::vector<RatedGame>& games, const RatingFit& fit) {
  bool separated = false;
  double side0_score = 0;
  for (const RatedGame& game : games) side0_score += game.score0;
  separated |= side0_score == 0 || side0_score == static_cast<double>(games.size());
  for (const AgentRating& rating : fit.agents) {
    separated |= rating.games > 0 && (rating.score == 0 || rating.score == rating.games);
  }
  return separated;
}

// The clustered (sandwich) covariance around the model's covariance sigma: each cluster's
// gradient contributions at the fit are summed, then sandwiched. Returns false, leaving sigma as
// it is, when there are too few clusters (at most 2m) for it to be steady.
bool sandwich_by_clusters(const std::vector<RatedGame>& games, const std::vector<int>& compact,
                          const RatingModel& model, const std::vector<double>& theta,
                          Matrix& sigma) {
  const int m = model.m;
  std::map<std::int64_t, std::vector<double>> cluster_scores;
  std::int64_t solo = -1;
  for (const RatedGame& game : games) {
    const int a = compact[game.agent0], b = compact[game.agent1];
    const double d =
        RatingModel::rating_of(theta, a) - RatingModel::rating_of(theta, b) + theta[model.h_index];
    const double residual = game.score0 - sigmoid(d);
    const std::int64_t key = game.cluster >= 0 ? game.cluster : std::int64_t{-2} - (++solo);
    std::vector<double>& u = cluster_scores[key];
    if (u.empty()) u.assign(m, 0.0);
    if (a != 0) u[a - 1] += residual;
    if (b != 0) u[b - 1] -= residual;
    u[model.h_index] += residual;
  }
  const auto clusters = static_cast<double>(cluster_scores.size());
  if (!(clusters > 2.0 * m)) return false;
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
  return true;
}

// The covariance carried through the shift to average zero over the agents that played, in Elo:
// y = A theta with y_k = x_k - mean(x) and the side term unchanged (row and column `active`).
Matrix centred_covariance_elo(const Matrix& sigma, int active, const RatingModel& model) {
  const int m = model.m;
  Matrix map(active + 1, std::vector<double>(m, 0.0));
  for (int k = 0; k < active; ++k) {
    for (int p = 1; p < active; ++p) map[k][p - 1] = (k == p ? 1.0 : 0.0) - 1.0 / active;
  }
  map[active][model.h_index] = 1.0;
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
  return mapped;
}

// Writes the ratings (averaging zero over the agents that played), the side advantage, their
// covariance in the names' order and their intervals into fit.
void store_ratings(const std::vector<int>& compact, const std::vector<double>& theta,
                   const Matrix& mapped, const RatingModel& model, double confidence,
                   RatingFit& fit) {
  const int n = static_cast<int>(compact.size());
  const int active = static_cast<int>(mapped.size()) - 1;
  double mean = 0;
  for (int k = 0; k < active; ++k) mean += RatingModel::rating_of(theta, k);
  mean /= std::max(active, 1);

  const double z = normal_quantile(0.5 + confidence / 2);
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
    rating.elo = (RatingModel::rating_of(theta, compact[i]) - mean) / kNaturalPerElo;
    for (int j = 0; j < n; ++j) {
      if (compact[j] >= 0) fit.covariance[i][j] = mapped[compact[i]][compact[j]];
    }
    fit.covariance[i][n] = fit.covariance[n][i] = mapped[compact[i]][active];
    rating.stderr_elo = std::sqrt(std::max(fit.covariance[i][i], 0.0));
    rating.ci_low = rating.elo - z * rating.stderr_elo;
    rating.ci_high = rating.elo + z * rating.stderr_elo;
  }
  fit.covariance[n][n] = mapped[active][active];
  fit.side_advantage_elo = theta[model.h_index] / kNaturalPerElo;
  fit.side_advantage_stderr = std::sqrt(std::max(fit.covariance[n][n], 0.0));
  fit.side_advantage_ci_low = fit.side_advantage_elo - z * fit.side_advantage_stderr;
  fit.side_advantage_ci_high = fit.side_advantage_elo + z * fit.side_advantage_stderr;
}

}  // namespace

RatingFit fit_ratings(const std::vector<std::string>& names, const std::vector<RatedGame>& games,
                      const RatingOptions& options) {
  const int n = static_cast<int>(names.size());
  if (n == 0) throw SlingError("rating fit: no agents");
  RatingFit fit;
  fit.agents.resize(n);
  for (int i = 0; i < n; ++i) fit.agents[i].name = names[i];

  // 1. Agents that played get a compact index; the first of them anchors the scale while fitting.
  const ActiveAgents agents = index_active_agents(n, games, fit);
  const int active = static_cast<int>(agents.original.size());
  if (active == 0) {
    mark_unrated(n, fit);
    return fit;
  }

  // 2. The model: the games aggregated into cells, and the prior's virtual draws.
  RatingModel model;
  model.terms = likelihood_terms(games, agents.compact, options.prior_draws);
  model.prior_draws = options.prior_draws;
  model.m = active;
  model.h_index = model.m - 1;

  // 3. The maximum-likelihood ratings.
  std::vector<double> theta(model.m, 0.0);
  fit.iterations = maximise_likelihood(model, theta);

  // 4. Their covariance: the model's, or clustered when asked for and the result not separated;
  // then shifted to average zero over the agents that played.
  std::vector<double> gradient;
  Matrix information;
  model.gradient_and_information(theta, gradient, information);
  Matrix sigma = invert(information);
  fit.intervals = IntervalMethod::kModel;
  if (options.intervals == IntervalMethod::kClustered && !is_separated(games, fit) &&
      sandwich_by_clusters(games, agents.compact, model, theta, sigma)) {
    fit.intervals = IntervalMethod::kClustered;
  }
  store_ratings(agents.compact, theta, centred_covariance_elo(sigma, active, model), model,
                options.confidence, fit);
  return fit;
}

}  // namespace sling
