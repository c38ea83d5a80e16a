#pragma once
// Danelaw's self-play for value learning: one agent against itself, on the match harness
// (experiments/match.h: its threads, seeds and MPI ranks), writing the positions of every game into
// the training data (danelaw_training_data.h).  An agent that scores with the game's value function
// (UsesGameValue, agents/game_value.h) scores with the evaluator given here unless its spec names
// its own model file; any other agent plays as its spec says.

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "engine/danelaw/danelaw.h"
#include "experiments/training/danelaw_training_data.h"

namespace sling::danelaw {

struct SelfPlayOptions {
  std::string agent = "heuristic";  // the spec of both sides
  int games = 100;                  // over all the data's variants: game i plays variant i % n
  std::uint64_t seed = 1;
  int threads = 0;  // 0 = every core
};

struct SelfPlayResult {
  int danish_wins = 0;
  bool agent_uses_value = false;  // whether the agent scored with the given evaluators
  std::vector<PlayedGame> games;  // every game played, in the order their positions were added
};

// Plays the games and appends their positions to `data` (in game order, so the same for any
// thread count); every fifth game of each variant is held out.  `value_for(game)` is the evaluator
// for the agents of each of `data.variants`.
SelfPlayResult play_self_play(
    TrainingData& data, const SelfPlayOptions& options,
    const std::function<std::shared_ptr<const PositionValue>(const DanelawGame&)>& value_for);

}  // namespace sling::danelaw
