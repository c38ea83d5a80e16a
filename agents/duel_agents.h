#pragma once
// The duel's own agents in the registry: `solver:file=FILE` plays from an exact solution written by
// `sling solve duel` (agents/duel_solver_agent.h); `lookahead` plays by the rest of the turn over
// the coarse solution's interpolated values (agents/duel_lookahead_agent.h).  The duel's value
// function for `leaf=value` is in agents/duel_value.h.

#include "agents/duel_lookahead_agent.h"
#include "agents/duel_solver_agent.h"
#include "agents/duel_value.h"
#include "agents/game_agents.h"
#include "engine/duel/duel.h"

namespace sling {

template <>
struct GameAgents<duel::DuelGame> {
  static void catalogue(const duel::DuelGame&, std::vector<AgentInfo>& out) {
    out.push_back(describe_agent("solver",
                                 "optimal play from an exact solution file (under a turn cap, "
                                 "from the capped game solved on first use)",
                                 [](OptionReader& r) { DuelSolverOptions::read(r); }));
    out.push_back(describe_agent("lookahead",
                                 "the best action by the exact rest of the turn, valued at the "
                                 "next turn by the exact solution of a coarser lattice (solved "
                                 "once, cached)",
                                 [](OptionReader& r) { DuelLookaheadOptions::read(r); }));
  }
  static AgentPtr<duel::DuelGame> make(const duel::DuelGame& game, const AgentSpec& spec) {
    if (spec.name == "solver") return make_duel_solver_agent(game, spec);
    if (spec.name == "lookahead") return make_duel_lookahead_agent(game, spec);
    return nullptr;
  }
  // A refining `lookahead` refines in the background (`background=1`) unless the spec says.
  static std::string at_a_persons_table(const duel::DuelGame& game, const std::string& spec);
  // easy: the heuristic with blunders; normal: lookahead; strong: by the lattice (duel_agents.cpp).
  static std::vector<PresetInfo> presets(const duel::DuelGame& game);
  static constexpr std::string_view kSolutionFileOption = "file";
};

}  // namespace sling
