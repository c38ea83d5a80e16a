#include "experiments/training/danelaw_self_play.h"

#include <array>
#include <atomic>
#include <utility>
#include <vector>

#include "agents/danelaw_value.h"
#include "agents/game_value.h"
#include "agents/registry.h"
#include "engine/core/errors.h"
#include "experiments/match.h"

namespace sling::danelaw {

SelfPlayResult play_self_play(
    TrainingData& data, const SelfPlayOptions& options,
    const std::function<std::shared_ptr<const PositionValue>(const DanelawGame&)>& value_for) {
  if (data.variants.empty()) throw SlingError("danelaw self-play: no rules to play");
  const int variants = static_cast<int>(data.variants.size());
  SelfPlayResult outcome;
  const Rng seeds(options.seed, 0x73656c66);
  for (int variant = 0; variant < variants; ++variant) {
    const DanelawGame& game = data.variants[static_cast<std::size_t>(variant)];
    // Game i of the whole plays variant i % n: this variant's share, in that order.
    const int games = options.games / variants + (variant < options.games % variants ? 1 : 0);
    if (games == 0) continue;
    const std::shared_ptr<const PositionValue> value = value_for(game);
    std::atomic<bool> uses_value = false;  // set by the factory, on every thread that builds
    const AgentFactory<DanelawGame> factory = [&](const DanelawGame& g, const std::string& spec) {
      AgentPtr<DanelawGame> agent = make_agent(g, spec);
      auto* user = dynamic_cast<UsesGameValue<DanelawGame>*>(agent.get());
      if (user != nullptr && !user->value_named_by_spec()) {
        user->use_value(value);
        uses_value = true;
      }
      return agent;
    };
    std::vector<PlayedGame> per_game(static_cast<std::size_t>(games));
    MatchOptions match;
    match.games = games;
    match.seed = seeds.derive(static_cast<std::uint64_t>(variant)).next();
    match.threads = options.threads;
    match.on_game = [&](int index, const GameResult& played) {
      if (!played.error.empty()) return;  // the match counts it; reported below
      per_game[static_cast<std::size_t>(index)] = {variant, played.winner == kDanes, index % 5 == 0,
                                                   played.record.history};
    };
    const MatchResult result = run_match(game, {options.agent, options.agent}, match, factory);
    if (result.errors[0] + result.errors[1] > 0) {
      throw SlingError("danelaw self-play game: " + result.first_error);
    }
    for (PlayedGame& played : per_game) {
      append_positions(data, played);
      outcome.games.push_back(std::move(played));
    }
    outcome.danish_wins += result.wins[kDanes];
    outcome.agent_uses_value = outcome.agent_uses_value || uses_value;
  }
  return outcome;
}

}  // namespace sling::danelaw
