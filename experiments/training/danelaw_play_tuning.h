#pragma once
// Tuning danelaw's value model by play: SPSA (simultaneous perturbation stochastic approximation,
// Spall 1992), as chess engines tune their evaluation on games.  Each iteration draws a random
// sign for every tuned weight, plays the agent with the weights moved one way against the agent
// with them moved the other way in pairs of games on shared dice, and steps the weights along the
// signs in proportion to the score between the two.
//
// Why by play: a fit to results (danelaw_linear_fit.h) learns what goes with winning in the games
// played, and a search then steers towards it whether or not it causes the wins.  Fitted to
// self-play, the weight on Danes at sea turns positive; the candidate then keeps its armies at sea
// and loses 82 Elo to the model it was fitted from (docs/strength.md).  Tuning asks the one
// question the search needs answered, which weights win games, at the price of many games per step.
//
// Only the linear weights are tuned, the bias excepted: a constant added to every position's
// score moves no comparison between two of them, which is all a search does with it.  A network's
// units and town terms are left as they are (hundreds of weights need far more games than SPSA's
// one result per iteration gives them).

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "engine/danelaw/danelaw.h"
#include "solvers/danelaw/value_model.h"

namespace sling::danelaw {

struct PlayTuningOptions {
  int iterations = 0;  // 0: no tuning
  int pairs = 16;      // pairs of games an iteration (both sides, shared dice)
  // Each tuned weight moves by +/- perturbation at the first iteration, by perturbation / k^0.101
  // at the k-th (Spall's exponents).  Half a unit of a feature scaled to [0, 1] is a change a
  // game can feel: moving every weight of the embedded model by 0.6 at random cost 18 to 58 Elo.
  double perturbation = 0.5;
  // The first iteration's step for a score gap of one point a game; later steps shrink as
  // ((A + 1) / (A + k))^0.602 with A a tenth of the iterations (Spall's rule for the stability
  // constant).  0.2 took the from-zero champion to the embedded model's level in one generation of
  // 300 iterations of 16 pairs (docs/results/danelaw-tuning).
  double rate = 0.2;
  // Throws OptionError for a setting out of range.
  void validate() const;
};

// Iteration k's (1-based) perturbation size and gain.
double spsa_perturbation(const PlayTuningOptions& options, int iteration);
double spsa_gain(const PlayTuningOptions& options, int iteration);

// Iteration k's signs: 0 for the bias (weight 0), +1 or -1 for every other weight; a pure
// function of the seed and k.
std::vector<double> spsa_signs(std::uint64_t seed, int iteration, std::size_t weights);

// `weights` after iteration k, whose plus side (weights + c_k signs) scored `plus_score` (its mean
// points a game) against the minus side.
void spsa_step(std::vector<double>& weights, const std::vector<double>& signs, double plus_score,
               const PlayTuningOptions& options, int iteration);

// The whole SPSA loop on any objective: `play(plus, minus, k)` returns plus's mean score against
// minus at iteration k.  Returns the tuned weights.
using PerturbedMatch = std::function<double(const std::vector<double>& plus,
                                            const std::vector<double>& minus, int iteration)>;
std::vector<double> tune_weights(std::vector<double> weights, const PlayTuningOptions& options,
                                 std::uint64_t seed, const PerturbedMatch& play);

struct PlayTuningRecord {
  int games = 0;
  int danish_wins = 0;
};

// Tunes `start`'s linear weights with `agent` (a spec that scores with the value_model it names)
// on `game`: the two perturbed models are written as tune-plus.json and tune-minus.json in
// `scratch_dir` (rank 0 writes, then tells the workers; they are removed at the end).  The same
// on any thread count and any number of MPI ranks.  Rank 0's result is the tuned model (its other
// fields are start's); the workers' is start.  Rank 0 reports to `progress` after every tenth of
// the iterations.
ValueModel tune_by_play(const DanelawGame& game, const std::string& agent, const ValueModel& start,
                        const PlayTuningOptions& options, std::uint64_t seed, int threads,
                        const std::string& scratch_dir, PlayTuningRecord& record,
                        const std::function<void(const std::string&)>& progress);

}  // namespace sling::danelaw
