#pragma once
// Builds agents from spec strings ("mcts:iterations=20000,c=1.4").  Every agent a game supports is
// listed here with its options, so `sling agents` and the error for an unknown agent stay in step.

#include <string>
#include <string_view>
#include <vector>

#include "agents/agent.h"
#include "agents/random_agent.h"
#include "agents/spec.h"

namespace sling {

struct AgentOptionInfo {
  std::string key;
  std::string default_value;
  std::string range;
  std::string help;
};

struct AgentInfo {
  std::string name;
  std::string help;
  std::vector<AgentOptionInfo> options;
};

// The agents available for game G, in display order.
template <Game G>
std::vector<AgentInfo> agent_catalogue(const G&) {
  return {{"random", "a uniformly random legal action", {}}};
}

template <Game G>
AgentPtr<G> make_agent(const G& game, std::string_view text) {
  const AgentSpec spec = parse_agent_spec(text);
  if (spec.name == "random") {
    OptionReader(spec).finish();
    return std::make_unique<RandomAgent<G>>(game);
  }
  std::string names;
  for (const AgentInfo& info : agent_catalogue(game)) names += (names.empty() ? "" : ", ") + info.name;
  throw OptionError("unknown agent '" + spec.name + "' for " + std::string(game.info().name) +
                    " (valid agents: " + names + ")");
}

}  // namespace sling
