#pragma once
// `heuristic`: the game's own rule-based policy (its heuristic_action hook).  Offered only for
// games that have one.

#include "agents/agent.h"
#include "agents/spec.h"

namespace sling {

template <Game G>
requires HasHeuristicPolicy<G>
class HeuristicAgent final : public Agent<G> {
 public:
  explicit HeuristicAgent(const G& game) : game_(game) {}
  void new_game(std::uint64_t seed) override { rng_ = Rng(seed, 0x68657572); }
  Action act(const typename G::State& state) override {
    return game_.heuristic_action(state, rng_);
  }
  std::string spec() const override { return "heuristic"; }

 private:
  const G& game_;
  Rng rng_;
};

}  // namespace sling
