#pragma once
// Luck as a variance reduction for matches and tournaments (docs/analysis.md): each game's
// result minus the luck of its dice, measured by the game's analysis values.  A roll's luck has
// expectation zero whatever the position, so the adjusted score keeps the score's expectation and
// sheds most of the dice's variance.

#include <cmath>
#include <map>
#include <string>

#include "experiments/analysis/analysis_values.h"
#include "experiments/analysis/game_analysis.h"

namespace sling {

template <class G>
concept HasAnalysisValue = Game<G> && requires(const G& game) {
  analysis_value(game, AnalysisValueOptions{});
};

// Side 0's luck in a record.  Thread-safe once built: the value functions are.
template <Game G>
class LuckMeter {
 public:
  // Builds the game's value function (the duel may solve a coarse lattice first); throws
  // OptionError for a game without one.
  explicit LuckMeter(const G& game) : game_(game) {
    if constexpr (HasAnalysisValue<G>) {
      AnalysisValueOptions options;
      options.candidates_only = true;
      values_ = analysis_value(game, options);
    } else {
      throw OptionError("--luck: " + std::string(game.info().name) + " has no value function");
    }
  }

  const std::string& source() const { return values_.source; }

  // NaN for a record that does not replay (the game of a crashed agent process).
  double luck(const GameRecord& record) const {
    try {
      return analyse_record(game_, record, values_.value, true).totals[0].luck;
    } catch (const SlingError&) {
      return std::nan("");
    }
  }

 private:
  const G& game_;
  AnalysisValue<G> values_;
};

// Mean and spread of per-game values (scores, luck, adjusted scores), with a 95 % interval of the
// mean (normal approximation).
struct MeanInterval {
  double mean = 0;
  double stddev = 0;
  double low = 0;
  double high = 0;
  std::int64_t count = 0;
};

template <class Range>
MeanInterval mean_interval(const Range& values) {
  MeanInterval m;
  double sum = 0, sum2 = 0;
  for (const double v : values) {
    if (!std::isfinite(v)) continue;
    sum += v;
    sum2 += v * v;
    ++m.count;
  }
  if (m.count == 0) return m;
  const double n = static_cast<double>(m.count);
  m.mean = sum / n;
  m.stddev = m.count > 1 ? std::sqrt(std::max(0.0, (sum2 - n * m.mean * m.mean) / (n - 1))) : 0;
  const double half = 1.959963984540054 * m.stddev / std::sqrt(n);
  m.low = m.mean - half;
  m.high = m.mean + half;
  return m;
}

// The same for values that come in clusters whose members can move together: the two games of a
// tournament pair share their dice, so a side's luck in one is nearly its luck in the other, and
// an interval that takes the games as independent is too narrow (about 1/sqrt(2) of the truth
// for a pair of equal lucks).  The spread is measured over the clusters (the cluster-robust
// variance of the mean, with the small-sample factor C / (C - 1)); `stddev` stays the values'
// own.  `clusters[i]` names value i's cluster; non-finite values are skipped.
template <class Values, class Clusters>
MeanInterval clustered_mean_interval(const Values& values, const Clusters& clusters) {
  MeanInterval m = mean_interval(values);
  if (m.count < 2) return m;
  std::map<std::int64_t, std::pair<double, double>> sums;  // cluster: sum, count
  auto cluster = std::begin(clusters);
  for (const double v : values) {
    const std::int64_t id = *cluster++;
    if (!std::isfinite(v)) continue;
    auto& s = sums[id];
    s.first += v;
    s.second += 1;
  }
  const double n = static_cast<double>(m.count), c = static_cast<double>(sums.size());
  if (sums.size() < 2) return m;
  double squares = 0;
  for (const auto& [id, s] : sums) {
    const double deviation = s.first - s.second * m.mean;
    squares += deviation * deviation;
  }
  const double half = 1.959963984540054 * std::sqrt(c / (c - 1) * squares) / n;
  m.low = m.mean - half;
  m.high = m.mean + half;
  return m;
}

}  // namespace sling
