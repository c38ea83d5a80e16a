// An agent written inside Sling: a C++ class beside the built-in ones, playing a match against any
// built-in agent.  It links Sling's libraries (target sling_experiments) instead of speaking the
// protocol, so it gets Sling's game types, its agents and its match loop directly, and its moves
// cost a virtual call instead of a pipe round trip.  docs/extending.md explains the two lines
// that register such a class so that `sling match`, `tournament`, `play` and `serve` know it.
//
//   build-ex/examples/own_agent_match [OPPONENT] [GAMES]     (defaults: hold:20, 1000)
//   build-ex/examples/own_agent_match mcts:iterations=2000 200

#include <cmath>
#include <cstdint>
#include <exception>
#include <iostream>
#include <stdexcept>
#include <string>

#include "agents/registry.h"
#include "engine/pig/pig.h"
#include "experiments/play_game.h"

namespace {

using sling::pig::PigGame;
using sling::pig::PigState;

// "Keep pace and end race", the best of the simple Pig strategies in Neller and Presser's "Optimal
// Play of the Dice Game Pig" (2004): when either side is within 29 points of the goal, roll until
// reaching it; otherwise hold at 21 plus an eighth of the opponent's lead.  The constants are
// theirs, for the standard goal of 100.
class KeepPaceAgent final : public sling::Agent<PigGame> {
 public:
  explicit KeepPaceAgent(const PigGame& game) : game_(game) {}

  // This policy draws no random numbers; an agent that does seeds its generator here, so that a
  // game is reproducible from its seed.
  void new_game(std::uint64_t /*seed*/) override {}

  // Called only at the agent's own decisions; the answer must be one of the state's legal actions.
  sling::Action act(const PigState& state) override {
    const int mine = state.scores[state.to_move];
    const int theirs = state.scores[state.to_move ^ 1];
    const int total = state.turn_total;
    const int goal = game_.goal();
    if (mine + total >= goal) return sling::pig::kHold;  // holding wins now
    const int end_race_from = goal - 29;
    if (mine >= end_race_from || theirs >= end_race_from) return sling::pig::kRoll;
    const long hold_at = 21 + std::lround((theirs - mine) / 8.0);
    return total >= hold_at ? sling::pig::kHold : sling::pig::kRoll;
  }

  // The spec string that would build this agent once it is registered (docs/extending.md).
  std::string spec() const override { return "keep-pace"; }

 private:
  const PigGame& game_;
};

}  // namespace

int main(int argc, char** argv) {
  const std::string opponent_spec = argc > 1 ? argv[1] : "hold:20";
  try {
    const int games = argc > 2 ? std::stoi(argv[2]) : 1000;
    if (games < 1) throw std::invalid_argument("GAMES must be at least 1");
    const PigGame game;  // the default rules: goal 100
    KeepPaceAgent own(game);
    // Any spec string or preset that `sling agents pig` lists.
    const sling::AgentPtr<PigGame> opponent = sling::make_agent(game, opponent_spec);

    int wins = 0, errors = 0;
    for (int index = 0; index < games; ++index) {
      // Alternate the seats, since the first player has an edge; game `index` uses seed `index`,
      // so a run is reproducible.
      const bool own_first = index % 2 == 0;
      const sling::GameResult result =
          own_first ? sling::play_game(game, own, *opponent, static_cast<std::uint64_t>(index))
                    : sling::play_game(game, *opponent, own, static_cast<std::uint64_t>(index));
      const int own_side = own_first ? 0 : 1;
      if (result.winner == own_side) ++wins;
      if (!result.error.empty()) {
        ++errors;
        std::cerr << "game " << index << ": " << result.error << '\n';
      }
    }
    std::cout << own.spec() << " against " << opponent->spec() << ": won " << wins << " of "
              << games << " games (" << 100.0 * wins / games << " %), " << errors << " errors\n";
    return errors == 0 ? 0 : 1;
  } catch (const std::exception& error) {
    std::cerr << "own_agent_match: " << error.what() << '\n';
    return 2;
  }
}
