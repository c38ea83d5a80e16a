#pragma once
// Agents for the terminal: "human", the difficulty presets and any agent spec of the registry.
//
// Presets (docs/play.md):
//   easy   = heuristic                                  the game's rule-of-thumb policy
//   normal = mcts:iterations=2000,rollout=heuristic     a quick search (well under a second a move)
//   strong = mcts:iterations=20000,rollout=heuristic    a deeper search (a few seconds a move)

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "agents/agent.h"
#include "agents/registry.h"
#include "engine/core/errors.h"

namespace sling::play {

struct Preset {
  std::string_view name;
  std::string_view spec;
  std::string_view help;
};

inline constexpr Preset kPresets[] = {
    {"easy", "heuristic", "the game's rule-of-thumb policy (instant)"},
    {"normal", "mcts:iterations=2000,rollout=heuristic", "a quick Monte Carlo tree search"},
    {"strong", "mcts:iterations=20000,rollout=heuristic", "a deeper Monte Carlo tree search"},
};

// The spec a preset stands for, or `text` itself when it names no preset.
inline std::string resolve_preset(std::string_view text) {
  for (const Preset& p : kPresets) {
    if (p.name == text) return std::string(p.spec);
  }
  return std::string(text);
}

template <Game G>
bool registry_has(const G& game, std::string_view name) {
  const auto catalogue = agent_catalogue(game);
  return std::any_of(catalogue.begin(), catalogue.end(),
                     [&](const AgentInfo& info) { return info.name == name; });
}

// "human" is not an agent; everything else is a preset or an agent spec.
inline bool is_human(std::string_view text) { return text == "human"; }

// Until the registry offers `heuristic`, the game's heuristic_action hook behind the Agent
// interface (removed once the registry has its own).
template <Game G>
class RuleOfThumbAgent final : public Agent<G> {
 public:
  explicit RuleOfThumbAgent(const G& game) : game_(game) {}
  void new_game(std::uint64_t seed) override { rng_ = Rng(seed, 0x68657572); }
  Action act(const typename G::State& state) override { return game_.heuristic_action(state, rng_); }
  std::string spec() const override { return "heuristic"; }

 private:
  const G& game_;
  Rng rng_;
};

template <Game G>
AgentPtr<G> make_play_agent(const G& game, std::string_view text) {
  const std::string spec = resolve_preset(text);
  const AgentSpec parsed = parse_agent_spec(spec);
  if (!registry_has(game, parsed.name)) {
    if constexpr (HasHeuristicPolicy<G>) {
      if (parsed.name == "heuristic") {
        OptionReader(parsed).finish();
        return std::make_unique<RuleOfThumbAgent<G>>(game);
      }
    }
    if (spec != text) {
      throw OptionError("preset '" + std::string(text) + "' needs the agent '" + parsed.name +
                        "', which this build of Sling lacks for " + std::string(game.info().name));
    }
  }
  return make_agent(game, spec);
}

}  // namespace sling::play
