#include "experiments/training/danelaw_play_tuning.h"

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "engine/core/errors.h"
#include "engine/core/format.h"
#include "engine/core/io.h"
#include "engine/core/random.h"
#include "experiments/mpi_jobs.h"
#include "experiments/training/paired_games.h"

namespace sling::danelaw {

void PlayTuningOptions::validate() const {
  if (iterations < 0) throw OptionError("--tune-iterations must be >= 0");
  if (pairs < 1) throw OptionError("--tune-pairs must be at least 1");
  if (!(perturbation > 0 && perturbation <= 100)) {
    throw OptionError("--tune-perturbation must lie in (0, 100]");
  }
  if (!(rate > 0 && rate <= 100)) throw OptionError("--tune-rate must lie in (0, 100]");
}

double spsa_perturbation(const PlayTuningOptions& options, int iteration) {
  return options.perturbation / std::pow(static_cast<double>(iteration), 0.101);
}

double spsa_gain(const PlayTuningOptions& options, int iteration) {
  const double stability = 0.1 * options.iterations;
  return options.rate * std::pow((stability + 1) / (stability + iteration), 0.602);
}

std::vector<double> spsa_signs(std::uint64_t seed, int iteration, std::size_t weights) {
  Rng rng = Rng(seed, 0x73707361).derive(static_cast<std::uint64_t>(iteration));
  std::vector<double> signs(weights, 0.0);
  for (std::size_t i = 1; i < weights; ++i) signs[i] = (rng.next() >> 63) != 0 ? 1.0 : -1.0;
  return signs;
}

void spsa_step(std::vector<double>& weights, const std::vector<double>& signs, double plus_score,
               const PlayTuningOptions& options, int iteration) {
  // The gradient's estimate along weight i: (score(plus) - score(minus)) / (2 c_k sign_i), and
  // 1 / sign_i = sign_i.  Plus scored plus_score a game against minus, so the gap is 2 s - 1.
  const double step = spsa_gain(options, iteration) * (2 * plus_score - 1) /
                      (2 * spsa_perturbation(options, iteration));
  for (std::size_t i = 0; i < weights.size(); ++i) weights[i] += step * signs[i];
}

std::vector<double> tune_weights(std::vector<double> weights, const PlayTuningOptions& options,
                                 std::uint64_t seed, const PerturbedMatch& play) {
  for (int k = 1; k <= options.iterations; ++k) {
    const std::vector<double> signs = spsa_signs(seed, k, weights.size());
    const double c = spsa_perturbation(options, k);
    std::vector<double> plus = weights, minus = weights;
    for (std::size_t i = 0; i < weights.size(); ++i) {
      plus[i] += c * signs[i];
      minus[i] -= c * signs[i];
    }
    spsa_step(weights, signs, play(plus, minus, k), options, k);
  }
  return weights;
}

ValueModel tune_by_play(const DanelawGame& game, const std::string& agent, const ValueModel& start,
                        const PlayTuningOptions& options, std::uint64_t seed, int threads,
                        const std::string& scratch_dir, PlayTuningRecord& record,
                        const std::function<void(const std::string&)>& progress) {
  namespace fs = std::filesystem;
  const bool root = mpi::rank() == 0;
  const std::string plus_path = (fs::path(scratch_dir) / "tune-plus.json").string();
  const std::string minus_path = (fs::path(scratch_dir) / "tune-minus.json").string();
  const std::string plus_spec = with_model(agent, plus_path);
  const std::string minus_spec = with_model(agent, minus_path);
  record = {};
  double gap_sum = 0;
  const PerturbedMatch play = [&](const std::vector<double>& plus, const std::vector<double>& minus,
                                  int k) {
    if (root) {
      ValueModel model = start;
      model.weights = plus;
      write_file_atomic(plus_path, model.to_json());
      model.weights = minus;
      write_file_atomic(minus_path, model.to_json());
    }
    tell_workers("perturbed");  // the workers read the two files only once they are written
    const std::vector<int> winners =
        paired_winners(game, plus_spec, minus_spec, options.pairs,
                       Rng(seed, 0x706c6179).derive(static_cast<std::uint64_t>(k)).next(), threads);
    record.games += static_cast<int>(winners.size());
    for (const int w : winners) record.danish_wins += w == 0 ? 1 : 0;
    const double score = paired_score(winners);
    gap_sum += std::abs(2 * score - 1);
    const int report_every = std::max(1, options.iterations / 10);
    if (root && (k % report_every == 0 || k == options.iterations)) {
      std::string line;
      append_format(line, "  tuning: iteration %d of %d, mean score gap %.3f a game", k,
                    options.iterations, gap_sum / k);
      progress(line);
    }
    return score;
  };
  ValueModel tuned = start;
  tuned.weights = tune_weights(start.weights, options, seed, play);
  if (root) {
    fs::remove(plus_path);
    fs::remove(minus_path);
  }
  return root ? tuned : start;
}

}  // namespace sling::danelaw
