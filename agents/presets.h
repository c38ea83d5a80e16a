#pragma once
// The difficulty presets `easy`, `normal` and `strong`: names that stand for one agent spec each
// in every game.  make_agent accepts them wherever a spec is accepted (play, match, tournament,
// hints), and `sling agents GAME` lists what each stands for.  docs/strength.md measures them.
//
// Each preset is chosen by measurement: each is clearly stronger than the one below, `normal`
// takes about 0.2 s a decision and `strong` at most about a second on two cores.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "agents/danelaw_agents.h"
#include "agents/duel_agents.h"
#include "agents/game_agents.h"
#include "agents/pig_agents.h"
#include "engine/core/game.h"

namespace sling {

// The presets of game G, easy first: its own (GameAgents<G>::presets, agents/<game>_agents.*) or
// the generic ones.
template <Game G>
std::vector<PresetInfo> agent_presets(const G& game) {
  return GameAgents<G>::presets(game);
}

// The spec a preset name stands for in game G, or nullopt when `text` names no preset.
template <Game G>
std::optional<std::string> preset_spec(const G& game, std::string_view text) {
  for (const PresetInfo& preset : agent_presets(game)) {
    if (preset.name == text) return preset.spec;
  }
  return std::nullopt;
}

}  // namespace sling
