#pragma once
// The hook through which a game adds agents of its own (exact solvers, fixed strategies) to the
// registry.  A game specialises GameAgents<G> next to its agents and the registry includes that
// header; the generic agents (random, heuristic, expectimax, mcts) need nothing here.

#include <vector>

#include "agents/agent.h"
#include "agents/spec.h"

namespace sling {

struct AgentInfo {
  std::string name;
  std::string help;
  std::vector<AgentOptionInfo> options;
};

template <Game G>
struct GameAgents {
  // Appends the game's own agents to the catalogue.
  static void catalogue(const G&, std::vector<AgentInfo>&) {}
  // Builds the agent named by `spec` if it is one of the game's own, else returns null.
  static AgentPtr<G> make(const G&, const AgentSpec&) { return nullptr; }
};

}  // namespace sling
