#pragma once
// A worker's agents across a tournament's games.  Most agents are built fresh for every game, so
// nothing carries over from one game to the next; but an agent program (external:..., process=keep)
// takes far longer to start than a Pig game takes to play, so each worker keeps the ones that say
// they may be reused (Agent::reusable_across_games) for its next game, as a match does.  A game
// borrows its two agents from its worker's pool and gives them back when it is over; at the end of
// the tournament the pool is destroyed, and with it the kept programs, politely (quit).
//
// One pool per worker (a thread, an MPI rank's thread, never shared), so at most one program per
// worker and agent of the configuration is alive.  The two sides of a game are two agents of the
// configuration (the schedule pairs agent i with agent j != i), so a game never needs two instances
// of one index.  A game that fails outside play_game gives nothing back: its agents are in an
// unknown state, and the next game builds fresh ones.

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "agents/agent.h"
#include "agents/registry.h"  // AgentFactory

namespace sling {

template <Game G>
class AgentPool {
 public:
  AgentPool(const G& game, const std::vector<std::string>& specs, const AgentFactory<G>& factory)
      : game_(game), specs_(specs), factory_(factory), kept_(specs.size()) {}

  // The agent of the configuration's agent `index`: the kept one when there is one (moved out, so
  // that a game nested on the same thread cannot take it too), else a fresh one.
  AgentPtr<G> borrow(int index) {
    AgentPtr<G>& kept = kept_[static_cast<std::size_t>(index)];
    if (kept) return std::move(kept);
    return factory_(game_, specs_[static_cast<std::size_t>(index)]);
  }

  // Takes the agent back after its game; it is kept when it may play another, else destroyed.
  void give_back(int index, AgentPtr<G> agent) {
    AgentPtr<G>& kept = kept_[static_cast<std::size_t>(index)];
    if (agent && !kept && agent->reusable_across_games()) kept = std::move(agent);
  }

 private:
  const G& game_;
  const std::vector<std::string>& specs_;
  const AgentFactory<G>& factory_;
  std::vector<AgentPtr<G>> kept_;  // by agent index; empty where none is kept
};

}  // namespace sling
