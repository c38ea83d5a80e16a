// Games per second of `sling tournament` on 1, 2, 3 and 4 MPI ranks of this machine (rank 0 deals
// the games and writes the files; ranks 1..N-1 play, one game at a time each), and rank 0's own
// cost per game.  Each iteration launches `mpirun -np N sling tournament ...` and times it whole,
// start and report included, as a user would.
//
//   ./build/bench/sling_bench --benchmark_filter=TournamentMpi
//
// Built only when the build has MPI.
#ifdef SLING_MPIEXEC

#include <benchmark/benchmark.h>

#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <string>

#include "tests/build_paths.h"

namespace sling {
namespace {

namespace fs = std::filesystem;

// Runs a tournament of `games` games on `ranks` ranks; returns its wall seconds.
double timed_tournament(int ranks, const std::string& agents, int pairs) {
  const fs::path out =
      fs::temp_directory_path() / ("sling_mpi_bench_" + std::to_string(::getpid()));
  fs::remove_all(out);
  const std::string command = std::string(SLING_MPIEXEC) +
                              " --allow-run-as-root --oversubscribe -np " + std::to_string(ranks) +
                              " " + SLING_BINARY + " tournament duel " + agents + " --games " +
                              std::to_string(pairs) + " --threads 1 --quiet --out " + out.string() +
                              " > /dev/null 2>&1 < /dev/null";
  const auto start = std::chrono::steady_clock::now();
  const int status = std::system(command.c_str());
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  fs::remove_all(out);
  return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? seconds : -1;
}

// Each iteration one tournament of `pairs` pairs of two agents on state.range(0) ranks, timed
// whole, and the games per second over them; false (the benchmark marked failed) when one fails.
bool time_tournaments(benchmark::State& state, const std::string& agents, int pairs) {
  const int ranks = static_cast<int>(state.range(0));
  double seconds = 0;
  for (auto _ : state) {
    const double s = timed_tournament(ranks, agents, pairs);
    if (s < 0) {
      state.SkipWithError("the tournament failed");
      return false;
    }
    seconds += s;
    state.SetIterationTime(s);
  }
  state.counters["games_per_s"] =
      benchmark::Counter(2.0 * pairs * static_cast<double>(state.iterations()) / seconds);
  return true;
}

// Searching agents: about 40 ms a game, long enough that a game dominates the message round trip.
void BM_TournamentMpiRanks(benchmark::State& state) {
  constexpr int kPairs = 40;  // 2 agents: 80 games
  if (!time_tournaments(state, "--agent mcts:iterations=100 --agent heuristic", kPairs)) return;
  const int ranks = static_cast<int>(state.range(0));
  state.counters["playing_ranks"] = ranks == 1 ? 1 : ranks - 1;
}
BENCHMARK(BM_TournamentMpiRanks)
    ->Arg(1)
    ->Arg(2)
    ->Arg(3)
    ->Arg(4)
    ->Iterations(2)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);

// Random agents: games of a few microseconds, so the time is start-up plus rank 0's work per game
// (a message each way, decoding, three appends).  The difference between 2 ranks (one worker) and
// 1 rank (no messages) over the game count is rank 0's cost per game.
void BM_TournamentMpiRandomGames(benchmark::State& state) {
  constexpr int kPairs = 2000;  // 4,000 games
  time_tournaments(state, "--agent random --agent heuristic", kPairs);
}
BENCHMARK(BM_TournamentMpiRandomGames)
    ->Arg(1)
    ->Arg(2)
    ->Iterations(2)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace sling

#endif  // SLING_MPIEXEC
