#pragma once
// Builds agents from spec strings ("mcts:iterations=20000,c=1.4").  Every agent a game supports is
// listed here with its options, so `sling agents` and the error for an unknown agent stay in step.
//
// Generic agents are offered according to the hooks a game has (checked at compile time); a game's
// own agents (Pig's solver and hold:N, the duel's solver agent, danelaw's planner) plug in through
// GameAgents<G> (agents/game_agents.h): include the game's agent header below (pig_agents.h,
// duel_agents.h, danelaw_agents.h).

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "agents/agent.h"
#include "agents/danelaw_agents.h"
#include "agents/duel_agents.h"
#include "agents/external_agent.h"
#include "agents/game_agents.h"
#include "agents/game_value.h"
#include "agents/heuristic_agent.h"
#include "agents/pig_agents.h"
#include "agents/presets.h"
#include "agents/random_agent.h"
#include "agents/search_agents.h"
#include "agents/spec.h"

namespace sling {

// The agents available for game G, in display order.
template <Game G>
std::vector<AgentInfo> agent_catalogue(const G& game) {
  std::vector<AgentInfo> out;
  out.push_back({"random", "a uniformly random legal action", {}});
  if constexpr (HasHeuristicPolicy<G>) {
    out.push_back(describe_agent("heuristic", "the game's rule-based policy",
                                 [](OptionReader& r) { read_heuristic_options(r); }));
  }
  out.push_back(describe_agent("expectimax",
                               "depth-limited expectiminimax with Star1/Star2 pruning, iterative "
                               "deepening and a transposition table",
                               [](OptionReader& r) { read_expectimax_options<G>(r); }));
  out.push_back(describe_agent(
      "mcts", "Monte Carlo tree search with explicit chance nodes, UCT and progressive widening",
      [](OptionReader& r) { read_mcts_options<G>(r); }));
  GameAgents<G>::catalogue(game, out);
  if constexpr (SerializableState<typename G::State>) {
    out.push_back(describe_agent(
        "external",
        "an agent program of your own, in any language, speaking the "
        "agent protocol on stdin/stdout (docs/protocol.md)",
        [](OptionReader& r) { read_external_options(r); },
        AgentSpec{"external", {{"cmd", "program"}}}));
  }
  return out;
}

// Builds the agent of a spec string or of a preset name (easy, normal, strong; agents/presets.h).
template <Game G>
AgentPtr<G> make_agent(const G& game, std::string_view text) {
  if (const std::optional<std::string> preset = preset_spec(game, text)) {
    return make_agent(game, *preset);
  }
  const AgentSpec spec = parse_agent_spec(text);
  if (spec.name == "random") {
    OptionReader(spec).finish();
    return std::make_unique<RandomAgent<G>>(game);
  }
  if constexpr (HasHeuristicPolicy<G>) {
    if (spec.name == "heuristic") {
      OptionReader r(spec);
      const double blunder = read_heuristic_options(r);
      r.finish();
      return std::make_unique<HeuristicAgent<G>>(game, blunder);
    }
  }
  if (spec.name == "mcts") {
    OptionReader r(spec);
    typename GameValue<G>::Options value_options;
    const search::MctsConfig config = read_mcts_options<G>(r, &value_options);
    r.finish();
    if constexpr (GameValue<G>::kAvailable) {
      if (config.value_leaves) {
        using Value = typename GameValue<G>::Function;
        return std::make_unique<MctsAgent<G, Value>>(
            game, config, GameValue<G>::make(game, value_options), value_options);
      }
    }
    return std::make_unique<MctsAgent<G>>(game, config, nullptr, value_options);
  }
  if (spec.name == "expectimax") {
    OptionReader r(spec);
    typename GameValue<G>::Options value_options;
    const search::ExpectimaxConfig config = read_expectimax_options<G>(r, &value_options);
    r.finish();
    if constexpr (GameValue<G>::kAvailable) {
      if (config.value_leaves) {
        using Value = typename GameValue<G>::Function;
        return std::make_unique<ExpectimaxAgent<G, Value>>(
            game, config, GameValue<G>::make(game, value_options), value_options);
      }
    }
    return std::make_unique<ExpectimaxAgent<G>>(game, config, nullptr, value_options);
  }
  if constexpr (SerializableState<typename G::State>) {
    if (spec.name == "external") return make_external_agent(game, spec);  // states go as JSON
  }
  if (AgentPtr<G> own = GameAgents<G>::make(game, spec)) return own;
  std::string names;
  for (const AgentInfo& info : agent_catalogue(game))
    names += (names.empty() ? "" : ", ") + info.name;
  throw OptionError("unknown agent '" + spec.name + "' for " + std::string(game.info().name) +
                    " (valid agents: " + names + "; presets: easy, normal, strong)");
}

// Builds an agent from its spec: make_agent when empty.  Matches and tournaments take one, so that
// tests add agents of known strength and Python adds its callables, by spec name.
template <Game G>
using AgentFactory = std::function<AgentPtr<G>(const G& game, const std::string& spec)>;

template <Game G>
AgentPtr<G> build_agent(const AgentFactory<G>& factory, const G& game, const std::string& spec) {
  return factory ? factory(game, spec) : make_agent(game, spec);
}

// The three registered games' agents are compiled once, in agents/registry.cpp: building any of
// them instantiates the whole search stack (MCTS and expectimax over the game and its value), which
// every file that names an agent would otherwise compile again.  Other games (a test's variant, an
// example's own game) instantiate the templates above where they use them, as before.
extern template std::vector<AgentInfo> agent_catalogue(const pig::PigGame&);
extern template std::vector<AgentInfo> agent_catalogue(const duel::DuelGame&);
extern template std::vector<AgentInfo> agent_catalogue(const danelaw::DanelawGame&);
extern template AgentPtr<pig::PigGame> make_agent(const pig::PigGame&, std::string_view);
extern template AgentPtr<duel::DuelGame> make_agent(const duel::DuelGame&, std::string_view);
extern template AgentPtr<danelaw::DanelawGame> make_agent(const danelaw::DanelawGame&,
                                                          std::string_view);

}  // namespace sling
