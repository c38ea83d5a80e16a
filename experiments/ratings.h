#pragma once
// Bradley–Terry ratings with a side-advantage term, on the Elo scale.
//
// Model: the agent on side 0 (rating r_a) scores against the agent on side 1 (rating r_b) with
// probability  P = 1 / (1 + 10^(-(r_a - r_b + h) / 400)),  where h is the advantage of side 0 in Elo
// (in the duel, David's and Goliath's chances differ, so h is not zero).  A draw counts as half a win
// (the game contributes 0.5 log P + 0.5 log (1 - P) to the log-likelihood).
//
// Fit: Newton's method on the log-likelihood, which is concave.  Agents that win or lose every game
// would have infinite maximum-likelihood ratings, so the fit adds `prior_draws` virtual drawn games
// between every pair of agents that met and `prior_draws` side-neutral virtual games for h (a weak
// prior that pulls towards "equal"; BayesElo does the same).  The ratings are then shifted to average
// zero.  Intervals come from the inverse Hessian (observed information): every rating, difference
// and the side advantage is a linear function of the fitted parameters, so its standard error is
// exact under the normal approximation.  The likelihood of superiority LOS(i, j) = Phi((r_i - r_j) /
// se(r_i - r_j)) is the posterior probability that i is truly stronger than j.

#include <map>
#include <string>
#include <vector>

namespace sling {

// One finished game: who played side 0 and side 1, and side 0's score (1 win, 0.5 draw, 0 loss).
struct RatedGame {
  int agent0 = 0;
  int agent1 = 0;
  double score0 = 0;
};

struct RatingOptions {
  double prior_draws = 1.0;   // virtual draws per pair of agents that met, and for the side term
  double confidence = 0.95;   // two-sided level of every interval
};

struct AgentRating {
  std::string name;
  double elo = 0;        // average of all agents is 0
  double stderr_elo = 0;
  double ci_low = 0;
  double ci_high = 0;
  int games = 0;
  double score = 0;      // points scored (draws as half)
};

struct RatingFit {
  std::vector<AgentRating> agents;           // in input order
  double side_advantage_elo = 0;             // h: side 0's advantage
  double side_advantage_stderr = 0;
  double side_advantage_ci_low = 0;
  double side_advantage_ci_high = 0;
  // Covariance of the (average-zero) ratings in Elo^2; index n is the side advantage.
  std::vector<std::vector<double>> covariance;
  int iterations = 0;

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
