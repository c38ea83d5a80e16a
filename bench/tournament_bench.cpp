// Tournament harness benchmarks on the duel: games per second on 1 and 2 threads (the scaling), and
// the harness's own cost against the same games played in a plain loop (no threads, no files).
//
//   ./build/bench/sling_bench --benchmark_filter=Tournament
//
// The searching agent is `mcts` when the agent catalogue has it; otherwise a flat Monte Carlo agent
// defined here (a few heuristic rollouts per candidate action), which loads the cores the same way.

#include <benchmark/benchmark.h>

#include <sys/resource.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <sstream>
#include <thread>
#include <vector>

#include "engine/duel/duel.h"
#include "experiments/tournament/tournament.h"
#include "search/common.h"

namespace sling {
namespace {

namespace fs = std::filesystem;
using duel::DuelGame;

// Flat Monte Carlo: each candidate action is scored by `playouts` heuristic rollouts.
class FlatMonteCarlo final : public Agent<DuelGame> {
 public:
  FlatMonteCarlo(const DuelGame& game, int playouts, std::string spec)
      : game_(game), playouts_(playouts), spec_(std::move(spec)) {}
  void new_game(std::uint64_t seed) override { rng_ = Rng(seed, 0x666c6174); }
  Action act(const DuelGame::State& state) override {
    ActionList<DuelGame> candidates;
    game_.candidate_actions(state, candidates);
    const Player mover = game_.current_player(state);
    Action best = candidates[0];
    double best_value = -2;
    for (const Action action : candidates) {
      double total = 0;
      for (int p = 0; p < playouts_; ++p) {
        DuelGame::State s = state;
        game_.apply_action(s, action);
        for (int ply = 0; ply < 2000 && !game_.is_terminal(s); ++ply) {
          if (game_.current_player(s) == kChancePlayer) {
            game_.apply_chance(s, sample_chance(game_, s, rng_));
          } else {
            game_.apply_action(s, game_.heuristic_action(s, rng_));
          }
        }
        total += game_.is_terminal(s) ? game_.returns(s)[mover] : 0.0;
      }
      if (total > best_value) best_value = total, best = action;
    }
    return best;
  }
  std::string spec() const override { return spec_; }

