#pragma once
// Danelaw's own agents in the registry: `exact`, optimal play on a scenario small enough for the
// exact solver (agents/danelaw_exact_agent.h), and `planner`, the movement-plan search of
// agents/danelaw_planner.h scored by danelaw's value function (agents/danelaw_value.h, the one
// search leaves use: the embedded learned model, or value_model=FILE written by
// `sling train danelaw`).  The agent itself and its options are in agents/danelaw_agents.cpp; it
// offers UsesGameValue (agents/game_value.h), through which training hands it the model fitted so
// far.

#include <string_view>
#include <vector>

#include "agents/danelaw_value.h"
#include "agents/game_agents.h"
#include "engine/danelaw/danelaw.h"

namespace sling {

template <>
struct GameAgents<danelaw::DanelawGame> {
  static void catalogue(const danelaw::DanelawGame&, std::vector<AgentInfo>& out);
  static AgentPtr<danelaw::DanelawGame> make(const danelaw::DanelawGame& game,
                                             const AgentSpec& spec);
  // Danelaw's games are long (hundreds of decisions, 24 turns) and its movement combinatorial, so
  // a tree over single moves is weaker than its heuristic; its presets search whole movement
  // plans scored by the learned value model instead (`planner`, agents/danelaw_planner.h;
  // docs/strength.md, "Danelaw", measures them).
  // The exact solver solves its small scenarios in seconds, in memory: no solution file.
  static constexpr std::string_view kSolutionFileOption = "";
  static std::vector<PresetInfo> presets(const danelaw::DanelawGame&);
};

}  // namespace sling
