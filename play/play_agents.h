#pragma once
// Agents for the terminal: "human", the difficulty presets (agents/presets.h) and any agent spec of
// the registry.  `strong` becomes the exact solver when a solution file is given (--solution).
// Hints use the strongest analysis: the exact solver with a solution file, otherwise `strong`.

#include <algorithm>
#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "agents/agent.h"
#include "agents/presets.h"
#include "agents/registry.h"
#include "engine/core/errors.h"

namespace sling::play {

template <Game G>
bool registry_has(const G& game, std::string_view name) {
  const auto catalogue = agent_catalogue(game);
  return std::any_of(catalogue.begin(), catalogue.end(),
                     [&](const AgentInfo& info) { return info.name == name; });
}

// The option of game G's `solver` agent that names its solution file (agents/game_agents.h).
template <Game G>
inline constexpr std::string_view kSolverFileOption = GameAgents<G>::kSolutionFileOption;

// The strongest agent spec for game G: the exact solver with `solution_file` when one is given,
// otherwise the `strong` preset.  Used by the `strong` preset and by hints.
template <Game G>
std::string strongest_spec(const G& game, const std::string& solution_file = "") {
  if (!solution_file.empty()) {
    if constexpr (kSolverFileOption<G>.empty()) {
      throw OptionError("--solution: " + std::string(game.info().name) +
                        " has no exact solver that reads a solution file");
    } else {
      return "solver:" + std::string(kSolverFileOption<G>) + "=" + solution_file;
    }
  }
  return *preset_spec(game, "strong");
}

// The spec a preset stands for in game G, or `text` itself when it names no preset.
template <Game G>
std::string resolve_preset(const G& game, std::string_view text,
                           const std::string& solution_file = "") {
  if (text == "strong") return strongest_spec(game, solution_file);
  if (const auto preset = preset_spec(game, text)) return *preset;
  return std::string(text);
}
// "human" is not an agent; everything else is a preset or an agent spec.
inline bool is_human(std::string_view text) {
  return text == "human";
}

// Who sits at the table: with a person, agents may prepare while they play
// (GameAgents<G>::at_a_persons_table); between agents alone, seeds decide everything.
enum class Table { kAgentsOnly, kWithPerson };

// The table of these sides' players ("human" or an agent spec).
template <typename Sides>
Table table_of(const Sides& sides) {
  return std::any_of(sides.begin(), sides.end(), [](const auto& side) { return is_human(side); })
             ? Table::kWithPerson
             : Table::kAgentsOnly;
}

template <Game G>
AgentPtr<G> make_play_agent(const G& game, std::string_view text,
                            const std::string& solution_file = "",
                            Table table = Table::kAgentsOnly) {
  std::string spec = resolve_preset(game, text, solution_file);
  if (table == Table::kWithPerson) spec = spec_at_a_persons_table(game, spec);
  if (spec != text && !registry_has(game, parse_agent_spec(spec).name)) {
    throw OptionError("preset '" + std::string(text) + "' needs the agent '" +
                      parse_agent_spec(spec).name + "', which this build of Sling lacks for " +
                      std::string(game.info().name));
  }
  return make_agent(game, spec);
}

// Plays `action` on the table's state, records it, and tells each agent at the table (a person's
// side is null) what was played, as the terminal and the web page both do after every ply.
template <Game G>
void apply_at_table(const G& game, typename G::State& state, std::vector<Action>& history,
                    std::array<AgentPtr<G>, 2>& agents, Action action) {
  const typename G::State before = state;
  apply_any(game, state, action);
  history.push_back(action);
  for (auto& agent : agents) {
    if (agent) agent->observe(before, action);
  }
}

}  // namespace sling::play
