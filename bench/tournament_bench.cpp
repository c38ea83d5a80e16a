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

#include <filesystem>
#include <sstream>

#include "engine/duel/duel.h"
#include "experiments/tournament.h"

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

void run_harness(benchmark::State& st, const TournamentConfig& config, int threads) {
  const DuelGame game;
  const fs::path dir =
      fs::temp_directory_path() / ("sling_tournament_bench_" + std::to_string(::getpid()));
  std::int64_t games = 0;
  double cpu = 0;
  for (auto _ : st) {
    st.PauseTiming();
    fs::remove_all(dir);
    st.ResumeTiming();
    const double cpu_start = process_cpu_seconds();
    TournamentOptions options;
    options.out_dir = dir.string();
    options.threads = threads;
    std::ostringstream log;
    const TournamentReport report =
        run_tournament<DuelGame>(game, config, options, log, make_bench_agent);
    games += report.games;
    cpu += process_cpu_seconds() - cpu_start;
  }
  fs::remove_all(dir);
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
