#pragma once
// Danelaw's value function, for search leaves (`leaf=value`) and the planner's playouts alike: a
// leaf evaluator of solvers/danelaw/model_value.h, today the learned value model, the embedded
// default or a file written by `sling train danelaw` (one option, `value_model=FILE`, for both).
// Danelaw has no `evaluate` hook, so this is also the expectimax agent's default leaf for danelaw
// (agents/search_agents.h).

#include <memory>
#include <string>

#include "agents/game_value.h"
#include "engine/danelaw/danelaw.h"
#include "solvers/danelaw/model_value.h"

namespace sling {

template <>
struct GameValue<danelaw::DanelawGame> {
  static constexpr bool kAvailable = true;
  using Function = danelaw::PositionValue;
  struct Options {
    std::string model;  // empty: the embedded model
  };
  static Options read(OptionReader& r) {
    Options o;
    o.model = r.text("value_model", "",
                     "value model file from `sling train danelaw` (default: embedded)");
    return o;
  }
  static std::string spec(const Options& o) {
    return o.model.empty() ? "" : ",value_model=" + o.model;
  }
  static std::shared_ptr<const Function> make(const danelaw::DanelawGame& game, const Options& o) {
    if (o.model.empty()) return std::make_shared<const danelaw::ModelValue>(game);
    return std::make_shared<const danelaw::ModelValue>(game, danelaw::ValueModel::shared(o.model));
  }
};

}  // namespace sling
