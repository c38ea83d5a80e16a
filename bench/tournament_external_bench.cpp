// An agent program in a tournament against the same program in a match: Pig, `random` against the
// Python example agent (examples/python/random_agent.py, Debian's python3), 200 games.  A match
// keeps one program per worker thread; so does a tournament with process=keep (agent_pool.h), and
// its time per game should stay within twice the match's (its files cost the rest).  process=game,
// a program started for every game, is timed too, for scale.
//
//   ./build/bench/sling_bench --benchmark_filter='ExternalPig(Tournament|Match)'
//
// Counters: ms/game, the wall time per game (the arguments: threads, and 1 for process=game).

#include <benchmark/benchmark.h>

#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <sstream>

#include "engine/pig/pig.h"
#include "experiments/match.h"
#include "experiments/tournament/tournament.h"
#include "tests/build_paths.h"

namespace sling {
namespace {

namespace fs = std::filesystem;
using pig::PigGame;

constexpr int kGames = 200;

// The agent's log and the tournament's files; made anew by each benchmark, removed after it.
fs::path scratch() {
  const fs::path dir =
      fs::temp_directory_path() / ("sling-bench-tournament-external-" + std::to_string(getpid()));
  fs::create_directories(dir);
  return dir;
}

std::string python_agent(bool process_per_game) {
  return "external:cmd='/usr/bin/python3 " + std::string(SLING_SOURCE_DIR) +
         "/examples/python/random_agent.py',log=" + (scratch() / "agent.log").string() +
         (process_per_game ? ",process=game" : "");
}

void report_per_game(benchmark::State& state, double seconds) {
  const double games = static_cast<double>(kGames) * static_cast<double>(state.iterations());
  state.counters["ms/game"] = benchmark::Counter(1000 * seconds / games);
  state.SetItemsProcessed(static_cast<std::int64_t>(games));
}

// The whole tournament, files and report included, into a fresh directory each time.
void BM_ExternalPigTournament(benchmark::State& state) {
  const PigGame game;
  TournamentConfig config;
  config.game = "pig";
  config.rules = game.rules_json();
  config.agents = {"random", python_agent(state.range(1) != 0)};
  config.pairs_per_pairing = kGames / 2;
  config.seed = 3;
  config.turn_limit = kDefaultAgentTurnLimit;
  TournamentOptions options;
  options.out_dir = (scratch() / "tournament").string();
  options.threads = static_cast<int>(state.range(0));
  double seconds = 0;
  for (auto _ : state) {
    fs::remove_all(options.out_dir);
    std::ostringstream log;
    const auto start = std::chrono::steady_clock::now();
    const TournamentReport report = run_tournament(game, config, options, log);
    seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    benchmark::DoNotOptimize(report);
  }
  report_per_game(state, seconds);
  fs::remove_all(scratch());
}
BENCHMARK(BM_ExternalPigTournament)
    ->Args({1, 0})
    ->Args({2, 0})
    ->Iterations(3)
    ->UseRealTime()  // the programs are other processes: the wall clock is the cost
    ->Unit(benchmark::kMillisecond);
// A program per game: once is enough to see the difference.
BENCHMARK(BM_ExternalPigTournament)
    ->Args({2, 1})
    ->Iterations(1)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

// The same two agents in a match of as many games.
void BM_ExternalPigMatch(benchmark::State& state) {
  const PigGame game;
  MatchOptions options;
  options.games = kGames;
  options.seed = 3;
  options.threads = static_cast<int>(state.range(0));
  const std::array<std::string, 2> specs = {"random", python_agent(false)};
  double seconds = 0;
  for (auto _ : state) {
    const auto start = std::chrono::steady_clock::now();
    const MatchResult result = run_match(game, specs, options);
    seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (result.errors[1] > 0) state.SkipWithError(result.first_error.c_str());
  }
  report_per_game(state, seconds);
  fs::remove_all(scratch());
}
BENCHMARK(BM_ExternalPigMatch)
    ->Arg(1)
    ->Arg(2)
    ->Iterations(3)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace sling
