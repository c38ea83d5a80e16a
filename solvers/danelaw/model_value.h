#pragma once
// Danelaw's leaf evaluators: side 0's payoff in [-1, 1], 2 P(Danes win) - 1, and the returns once
// the game is over.  PositionValue is what the planner's playouts score with and what search leaves
// get through GameValue<DanelawGame> (`leaf=value`, agents/danelaw_value.h), so an evaluator of
// another form (more features, a network) serves both by deriving from it; ModelValue is today's,
// the learned linear model.  The rules themselves have no evaluation (engine/danelaw/danelaw.h).

#include <memory>
#include <utility>

#include "engine/danelaw/danelaw.h"
#include "solvers/danelaw/value_model.h"

namespace sling::danelaw {

inline double model_value(const ValueModel& model, const DanelawGame& game, const State& s) {
  if (game.is_terminal(s)) return game.returns(s)[0];
  return 2.0 * model.probability(game, s) - 1.0;
}

// The embedded model, shared without being owned (it lives for the program).
inline std::shared_ptr<const ValueModel> shared_embedded_model() {
  return std::shared_ptr<const ValueModel>(&ValueModel::embedded(), [](const ValueModel*) {});
}

// A leaf evaluator (search/value.h): side 0's payoff of any state, terminal ones included.  It
// holds what it needs of the game (a copy, not a reference), and is safe to call from several
// threads at once.  A virtual call per evaluation costs nothing next to the evaluation itself (two
// distance fields for the linear model).
class PositionValue {
 public:
  virtual ~PositionValue() = default;
  virtual double operator()(const State& s) const = 0;
};

// model_value as a leaf evaluator.
class ModelValue final : public PositionValue {
 public:
  explicit ModelValue(DanelawGame game, std::shared_ptr<const ValueModel> model)
      : game_(std::move(game)), model_(std::move(model)) {}
  explicit ModelValue(DanelawGame game) : ModelValue(std::move(game), shared_embedded_model()) {}

  double operator()(const State& s) const override { return model_value(*model_, game_, s); }
  const ValueModel& model() const { return *model_; }

 private:
  DanelawGame game_;
  std::shared_ptr<const ValueModel> model_;
};

}  // namespace sling::danelaw
