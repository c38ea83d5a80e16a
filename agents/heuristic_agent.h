#pragma once
// `heuristic`: the game's own rule-based policy (its heuristic_action hook).  Offered only for
// games that have one.
//
// `heuristic:blunder=P` plays a uniformly random legal action instead with probability P at each
// decision, the way engines weaken themselves for a skill level: the easy preset is the heuristic
// with blunders, so that a beginner meets a policy that makes mistakes a player can punish.

#include <cstdio>
#include <string>

#include "agents/agent.h"
#include "agents/spec.h"

namespace sling {

// The options of `heuristic`, read (and declared for `sling agents`) in one place.
inline double read_heuristic_options(OptionReader& reader) {
  return reader.real("blunder", 0.0, 0.0, 1.0,
                     "probability of a uniformly random legal action instead at each decision");
}

template <Game G>
requires HasHeuristicPolicy<G>
class HeuristicAgent final : public Agent<G> {
 public:
  explicit HeuristicAgent(const G& game, double blunder = 0.0) : game_(game), blunder_(blunder) {}
  void new_game(std::uint64_t seed) override {
    rng_ = Rng(seed, 0x68657572);
    // A stream of its own, so that blunder=0 plays exactly the plain heuristic's games.
    blunder_rng_ = Rng(seed, 0x626c756e);
  }
  Action act(const typename G::State& state) override {
    if (blunder_ > 0.0 && blunder_rng_.uniform01() < blunder_) {
      return sample_uniform_action(game_, state, blunder_rng_);
    }
    return game_.heuristic_action(state, rng_);
  }
  std::string spec() const override {
    if (blunder_ == 0.0) return "heuristic";
    char text[48];
    std::snprintf(text, sizeof text, "heuristic:blunder=%g", blunder_);
    return text;
  }

 private:
  const G& game_;
  double blunder_;
  Rng rng_;
  Rng blunder_rng_;
};

}  // namespace sling
