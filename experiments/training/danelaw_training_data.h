#pragma once
// What danelaw's value learning passes between its steps (experiments/training/): self-play
// (danelaw_self_play.h) writes labelled positions, a fitter (ValueFitter: the logistic model of
// danelaw_linear_fit.h, or another) learns an evaluator from them, and the next self-play scores
// with that evaluator.  Positions are kept as states, not as one learner's input, so that each
// fitter reads them its own way: the linear model through its features, a network through the
// planes of engine/danelaw/encoding.h.

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "engine/danelaw/danelaw.h"
#include "solvers/danelaw/model_value.h"
#include "solvers/danelaw/value_model.h"

namespace sling::danelaw {

// A position at the start of a half-turn (the positions the planner scores), labelled with the
// result of the game it came from.
struct TrainingPosition {
  int variant = 0;  // which of TrainingData::variants the game was played under
  State state;
  bool danes_won = false;
  bool held_out = false;  // kept out of the fit, to measure it
  int game = 0;           // the game it came from (TrainingData::games when it was appended)
};

// One self-play game as training keeps it: its positions replay from its history (what a
// checkpoint of `sling train` stores, played_games_file.h).
struct PlayedGame {
  int variant = 0;
  bool danes_won = false;
  bool held_out = false;
  std::vector<Action> history;
  bool operator==(const PlayedGame&) const = default;
};

struct TrainingData {
  std::vector<DanelawGame> variants;  // the rules played (the first is the game trained for)
  std::vector<TrainingPosition> positions;
  int games = 0;
};

// Appends the positions at the start of each half-turn of one game, replayed from its history.
void collect_positions(const DanelawGame& game, int variant, const std::vector<Action>& history,
                       bool danes_won, bool held_out, std::vector<TrainingPosition>& out);

// Training data with no positions yet, for `game`'s rules and, with `mixed_rules`, two variants
// where the Danes win more often (+10 Danes; at most 11 towns needed): one game in three each.
// Default-rules games alone hold few Danish wins to learn from, and the features are scaled by
// the rules (towns needed, pool, turn limit), so what is learnt carries over.
TrainingData training_variants(const DanelawGame& game, bool mixed_rules);

// Appends the positions of a played game (collect_positions under its variant's rules).
void append_positions(TrainingData& data, const PlayedGame& game);

// A way to learn an evaluator from labelled positions.
class ValueFitter {
 public:
  virtual ~ValueFitter() = default;
  // Fits on the data's positions that are not held out (all of them so far: the data only grows
  // between calls), replacing the previous fit.
  virtual void fit(const TrainingData& data) = 0;
  // The evaluator of the last fit (before any, the one to start from) for positions of `game`.
  virtual std::shared_ptr<const PositionValue> value(const DanelawGame& game) const = 0;
};

// A fitter whose evaluator is a ValueModel (the linear model of danelaw_linear_fit.h, or the
// network of danelaw_network_fit.h): what `sling train danelaw` writes to a model file.
// It holds the model of the last fit (before any, the one to start from) and scores with it.
class ValueModelFitter : public ValueFitter {
 public:
  std::shared_ptr<const PositionValue> value(const DanelawGame& game) const final {
    return std::make_shared<const ModelValue>(game, model_);
  }
  // The model of the last fit: its weights (the provenance is the trainer's to fill in).
  const ValueModel& model() const { return *model_; }

 protected:
  explicit ValueModelFitter(const ValueModel& start)
      : model_(std::make_shared<const ValueModel>(start)) {}
  void set_model(ValueModel model) {
    model_ = std::make_shared<const ValueModel>(std::move(model));
  }

 private:
  std::shared_ptr<const ValueModel> model_;
};

// The fitter's evaluator on the held-out positions: mean log loss of its P(Danes win), and
// predicted against observed in `bins` bands of prediction.
double held_out_log_loss(const ValueFitter& fitter, const TrainingData& data);
std::vector<CalibrationBin> held_out_calibration(const ValueFitter& fitter,
                                                 const TrainingData& data, int bins = 10);

}  // namespace sling::danelaw
