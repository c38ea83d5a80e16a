#pragma once
// The agent boundary: the one place where Sling uses type erasure.  Search is templated on the
// game; an Agent<G> wraps it behind a virtual interface so that matches, tournaments and the
// terminal can pick agents from spec strings at run time.  One virtual call per move is nothing
// next to the search behind it.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "engine/core/game.h"

namespace sling {

// Statistics of one candidate action after a search (for hints and analysis).
struct ActionStat {
  Action action = kInvalidAction;
  double value = 0;         // expected return for the player to move, in [-1, 1]
  std::int64_t visits = 0;  // MCTS visits, or 0 for exact/expectimax values
};

struct Analysis {
  double value = 0;                 // the agent's value of the position for the player to move
  std::vector<ActionStat> actions;  // best first
  std::int64_t nodes = 0;           // nodes or simulations spent
  bool exact = false;               // values are exact (a solver) rather than estimates
  std::string note;                 // a line for the person at the table (e.g. the agent switched
                                    // to better values); usually empty
};

// How a game ended, told to both agents when it is over.
struct GameEnd {
  int winner = -1;                   // the winning side, or -1 for a draw or an unfinished game
  Returns returns{0.0, 0.0};         // each side's payoff
  std::string reason = "abandoned";  // the game's end reason, "ply limit", "error", "abandoned"
  int plies = 0;
};

template <Game G>
class Agent {
 public:
  using State = typename G::State;
  virtual ~Agent() = default;

  // Starts a new game.  `seed` drives every random choice the agent makes in that game, so a game
  // is reproducible from the seeds alone.
  virtual void new_game(std::uint64_t seed) = 0;
  // Chooses an action for the player to move; `state` is at a decision node.
  virtual Action act(const State& state) = 0;
  // Informs the agent of every decision and chance outcome applied (tree reuse); optional.
  virtual void observe(const State& before, Action applied) {
    (void)before;
    (void)applied;
  }
  // The game is over (also when it was cut off or an agent failed); optional.  An agent that
  // sees the final ply through observe() may already know.
  virtual void game_over(const GameEnd& end) { (void)end; }
  // What the last act() found; agents that do not search return an empty analysis.
  virtual Analysis last_analysis() const { return {}; }
  // The spec string that rebuilds this agent, with every option spelled out.
  virtual std::string spec() const = 0;
  // True when a tournament may keep this agent for game after game instead of building a fresh one
  // for each (experiments/tournament/agent_pool.h): its play in a game then depends on
  // new_game's seed alone.  An agent program says yes, since starting it costs more than a game;
  // built-in agents say no, since their caches carry over between games and a game's play would
  // then depend on which games its worker thread happened to play before.
  virtual bool reusable_across_games() const { return false; }
};

template <Game G>
using AgentPtr = std::unique_ptr<Agent<G>>;

}  // namespace sling
