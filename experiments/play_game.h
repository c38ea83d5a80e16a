#pragma once
// Plays one game between two agents.  The dice follow the one convention of engine/core/dice.h (the
// die of ply n from its own stream of the game seed, as in `sling play`) and each agent gets its
// own seed, all derived from one game seed: a game is reproducible from (agents, rules, seed)
// alone, whatever thread or process plays it, and `sling play --seed` with the same seed throws the
// same dice.

#include <chrono>
#include <string>

#include "agents/agent.h"
#include "engine/core/dice.h"
#include "engine/core/game_limit.h"
#include "engine/core/record.h"

namespace sling {

struct GameResult {
  int winner = -1;         // side index, or -1 for a draw
  std::string end_reason;  // how the game ended (game-specific), or "error"
  std::string error;       // the error message when an agent failed
  int error_side = -1;     // the side whose agent failed
  int plies = 0;           // decisions and chance outcomes applied
  double seconds = 0;
  GameRecord record;
};

// Stream ids: the dice use the game seed's stream 0 (one derived stream per ply, dice.h); agent i
// uses stream 1 + i.
inline std::uint64_t agent_seed(std::uint64_t game_seed, int side) {
  return Rng(game_seed, 1 + static_cast<std::uint64_t>(side)).next();
}

// The game is drawn at `turn_limit` turns (engine/core/game_limit.h; 0: no limit) in a game with
// turns, and cut off as a draw ("ply limit") after `max_plies` plies in any game.
template <Game G>
GameResult play_game(const G& rules_game, Agent<G>& first, Agent<G>& second, std::uint64_t seed,
                     int max_plies = 1'000'000, int turn_limit = kDefaultAgentTurnLimit) {
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  const TurnLimited<G> limited(rules_game, turn_limit);
  const G& game = limited.game();
  GameResult result;
  result.record = GameRecord{std::string(game.info().name), game.rules_json(), seed, {}};
  result.record.turn_limit = recorded_turn_limit<G>(turn_limit);
  Agent<G>* agents[2] = {&first, &second};
  agents[0]->new_game(agent_seed(seed, 0));
  agents[1]->new_game(agent_seed(seed, 1));
  typename G::State state = game.initial_state();
  while (!game.is_terminal(state)) {
    if (result.plies >= max_plies) {
      result.end_reason = "ply limit";
      break;
    }
    const Player player = game.current_player(state);
    Action action;
    if (player == kChancePlayer) {
      action = roll_dice(game, state, seed, static_cast<std::uint64_t>(result.plies));
    } else {
      try {
        action = agents[player]->act(state);
        typename G::State check = state;
        game.apply_action(check, action);  // an agent's illegal move is that agent's error
      } catch (const std::exception& e) {
        result.winner = 1 - player;
        result.end_reason = "error";
        result.error = e.what();
        result.error_side = player;
        break;
      }
    }
    agents[0]->observe(state, action);
    agents[1]->observe(state, action);
    apply_any(game, state, action);
    result.record.history.push_back(action);
    ++result.plies;
  }
  if (game.is_terminal(state)) {
    const Returns r = game.returns(state);
    result.winner = r[0] > r[1] ? 0 : (r[1] > r[0] ? 1 : -1);
    if constexpr (HasEndReason<G>) {
      result.end_reason = std::string(game.end_reason(state));
    } else {
      result.end_reason = "end";
    }
  }
  GameEnd end{result.winner, {0.0, 0.0}, result.end_reason, result.plies};
  if (game.is_terminal(state)) {
    end.returns = game.returns(state);
  } else if (result.winner >= 0) {  // an agent's error: the other side wins
    end.returns[static_cast<std::size_t>(result.winner)] = 1;
    end.returns[static_cast<std::size_t>(1 - result.winner)] = -1;
  }
  agents[0]->game_over(end);
  agents[1]->game_over(end);
  result.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return result;
}

}  // namespace sling
