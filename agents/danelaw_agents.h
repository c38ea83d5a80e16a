#pragma once
// Danelaw's own agent in the registry: `planner`, the movement-plan search of
// agents/danelaw_planner.h scored by the learned value model of solvers/danelaw/ (the embedded
// default, or model=FILE written by `sling train danelaw`).  Its value function for `leaf=value`
// is in agents/danelaw_value.h.  The agent itself and its options are in
// agents/danelaw_agents.cpp.

#include <memory>
#include <string_view>
#include <vector>

#include "agents/danelaw_value.h"
#include "agents/game_agents.h"
#include "engine/danelaw/danelaw.h"

namespace sling {

namespace danelaw {
struct ValueModel;
}  // namespace danelaw

namespace danelaw_agents {

// A `planner` spec's agent scoring with `default_model` unless the spec names a model file (the
// registry passes none; training passes the model fitted so far).
AgentPtr<danelaw::DanelawGame> make_planner_agent(
    const danelaw::DanelawGame& game, const AgentSpec& spec,
    std::shared_ptr<const danelaw::ValueModel> default_model);

}  // namespace danelaw_agents

template <>
struct GameAgents<danelaw::DanelawGame> {
  static void catalogue(const danelaw::DanelawGame&, std::vector<AgentInfo>& out);
  static AgentPtr<danelaw::DanelawGame> make(const danelaw::DanelawGame& game,
                                             const AgentSpec& spec);
  // Danelaw's games are long (hundreds of decisions, 24 turns) and its movement combinatorial, so
  // a tree over single moves is weaker than its heuristic; its presets search whole movement
  // plans scored by the learned value model instead (`planner`, agents/danelaw_planner.h;
  // docs/strength.md, "Danelaw", measures them).
  static constexpr std::string_view kSolutionFileOption = "";  // no exact solver
  static std::vector<PresetInfo> presets(const danelaw::DanelawGame&);
};

}  // namespace sling
