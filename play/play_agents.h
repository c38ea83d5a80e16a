#pragma once
// Agents for the terminal: "human", the difficulty presets and any agent spec of the registry.
//
// Presets (docs/play.md):
//   easy   = heuristic                                  the game's rule-of-thumb policy
//   normal = mcts:iterations=2000,rollout=heuristic     a quick search
//   strong = the game's exact solver with a solution file (--solution), or where it is quick to
//            load without one (Pig); otherwise
//            mcts:iterations=20000,rollout=heuristic    a deeper search (a second or two a move)
// Danelaw's normal and strong are its movement-plan search with the learned value model
// (`planner`, engine/danelaw/planner.h) at two budgets; docs/strength.md measures all three.
// Hints use the strongest analysis: the exact solver where it is quick to load, otherwise the
// strong search.

#include <algorithm>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "agents/agent.h"
#include "agents/registry.h"
#include "engine/core/errors.h"
#include "engine/danelaw/danelaw.h"
#include "engine/pig/pig.h"

namespace sling::play {

// Danelaw's games are long (hundreds of decisions, 24 turns) and its movement combinatorial, so a
// tree over single moves is weaker than its heuristic; its presets search whole movement plans
// scored by the learned value model instead (docs/strength.md, "Danelaw").
template <Game G>
inline constexpr bool kPlansMovement = std::is_same_v<G, danelaw::DanelawGame>;
inline constexpr const char* kDanelawNormal = "planner:plans=8,samples=2,battle=2";
inline constexpr const char* kDanelawStrong = "planner:plans=32,samples=4,battle=8";

template <Game G>
std::string normal_search() {
  return kPlansMovement<G> ? kDanelawNormal : "mcts:iterations=2000,rollout=heuristic";
}

template <Game G>
std::string strong_search() {
  return kPlansMovement<G> ? kDanelawStrong : "mcts:iterations=20000,rollout=heuristic";
}

template <Game G>
bool registry_has(const G& game, std::string_view name) {
  const auto catalogue = agent_catalogue(game);
  return std::any_of(catalogue.begin(), catalogue.end(),
                     [&](const AgentInfo& info) { return info.name == name; });
}

// Games whose `solver` agent builds its exact policy in about a second with no file given.
template <Game G>
inline constexpr bool kSolverLoadsQuickly = std::is_same_v<G, pig::PigGame>;

// The option of game G's `solver` agent that names its solution file.
template <Game G>
inline constexpr std::string_view kSolverFileOption =
    std::is_same_v<G, pig::PigGame> ? "table" : "file";

// The strongest agent spec for game G: the exact solver with `solution_file` when one is given,
// or where it loads quickly without one; otherwise the strong search.  Used by the `strong`
// preset and by hints.
template <Game G>
std::string strongest_spec(const G& game, const std::string& solution_file = "") {
  if (!solution_file.empty()) {
    return "solver:" + std::string(kSolverFileOption<G>) + "=" + solution_file;
  }
  if (kSolverLoadsQuickly<G> && registry_has(game, "solver")) return "solver";
  return strong_search<G>();
}

// The spec a preset stands for in game G, or `text` itself when it names no preset.
template <Game G>
std::string resolve_preset(const G& game, std::string_view text,
                           const std::string& solution_file = "") {
  if (text == "easy") return "heuristic";
  if (text == "normal") return normal_search<G>();
  if (text == "strong") return strongest_spec(game, solution_file);
  return std::string(text);
}

// "human" is not an agent; everything else is a preset or an agent spec.
inline bool is_human(std::string_view text) {
  return text == "human";
}

template <Game G>
AgentPtr<G> make_play_agent(const G& game, std::string_view text,
                            const std::string& solution_file = "") {
  const std::string spec = resolve_preset(game, text, solution_file);
  if (spec != text && !registry_has(game, parse_agent_spec(spec).name)) {
    throw OptionError("preset '" + std::string(text) + "' needs the agent '" +
                      parse_agent_spec(spec).name + "', which this build of Sling lacks for " +
                      std::string(game.info().name));
  }
  return make_agent(game, spec);
}

}  // namespace sling::play
