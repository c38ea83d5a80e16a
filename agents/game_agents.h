#pragma once
// The hook through which a game makes its own agent choices: the agents of its own (exact
// solvers, fixed strategies, danelaw's planner) in the registry, the specs its presets easy,
// normal and strong stand for, and the option of its `solver` that names a solution file.  A game
// specialises GameAgents<G> next to its agents (agents/<game>_agents.h) and agents/presets.h
// includes that header; a game without a specialisation gets the generic agents (random,
// heuristic, expectimax, mcts) and presets built from them.

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "agents/agent.h"
#include "agents/spec.h"

namespace sling {

struct PresetInfo {
  std::string name;  // easy, normal, strong
  std::string spec;
  std::string help;
};

struct AgentInfo {
  std::string name;
  std::string help;
  std::vector<AgentOptionInfo> options;
};

// A catalogue entry whose options are the ones `read_options(OptionReader&)` declares, read from
// `spec` (by default an empty one, so every option shows its default).
template <class ReadOptions>
AgentInfo describe_agent(std::string name, std::string help, ReadOptions&& read_options,
                         const AgentSpec& spec = {}) {
  OptionReader reader(spec);
  read_options(reader);
  return {std::move(name), std::move(help), reader.declared()};
}

template <Game G>
struct GameAgents {
  // Appends the game's own agents to the catalogue.
  static void catalogue(const G&, std::vector<AgentInfo>&) {}
  // Builds the agent named by `spec` if it is one of the game's own, else returns null.
  static AgentPtr<G> make(const G&, const AgentSpec&) { return nullptr; }
  // The specs of the presets easy, normal and strong, in that order (agents/presets.h).
  static std::vector<PresetInfo> presets(const G&) {
    return {
        {"easy", HasHeuristicPolicy<G> ? "heuristic" : "mcts:iterations=200", "a weak policy"},
        {"normal", "mcts:iterations=2000", "a quick search"},
        {"strong", "mcts:iterations=20000", "a deeper search"},
    };
  }
  // The option of the game's `solver` agent that names its solution file ("" when it has none):
  // `strong` and hints play from a file given as --solution (play/play_agents.h).
  static constexpr std::string_view kSolutionFileOption = "";
};

// The spec to build where a person plays a side (play/play_agents.h): an agent that would prepare
// for minutes before its first move may prepare while it plays instead, where the game's traits
// say how (a static GameAgents<G>::at_a_persons_table(game, spec)).  Elsewhere (a match, a
// tournament, a study) a spec is built as it is, so that seeds decide the result.
template <Game G>
std::string spec_at_a_persons_table(const G& game, const std::string& spec) {
  if constexpr (requires { GameAgents<G>::at_a_persons_table(game, spec); }) {
    return GameAgents<G>::at_a_persons_table(game, spec);
  } else {
    return spec;
  }
}

}  // namespace sling
