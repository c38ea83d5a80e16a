#pragma once
// Danelaw's own agent in the registry: `planner`, the movement-plan search of
// engine/danelaw/planner.h scored by the learned value model (the embedded default, or
// model=FILE written by `sling train danelaw`).

#include <memory>
#include <sstream>
#include <string>

#include "agents/game_agents.h"
#include "engine/danelaw/danelaw.h"
#include "engine/danelaw/planner.h"

namespace sling {

namespace danelaw_agents {

struct PlannerOptions {
  danelaw::PlannerConfig config;
  std::string model;  // empty: the game's model
};

inline PlannerOptions read_planner_options(OptionReader& r) {
  PlannerOptions o;
  o.config.plans =
      static_cast<int>(r.integer("plans", 32, 1, 100000, "movement plans sampled per half-turn"));
  o.config.samples = static_cast<int>(r.integer(
      "samples", 4, 1, 100000, "playouts per plan on average, shared by successive halving"));
  o.config.battle_samples = static_cast<int>(
      r.integer("battle", 8, 1, 100000, "playouts per legal action at battle decisions"));
  o.config.noise = r.real("noise", 0.3, 0, 1, "chance a sampled plan replaces a heuristic move");
  o.model = r.text("model", "", "value model file from `sling train danelaw` (default: embedded)");
  return o;
}

class PlannerAgent final : public Agent<danelaw::DanelawGame> {
 public:
  PlannerAgent(const danelaw::DanelawGame& game, const PlannerOptions& options)
      : game_(game), options_(options), planner_(game_, options.config) {
    if (!options.model.empty()) {
      game_.set_value_model(
          std::make_shared<const danelaw::ValueModel>(danelaw::ValueModel::load(options.model)));
    }
  }
  void new_game(std::uint64_t seed) override { planner_.new_game(seed); }
  Action act(const danelaw::State& state) override {
    const danelaw::PlannerChoice choice = planner_.choose(state);
    analysis_ = Analysis{};
    analysis_.value = choice.value;
    analysis_.nodes = choice.playouts;
    for (const auto& o : choice.options)
      analysis_.actions.push_back({o.action, o.value, o.samples});
    return choice.action;
  }
  Analysis last_analysis() const override { return analysis_; }
  std::string spec() const override {
    std::ostringstream out;
    const danelaw::PlannerConfig& c = options_.config;
    out << "planner:plans=" << c.plans << ",samples=" << c.samples << ",battle=" << c.battle_samples
        << ",noise=" << c.noise;
    if (!options_.model.empty()) out << ",model=" << options_.model;
    return out.str();
  }

 private:
  danelaw::DanelawGame game_;  // a copy, so that model=FILE changes only this agent's evaluation
  PlannerOptions options_;
  danelaw::Planner planner_;
  Analysis analysis_;
};

}  // namespace danelaw_agents

template <>
struct GameAgents<danelaw::DanelawGame> {
  static void catalogue(const danelaw::DanelawGame&, std::vector<AgentInfo>& out) {
    const AgentSpec empty{};
    OptionReader r(empty);
    danelaw_agents::read_planner_options(r);
    out.push_back({"planner",
                   "samples whole movement plans and battle choices, plays each to the end of the "
                   "half-turn and scores it with the learned value model",
                   r.declared()});
  }
  static AgentPtr<danelaw::DanelawGame> make(const danelaw::DanelawGame& game,
                                             const AgentSpec& spec) {
    if (spec.name != "planner") return nullptr;
    OptionReader r(spec);
    const danelaw_agents::PlannerOptions options = danelaw_agents::read_planner_options(r);
    r.finish();
    return std::make_unique<danelaw_agents::PlannerAgent>(game, options);
  }
};

}  // namespace sling
