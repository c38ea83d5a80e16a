#include "experiments/training/paired_games.h"

#include <array>

#include "engine/core/errors.h"
#include "experiments/match.h"
#include "experiments/mpi_jobs.h"

namespace sling::danelaw {

std::string with_model(const std::string& agent, const std::string& model_path) {
  return agent + (agent.find(':') == std::string::npos ? ":" : ",") + "value_model='" + model_path +
         "'";
}

std::vector<int> paired_winners(const DanelawGame& game, const std::string& a, const std::string& b,
                                int pairs, std::uint64_t seed, int threads) {
  std::vector<int> winners(2 * static_cast<std::size_t>(pairs), -1);
  for (const int a_side : {0, 1}) {
    MatchOptions match;
    match.games = pairs;
    match.seed = seed;
    match.threads = threads;
    match.on_game = [&](int index, const GameResult& played) {
      winners[2 * static_cast<std::size_t>(index) + static_cast<std::size_t>(a_side)] =
          played.winner;
    };
    const std::array<std::string, 2> specs =
        a_side == 0 ? std::array<std::string, 2>{a, b} : std::array<std::string, 2>{b, a};
    const MatchResult result = run_match(game, specs, match);
    if (result.errors[0] + result.errors[1] > 0) {
      throw SlingError("training run: a game between '" + a + "' and '" + b +
                       "' failed: " + result.first_error);
    }
  }
  return winners;
}

double paired_score(const std::vector<int>& winners) {
  if (winners.empty()) return 0.5;
  double points = 0;
  for (std::size_t i = 0; i < winners.size(); ++i) {
    const int a_side = static_cast<int>(i % 2);  // a plays side 0, then side 1
    points += winners[i] < 0 ? 0.5 : (winners[i] == a_side ? 1.0 : 0.0);
  }
  return points / static_cast<double>(winners.size());
}

std::string tell_workers(const std::string& text) {
  return mpi::distributed() ? mpi::broadcast_text(text) : text;
}

}  // namespace sling::danelaw
