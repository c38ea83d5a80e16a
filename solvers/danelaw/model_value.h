#pragma once
// Danelaw's value function: side 0's payoff in [-1, 1] by a value model, 2 P(Danes win) - 1, and
// the returns once the game is over.  What the planner's playouts score and what search leaves
// get through GameValue<DanelawGame> (`leaf=value`, agents/danelaw_value.h); the rules themselves
// have no evaluation (engine/danelaw/danelaw.h).

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

// model_value as a leaf value function (search/value.h): holds its own copy of the game, so it
// outlives the game it was made from; safe to call from several threads at once.
class ModelValue {
 public:
  explicit ModelValue(DanelawGame game, std::shared_ptr<const ValueModel> model)
      : game_(std::move(game)), model_(std::move(model)) {}
  explicit ModelValue(DanelawGame game) : ModelValue(std::move(game), shared_embedded_model()) {}

  double operator()(const State& s) const { return model_value(*model_, game_, s); }
  const ValueModel& model() const { return *model_; }

 private:
  DanelawGame game_;
  std::shared_ptr<const ValueModel> model_;
};

}  // namespace sling::danelaw
