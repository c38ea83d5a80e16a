#pragma once
// The duel's own agents in the registry: `solver:file=FILE` plays from an exact solution written by
// `sling solve duel` (agents/duel_solver_agent.h).

#include "agents/duel_solver_agent.h"
#include "agents/game_agents.h"
#include "engine/duel/duel.h"

namespace sling {

template <>
struct GameAgents<duel::DuelGame> {
  static void catalogue(const duel::DuelGame&, std::vector<AgentInfo>& out) {
    const AgentSpec empty{};
    OptionReader r(empty);
    r.text("file", "", "solution file written by `sling solve duel` for these rules (required)");
    out.push_back({"solver", "optimal play from an exact solution file", r.declared()});
  }
  static AgentPtr<duel::DuelGame> make(const duel::DuelGame& game, const AgentSpec& spec) {
    if (spec.name == "solver") return make_duel_solver_agent(game, spec);
    return nullptr;
  }
};

}  // namespace sling
