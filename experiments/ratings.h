#pragma once
// Bradley–Terry ratings with a side-advantage term, on the Elo scale.
//
// Model: the agent on side 0 (rating r_a) scores against the agent on side 1 (rating r_b) with
// probability  P = 1 / (1 + 10^(-(r_a - r_b + h) / 400)),  where h is the advantage of side 0 in
// Elo (in the duel, David's and Goliath's chances differ, so h is not zero).  A draw counts as half
// a win (the game contributes 0.5 log P + 0.5 log (1 - P) to the log-likelihood).
//
// Fit: Newton's method on the log-likelihood, which is concave.  Agents that win or lose every game
// would have infinite maximum-likelihood ratings, so the fit adds `prior_draws` virtual drawn games
// between every pair of agents that met and `prior_draws` side-neutral virtual games for h (a weak
// prior that pulls towards "equal"; BayesElo does the same).  The ratings are then shifted to
// average zero.
//
// Intervals (normal approximation).  kModel: the inverse Hessian (observed information), which
// assumes independent games with binomial scores.  kClustered: the sandwich H^-1 B H^-1 whose
// middle B sums the score (gradient) contributions of each cluster of games, here the two games of
// a pair. A tournament's pairs share their dice, which makes the two results of a pair dependent
// (luck cancels between them); the model interval ignores that and is too wide for agent
// differences, the clustered one measures the actual spread of the pair totals.  It is also right
// when draws make the score variance smaller than the binomial one.  With K clusters and m
// parameters it is scaled by K / (K - m) (the usual small-sample correction), and it falls back to
// kModel when K <= 2m. Every rating, difference and the side advantage is a linear function of the
// fitted parameters, so their standard errors follow exactly from the covariance.  The likelihood
// of superiority LOS(i, j) = Phi((r_i - r_j) / se(r_i - r_j)) is the probability that i is truly
// stronger than j.

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace sling {

// One finished game: who played side 0 and side 1, and side 0's score (1 win, 0.5 draw, 0 loss).
struct RatedGame {
  int agent0 = 0;
  int agent1 = 0;
  double score0 = 0;
  std::int64_t cluster = -1;  // games with the same cluster id are dependent (a pair); -1: alone
};

enum class IntervalMethod { kModel, kClustered };

struct RatingOptions {
  double prior_draws = 1.0;  // virtual draws per pair of agents that met, and for the side term
  double confidence = 0.95;  // two-sided level of every interval
  IntervalMethod intervals = IntervalMethod::kModel;
};

struct AgentRating {
  std::string name;
  double elo = 0;  // average of all agents is 0
  double stderr_elo = 0;
  double ci_low = 0;
  double ci_high = 0;
  int games = 0;
  double score = 0;  // points scored (draws as half)
};

struct RatingFit {
  std::vector<AgentRating> agents;  // in input order
  double side_advantage_elo = 0;    // h: side 0's advantage
  double side_advantage_stderr = 0;
  double side_advantage_ci_low = 0;
  double side_advantage_ci_high = 0;
  // Covariance of the (average-zero) ratings in Elo^2; index n is the side advantage.
  std::vector<std::vector<double>> covariance;
  int iterations = 0;
  IntervalMethod intervals = IntervalMethod::kModel;  // the method actually used

  double difference_stderr(int i, int j) const;
  // Probability that agent i is stronger than agent j (normal approximation).
  double likelihood_of_superiority(int i, int j) const;
};

// Fits the model; throws SlingError when there are no agents.  Agents without games get rating 0
// with an infinite interval.
RatingFit fit_ratings(const std::vector<std::string>& names, const std::vector<RatedGame>& games,
                      const RatingOptions& options = {});

// The expected score of a player `elo_difference` stronger (logistic Elo).
double elo_to_score(double elo_difference);
double score_to_elo(double score);
// Inverse of the standard normal CDF (for the interval half-widths).
double normal_quantile(double p);
double normal_cdf(double x);

}  // namespace sling