 private:
  const DuelGame& game_;
  int playouts_;
  std::string spec_;
  Rng rng_;
};

AgentPtr<DuelGame> make_bench_agent(const DuelGame& game, const std::string& text) {
  const AgentSpec spec = parse_agent_spec(text);
  if (spec.name == "flatmc") {
    OptionReader reader(spec);
    const int playouts = static_cast<int>(reader.integer("playouts", 2, 1, 1000));
    reader.finish();
    return std::make_unique<FlatMonteCarlo>(game, playouts, text);
  }
  return make_agent(game, text);
}

// CPU seconds used so far by every thread of this process.  Games per CPU second at 1 and 2 threads
// show whether the harness itself serialises anything; wall-clock scaling also needs free cores.
double process_cpu_seconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  auto seconds = [](const timeval& t) { return static_cast<double>(t.tv_sec) + 1e-6 * t.tv_usec; };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

bool has_mcts(const DuelGame& game) {
  for (const AgentInfo& info : agent_catalogue(game)) {
    if (info.name == "mcts") return true;
  }
  return false;
}

// Two searching agents of different strength (`scale` sets their effort), and `pairs` pairs.
TournamentConfig search_config(const DuelGame& game, int scale, int pairs) {
  TournamentConfig config;
  config.game = "duel";
  config.rules = game.rules_json();
  if (has_mcts(game)) {
    config.agents = {"mcts:iterations=" + std::to_string(100 * scale),
                     "mcts:iterations=" + std::to_string(200 * scale)};
  } else {
    config.agents = {"flatmc:playouts=" + std::to_string(scale),
                     "flatmc:playouts=" + std::to_string(2 * scale)};
  }
  config.pairs_per_pairing = pairs;
  config.seed = 3;
  return config;
}

TournamentConfig random_config(const DuelGame& game, int pairs) {
  TournamentConfig config;
  config.game = "duel";
  config.rules = game.rules_json();
  config.agents = {"random", "random:"};  // the same agent twice: the shortest games there are
  config.pairs_per_pairing = pairs;
  config.seed = 3;
  return config;
}

struct HarnessRun {
  std::int64_t games = 0;
  double wall_seconds = 0;
  double cpu_seconds = 0;
};

fs::path tournament_dir() {
  return fs::temp_directory_path() / ("sling_tournament_bench_" + std::to_string(::getpid()));
}

// One whole tournament through the harness, into tournament_dir() (which must not exist).
HarnessRun play_tournament(const DuelGame& game, const TournamentConfig& config, int threads) {
  const auto wall_start = std::chrono::steady_clock::now();
  const double cpu_start = process_cpu_seconds();
  TournamentOptions options;
  options.out_dir = tournament_dir().string();
  options.threads = threads;
  std::ostringstream log;
  const TournamentReport report =
      run_tournament<DuelGame>(game, config, options, log, make_bench_agent);
  HarnessRun run;
  run.games = report.games;
  run.cpu_seconds = process_cpu_seconds() - cpu_start;
  run.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  return run;
}

void run_harness(benchmark::State& st, const TournamentConfig& config, int threads) {
  const DuelGame game;
  std::int64_t games = 0;
  double cpu = 0;
  for (auto _ : st) {
    st.PauseTiming();
    fs::remove_all(tournament_dir());
    st.ResumeTiming();
    const HarnessRun run = play_tournament(game, config, threads);
    games += run.games;
    cpu += run.cpu_seconds;
  }
  fs::remove_all(tournament_dir());
  st.counters["games_per_cpu_s"] = static_cast<double>(games) / cpu;
  st.counters["games_per_s"] =
      benchmark::Counter(static_cast<double>(games), benchmark::Counter::kIsRate);
  st.counters["agents"] = has_mcts(game) ? 1 : 0;  // 1: mcts, 0: flat Monte Carlo
}

// The same games without the harness: one thread, no files, no report.
void run_plain(benchmark::State& st, const TournamentConfig& config) {
  const DuelGame game;
  const Schedule schedule(config);
  std::int64_t games = 0;
  const double cpu_start = process_cpu_seconds();
  for (auto _ : st) {
    for (std::int64_t id = 0; id < schedule.total_games(); ++id) {
      const ScheduledGame g = schedule.game(id);
      auto first = make_bench_agent(game, config.agents[g.agent0]);
      auto second = make_bench_agent(game, config.agents[g.agent1]);
      const GameResult result = play_game(game, *first, *second, g.seed);
      benchmark::DoNotOptimize(result.winner);
      ++games;
    }
  }
  st.counters["games_per_cpu_s"] = static_cast<double>(games) / (process_cpu_seconds() - cpu_start);
  st.counters["games_per_s"] =
      benchmark::Counter(static_cast<double>(games), benchmark::Counter::kIsRate);
}

void BM_TournamentSearchGames(benchmark::State& st) {
  run_harness(st, search_config(DuelGame{}, 2, 12), static_cast<int>(st.range(0)));
}
BENCHMARK(BM_TournamentSearchGames)
    ->Arg(1)
    ->Arg(2)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(2);

// ---------------------------------------------------------------------------------------------
// Scaling.  A tournament's games share nothing but the read-only game, so 2 threads can lose
// against 1 only in two ways: the threads do not both run all the time (load balance at the end,
// the harness's serial parts, other processes), or each game costs more CPU time while both run.
// The second is told apart from its possible causes by two controls run the same way, 1 thread
// and then 2 threads each doing the same work:
//   - duel random rollouts alone (the code where an MCTS duel game spends ~95% of its time), with
//     no tree, no agents and no harness;
//   - a register-only arithmetic loop that touches no memory at all.
// If the games and both controls lose the same share of CPU efficiency on 2 threads, the processor
// itself runs a thread slower while the other vCPU is busy (virtual CPUs sharing a physical core,
// or a lower clock), and no change to the program can win it back.

struct ThreadedRun {
  double wall_seconds = 0;
  double cpu_seconds = 0;
};

// Runs work(thread_index) on `threads` threads (the calling one among them).
template <class Work>
ThreadedRun run_on_threads(int threads, const Work& work) {
  const auto wall_start = std::chrono::steady_clock::now();
  const double cpu_start = process_cpu_seconds();
  std::vector<std::thread> helpers;
  for (int t = 1; t < threads; ++t) helpers.emplace_back([&work, t] { work(t); });
  work(0);
  for (std::thread& helper : helpers) helper.join();
  ThreadedRun run;
  run.cpu_seconds = process_cpu_seconds() - cpu_start;
  run.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  return run;
}

// Random duel rollouts from the opening, `count` per thread; each thread has its own stream.
ThreadedRun duel_rollouts(const DuelGame& game, int threads, int count) {
  return run_on_threads(threads, [&](int thread) {
    Rng rng(11, static_cast<std::uint64_t>(thread));
    double total = 0;
    for (int i = 0; i < count; ++i) {
      total += search::rollout(game, game.initial_state(), search::RolloutPolicy::kRandom, 0, rng);
    }
    benchmark::DoNotOptimize(total);
  });
}

// A dependent chain of 64-bit mixes held in registers, `steps` per thread.
ThreadedRun register_arithmetic(int threads, std::int64_t steps) {
  return run_on_threads(threads, [&](int thread) {
    std::uint64_t x = static_cast<std::uint64_t>(thread) + 1;
    for (std::int64_t i = 0; i < steps; ++i) x = mix64(x + static_cast<std::uint64_t>(i));
    benchmark::DoNotOptimize(x);
  });
}

// Each iteration plays the MCTS tournament of BM_TournamentSearchGames on 1 thread and then on 2,
// and runs both controls on 1 thread and then on 2 (back to back, so that all six measurements see
// the same machine).  Counters ("_2t": 2 threads over 1):
//   games_per_s_1t, games_per_s_2t, speedup_2t: wall clock, meaningful only on two idle cores;
//   games_per_cpu_s_1t, games_per_cpu_s_2t, cpu_efficiency_2t: CPU time, which another process
//     on the machine hardly changes;
//   busy_cores_2t: CPU seconds per wall second of the 2-thread tournament (2 at best), so that
//     speedup_2t is about busy_cores_2t * cpu_efficiency_2t;
//   rollout_cpu_efficiency_2t, arithmetic_cpu_efficiency_2t: the controls' work per CPU second.
void BM_TournamentScaling(benchmark::State& st) {
  const DuelGame game;
  const TournamentConfig config = search_config(game, 2, 12);
  constexpr int kRollouts = 10000;
  constexpr std::int64_t kMixSteps = 250'000'000;
  HarnessRun one, two;
  ThreadedRun rollouts_one, rollouts_two, arithmetic_one, arithmetic_two;
  auto add = [](auto& total, const auto& run) {
    total.wall_seconds += run.wall_seconds;
    total.cpu_seconds += run.cpu_seconds;
  };
  for (auto _ : st) {
    for (const int threads : {1, 2}) {
      fs::remove_all(tournament_dir());
      const HarnessRun run = play_tournament(game, config, threads);
      HarnessRun& total = threads == 1 ? one : two;
      total.games += run.games;
      add(total, run);
    }
    add(rollouts_one, duel_rollouts(game, 1, kRollouts));
    add(rollouts_two, duel_rollouts(game, 2, kRollouts));
    add(arithmetic_one, register_arithmetic(1, kMixSteps));
    add(arithmetic_two, register_arithmetic(2, kMixSteps));
  }
  fs::remove_all(tournament_dir());
  const auto per_wall = [](const HarnessRun& r) { return r.games / r.wall_seconds; };
  const auto per_cpu = [](const HarnessRun& r) { return r.games / r.cpu_seconds; };
  // The controls do twice the work on 2 threads.
  const auto efficiency = [](const ThreadedRun& single, const ThreadedRun& both) {
    return (2 / both.cpu_seconds) / (1 / single.cpu_seconds);
  };
  st.counters["games_per_s_1t"] = per_wall(one);
  st.counters["games_per_s_2t"] = per_wall(two);
  st.counters["speedup_2t"] = per_wall(two) / per_wall(one);
  st.counters["games_per_cpu_s_1t"] = per_cpu(one);
  st.counters["games_per_cpu_s_2t"] = per_cpu(two);
  st.counters["cpu_efficiency_2t"] = per_cpu(two) / per_cpu(one);
  st.counters["busy_cores_2t"] = two.cpu_seconds / two.wall_seconds;
  st.counters["rollout_cpu_efficiency_2t"] = efficiency(rollouts_one, rollouts_two);
  st.counters["arithmetic_cpu_efficiency_2t"] = efficiency(arithmetic_one, arithmetic_two);
}
BENCHMARK(BM_TournamentScaling)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(2);

void BM_TournamentSearchGamesPlainLoop(benchmark::State& st) {
  run_plain(st, search_config(DuelGame{}, 2, 12));
}
BENCHMARK(BM_TournamentSearchGamesPlainLoop)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(2);

// Short games (random agents, a fraction of a millisecond each): the harness's fixed cost per game
// (a record file, a row, a timing line) is what this measures.
void BM_TournamentRandomGames(benchmark::State& st) {
  run_harness(st, random_config(DuelGame{}, 500), static_cast<int>(st.range(0)));
}
BENCHMARK(BM_TournamentRandomGames)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_TournamentRandomGamesPlainLoop(benchmark::State& st) {
  run_plain(st, random_config(DuelGame{}, 500));
}
BENCHMARK(BM_TournamentRandomGamesPlainLoop)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
}  // namespace sling
