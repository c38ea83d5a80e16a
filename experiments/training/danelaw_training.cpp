#include "experiments/training/danelaw_training.h"

#include <algorithm>
#include <cstdio>

#include "agents/registry.h"
#include "engine/core/errors.h"
#include "engine/core/format.h"
#include "experiments/training/danelaw_network_fit.h"
#include "experiments/training/danelaw_self_play.h"

namespace sling::danelaw {

TrainingSummary train_value(const DanelawGame& game, const TrainingOptions& options,
                            ValueFitter& fitter,
                            const std::function<void(const std::string&)>& progress) {
  if (options.games < 5) throw OptionError("danelaw training needs at least 5 games an iteration");
  if (options.iterations < 1) throw OptionError("danelaw training needs at least one iteration");
  make_agent(game, options.planner);  // a bad spec fails before any game is played
  TrainingData data = training_variants(game, options.mixed_rules);
  const Rng seeds(options.seed, 0x747261696e);
  TrainingSummary summary;
  for (int iteration = 0; iteration < options.iterations; ++iteration) {
    SelfPlayOptions self_play;
    self_play.agent = iteration == 0 ? "heuristic" : options.planner;
    self_play.games = options.games;
    self_play.seed = seeds.derive(static_cast<std::uint64_t>(iteration)).next();
    self_play.threads = options.threads;
    const SelfPlayResult played =
        play_self_play(data, self_play, [&](const DanelawGame& g) { return fitter.value(g); });
    fitter.fit(data);
    summary.log_loss = held_out_log_loss(fitter, data);
    std::string line;
    append_format(line,
                  "iteration %d: %d games of %s%s, Danes won %d; %zu positions; held-out log "
                  "loss %.4f",
                  iteration, options.games, self_play.agent.c_str(),
                  iteration > 0 && !played.agent_uses_value
                      ? " (it does not score with the value model)"
                      : "",
                  played.danish_wins, data.positions.size(), summary.log_loss);
    progress(line);
  }
  summary.games = data.games;
  summary.positions = static_cast<int>(data.positions.size());
  summary.calibration = held_out_calibration(fitter, data);
  return summary;
}

ValueModel train_value_model(const DanelawGame& game, const TrainingOptions& options,
                             const std::function<void(const std::string&)>& progress) {
  const std::unique_ptr<ValueModelFitter> fitter = make_model_fitter(
      {options.l2, options.hidden, options.seed, options.town_terms, options.td_lambda});
  const TrainingSummary summary = train_value(game, options, *fitter, progress);
  ValueModel model = fitter->model();
  model.command = options.command;
  model.seed = options.seed;
  model.games = summary.games;
  model.iterations = options.iterations;
  model.states = summary.positions;
  model.log_loss = summary.log_loss;
  model.calibration = summary.calibration;
  return model;
}

}  // namespace sling::danelaw
