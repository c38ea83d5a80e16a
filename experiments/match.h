#pragma once
// A match: N games between two fixed agents, one per side, played in parallel.
//
// Game i's seed is derived from (base seed, i) alone, each worker thread builds its own pair of
// agents and calls new_game(seed) before every game, and the per-game results are summed in game
// order after the parallel loop.  So a match's result is the same for any --threads.

#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <array>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "agents/registry.h"
#include "engine/core/record.h"
#include "experiments/play_game.h"

namespace sling {

struct MatchOptions {
  int games = 100;
  std::uint64_t seed = 1;
  int threads = 0;         // 0 = every core
  std::string record_dir;  // when set, each game's record is saved there
  int max_plies = 1'000'000;
};

struct Interval {
  double low = 0;
  double high = 0;
};

// Wilson score interval for a binomial proportion (95% by default).
Interval wilson_interval(std::int64_t successes, std::int64_t trials, double z = 1.959963984540054);

struct MatchResult {
  std::string game;
  std::array<std::string, 2> sides;  // side names
  std::array<std::string, 2> specs;  // each side's agent, every option spelled out
  std::uint64_t seed = 0;
  int games = 0;
  std::array<int, 2> wins{};
  int draws = 0;                // includes games stopped at the ply limit
  std::array<int, 2> errors{};  // games a side lost because its agent failed
  std::string first_error;      // the first agent error, in game order
  double mean_plies = 0;
  double seconds = 0;
  std::map<std::string, int> end_reasons;

  Interval win_interval(int side) const { return wilson_interval(wins[side], games); }
  double win_rate(int side) const { return games ? static_cast<double>(wins[side]) / games : 0; }
};

std::string match_to_text(const MatchResult& result);
std::string match_to_json(const MatchResult& result);

// The seed of game `index` of a match with base seed `seed`.
inline std::uint64_t match_game_seed(std::uint64_t seed, int index) {
  return Rng(seed, 0x6d61746368).derive(static_cast<std::uint64_t>(index)).next();
}

template <Game G>
MatchResult run_match(const G& game, const std::array<std::string, 2>& specs,
                      const MatchOptions& options) {
  if (options.games < 1) throw OptionError("a match needs at least one game");
  MatchResult result;
  result.game = std::string(game.info().name);
  result.sides = {std::string(game.info().sides[0]), std::string(game.info().sides[1])};
  result.seed = options.seed;
  result.games = options.games;
  // Build once up front: a bad spec is reported before any game starts.
  result.specs = {make_agent(game, specs[0])->spec(), make_agent(game, specs[1])->spec()};
  if (!options.record_dir.empty()) std::filesystem::create_directories(options.record_dir);

  struct Outcome {
    int winner = -1;
    int plies = 0;
    int error_side = -1;
    std::string end_reason;
    std::string error;
  };
  std::vector<Outcome> outcomes(static_cast<std::size_t>(options.games));
  struct Players {
    AgentPtr<G> agents[2];
  };
  tbb::enumerable_thread_specific<Players> workers([&] {
    return Players{{make_agent(game, specs[0]), make_agent(game, specs[1])}};
  });

  const auto start = std::chrono::steady_clock::now();
  tbb::task_arena arena(options.threads > 0 ? options.threads : tbb::task_arena::automatic);
  arena.execute([&] {
    tbb::parallel_for(0, options.games, [&](int index) {
      Players& players = workers.local();
      GameResult played = play_game(game, *players.agents[0], *players.agents[1],
                                    match_game_seed(options.seed, index), options.max_plies);
      Outcome& o = outcomes[static_cast<std::size_t>(index)];
      o.winner = played.winner;
      o.plies = played.plies;
      o.error_side = played.error_side;
      o.end_reason = played.end_reason;
      o.error = played.error;
      if (!options.record_dir.empty()) {
        char name[32];
        std::snprintf(name, sizeof name, "game-%06d.json", index);
        save_record((std::filesystem::path(options.record_dir) / name).string(), played.record);
      }
    });
  });
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  std::int64_t plies = 0;
  for (const Outcome& o : outcomes) {
    if (o.winner >= 0) {
      ++result.wins[o.winner];
    } else {
      ++result.draws;
    }
    if (o.error_side >= 0) {
      ++result.errors[o.error_side];
      if (result.first_error.empty()) result.first_error = o.error;
    }
    plies += o.plies;
    ++result.end_reasons[o.end_reason];
  }
  result.mean_plies = static_cast<double>(plies) / options.games;
  return result;
}

}  // namespace sling
