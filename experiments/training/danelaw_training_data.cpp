#include "experiments/training/danelaw_training_data.h"

#include <algorithm>
#include <cmath>
#include <functional>

#include "engine/core/errors.h"
#include "engine/core/game.h"

namespace sling::danelaw {

void collect_positions(const DanelawGame& game, int variant, const std::vector<Action>& history,
                       bool danes_won, bool held_out, std::vector<TrainingPosition>& out) {
  State s = game.initial_state();
  for (Action a : history) {
    if (s.phase == Phase::kMovementDice) out.push_back({variant, s, danes_won, held_out});
    apply_any(game, s, a);
  }
}

TrainingData training_variants(const DanelawGame& game, bool mixed_rules) {
  TrainingData data;
  data.variants.push_back(game);
  if (mixed_rules) {
    DanelawRules more_danes = game.rules();
    more_danes.danes_extra = true;
    DanelawRules fewer_towns = game.rules();
    fewer_towns.towns_to_win = std::min(fewer_towns.towns_to_win, 11);
    data.variants.emplace_back(more_danes);
    data.variants.emplace_back(fewer_towns);
  }
  return data;
}

void append_positions(TrainingData& data, const PlayedGame& game) {
  if (game.variant < 0 || game.variant >= static_cast<int>(data.variants.size())) {
    throw SlingError("a played game names rules variant " + std::to_string(game.variant) + " of " +
                     std::to_string(data.variants.size()));
  }
  const std::size_t first = data.positions.size();
  collect_positions(data.variants[static_cast<std::size_t>(game.variant)], game.variant,
                    game.history, game.danes_won, game.held_out, data.positions);
  for (std::size_t i = first; i < data.positions.size(); ++i) data.positions[i].game = data.games;
  ++data.games;
}

namespace {

// Calls `visit(position, P(Danes win))` for each held-out position, by the fitter's evaluator.
void each_held_out(const ValueFitter& fitter, const TrainingData& data,
                   const std::function<void(const TrainingPosition&, double)>& visit) {
  std::vector<std::shared_ptr<const PositionValue>> values;
  for (const DanelawGame& game : data.variants) values.push_back(fitter.value(game));
  for (const TrainingPosition& p : data.positions) {
    if (!p.held_out) continue;
    const double danes = (*values[static_cast<std::size_t>(p.variant)])(p.state);
    visit(p, std::clamp((danes + 1) / 2, 0.0, 1.0));
  }
}

}  // namespace

double held_out_log_loss(const ValueFitter& fitter, const TrainingData& data) {
  double loss = 0;
  int count = 0;
  each_held_out(fitter, data, [&](const TrainingPosition& p, double probability) {
    const double clamped = std::clamp(probability, 1e-12, 1 - 1e-12);
    loss -= std::log(p.danes_won ? clamped : 1 - clamped);
    ++count;
  });
  return count ? loss / count : 0.0;
}

std::vector<CalibrationBin> held_out_calibration(const ValueFitter& fitter,
                                                 const TrainingData& data, int bins) {
  std::vector<CalibrationBin> out(static_cast<std::size_t>(bins));
  for (int b = 0; b < bins; ++b) {
    out[b].low = static_cast<double>(b) / bins;
    out[b].high = static_cast<double>(b + 1) / bins;
  }
  each_held_out(fitter, data, [&](const TrainingPosition& p, double probability) {
    CalibrationBin& bin = out[std::min(bins - 1, static_cast<int>(probability * bins))];
    bin.predicted += probability;
    bin.observed += p.danes_won;
    ++bin.count;
  });
  for (CalibrationBin& b : out) {
    if (b.count) {
      b.predicted /= b.count;
      b.observed /= b.count;
    }
  }
  return out;
}

}  // namespace sling::danelaw
