#pragma once
// The sequential probability ratio test for a two-agent match played in pairs.
//
// A match tests H0: "agent A is elo0 stronger than B" against H1: "A is elo1 stronger" (logistic
// Elo, elo0 < elo1), with error rates alpha (accepting H1 when H0 holds) and beta (accepting H0
// when H1 holds).  Games come in pairs that share their dice (each agent plays each side once), so
// the unit of evidence is the pair: A's total over the two games is one of 0, 0.5, 1, 1.5, 2 (the
// pentanomial model).  Treating a pair as one observation keeps the correlation that the shared
// dice create inside the pair, which a per-game (trinomial) model would ignore.
//
// The log-likelihood ratio is the generalized one: under each hypothesis, the pentanomial
// distribution closest to the observed frequencies (maximum likelihood) whose mean score is that
// hypothesis's expected score.  The test stops when the ratio leaves (log(beta / (1 - alpha)),
// log((1 - beta) / alpha)) (Wald's bounds).

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace sling {

struct SprtParameters {
  double elo0 = 0;
  double elo1 = 5;
  double alpha = 0.05;
  double beta = 0.05;

  // Parses "elo0,elo1,alpha,beta" (e.g. "0,10,0.05,0.05"); throws OptionError on anything else.
  static SprtParameters parse(std::string_view text);
  void validate() const;
};

enum class SprtDecision { kContinue, kAcceptH0, kAcceptH1 };

class Sprt {
 public:
  explicit Sprt(const SprtParameters& parameters);

  // Adds one finished pair: agent A's score in each of its two games (each 0, 0.5 or 1).
  void add_pair_result(double score_first, double score_second);
  // The same from the winners (side index, -1 for a draw) of the pair's game where A played
  // side 0 and of the one where A played side 1.
  void add_pair_winners(int winner_a_on_side0, int winner_a_on_side1);

  SprtDecision status() const;
  double llr() const;
  double lower_bound() const { return lower_bound_; }
  double upper_bound() const { return upper_bound_; }
  std::int64_t pairs() const { return pairs_; }
  // Counts of pairs in which A scored 0, 0.5, 1, 1.5, 2 points.
  const std::array<std::int64_t, 5>& pentanomial() const { return counts_; }
  // A's mean score per game and its Elo equivalent with a 95% interval from the pair variance.
  double score() const;
  double elo() const;
  double elo_ci_halfwidth() const;
  // One line: "LLR 2.98 (-2.94, 2.94) after 120 pairs [3 10 40 47 20]: H1 accepted (elo1 = 10)".
  std::string summary() const;

  const SprtParameters& parameters() const { return parameters_; }

 private:
  SprtParameters parameters_;
  double lower_bound_;
  double upper_bound_;
  std::array<std::int64_t, 5> counts_{};
  std::int64_t pairs_ = 0;
};

std::string to_string(SprtDecision decision);

}  // namespace sling
