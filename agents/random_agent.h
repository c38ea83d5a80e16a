#pragma once
// `random`: a uniformly random legal action.  The baseline every other agent must beat.

#include "agents/agent.h"
#include "agents/spec.h"

namespace sling {

template <Game G>
class RandomAgent final : public Agent<G> {
 public:
  explicit RandomAgent(const G& game) : game_(game) {}
  void new_game(std::uint64_t seed) override { rng_ = Rng(seed, 0x72616e64); }
  Action act(const typename G::State& state) override {
    return sample_uniform_action(game_, state, rng_);
  }
  std::string spec() const override { return "random"; }

 private:
  const G& game_;
  Rng rng_;
};

}  // namespace sling
