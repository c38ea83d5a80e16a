#pragma once
// An SPRT match: agents A and B play pairs of games on the same dice (A on side 0 then A on side
// 1, one game seed per pair) until the sequential probability ratio test on the paired results
// decides, or the pair budget runs out.
//
// Pairs are played in parallel in fixed-size batches, but fed to the test strictly in pair order
// and the test stops at the first deciding pair: later pairs of the last batch are discarded.  So
// the decision, the pair count and every figure are the same for any thread count.

#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <array>
#include <string>
#include <vector>

#include "agents/registry.h"
#include "experiments/match.h"
#include "experiments/sprt.h"

namespace sling {

struct SprtMatchResult {
  std::array<std::string, 2> specs;  // agent A (given for side 0), agent B (given for side 1)
  SprtDecision decision = SprtDecision::kContinue;
  std::string summary;  // Sprt::summary() at the stop
  std::int64_t pairs = 0;
  double seconds = 0;
  double elo = 0;  // A relative to B, from the paired scores
  double elo_ci_halfwidth = 0;
};

inline constexpr int kSprtBatchPairs = 16;  // fixed, so results never depend on --threads

template <Game G>
SprtMatchResult run_sprt_match(const G& game, const std::array<std::string, 2>& specs,
                               const MatchOptions& options, const SprtParameters& parameters) {
  if (options.games < 1) throw OptionError("an SPRT match needs at least one pair");
  SprtMatchResult result;
  result.specs = {make_agent(game, specs[0])->spec(), make_agent(game, specs[1])->spec()};
  Sprt sprt(parameters);
  const auto start = std::chrono::steady_clock::now();
  tbb::task_arena arena(options.threads > 0 ? options.threads : tbb::task_arena::automatic);
  for (int first = 0; first < options.games && sprt.status() == SprtDecision::kContinue;
       first += kSprtBatchPairs) {
    const int count = std::min(kSprtBatchPairs, options.games - first);
    std::vector<std::array<int, 2>> winners(static_cast<std::size_t>(count));
    arena.execute([&] {
      tbb::parallel_for(0, count, [&](int k) {
        const std::uint64_t seed = match_game_seed(options.seed, first + k);
        auto a = make_agent(game, specs[0]);
        auto b = make_agent(game, specs[1]);
        winners[static_cast<std::size_t>(k)][0] =
            play_game(game, *a, *b, seed, options.max_plies, options.turn_limit).winner;
        winners[static_cast<std::size_t>(k)][1] =
            play_game(game, *b, *a, seed, options.max_plies, options.turn_limit).winner;
      });
    });
    for (const auto& pair : winners) {
      sprt.add_pair_winners(pair[0], pair[1]);
      if (sprt.status() != SprtDecision::kContinue) break;
    }
  }
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  result.decision = sprt.status();
  result.summary = sprt.summary();
  result.pairs = sprt.pairs();
  result.elo = sprt.elo();
  result.elo_ci_halfwidth = sprt.elo_ci_halfwidth();
  return result;
}

}  // namespace sling
