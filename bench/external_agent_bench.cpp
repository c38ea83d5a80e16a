// The agent protocol's overhead (docs/protocol.md): a decision's round trip to an agent program
// (Sling writes the act message with the state and the legal actions, the program answers, Sling
// checks the answer), against the same decision made in process; and whole Pig games per second
// with an agent program on one side.
//
//   ./build/bench/sling_bench --benchmark_filter=External
//
// Programs: `sling protocol random` (Sling serving its own random agent), the C++ example agent
// (examples/cpp) and the Python example (examples/python/random_agent.py, Debian's python3).

#include <benchmark/benchmark.h>

#include <filesystem>

#include "agents/registry.h"
#include "engine/pig/pig.h"
#include "experiments/play_game.h"
#include "tests/build_paths.h"

namespace sling {
namespace {

using pig::PigGame;

std::string log_file() {
  return (std::filesystem::temp_directory_path() / "sling-bench-external.log").string();
}

std::string program(int which) {
  switch (which) {
    case 0:
      return std::string(SLING_BINARY) + " protocol random";
    case 1:
      return SLING_EXAMPLE_CPP_AGENT;
    default:
      return "/usr/bin/python3 " + std::string(SLING_SOURCE_DIR) +
             "/examples/python/random_agent.py";
  }
}

const char* program_label(int which) {
  return which == 0 ? "sling protocol random" : (which == 1 ? "C++ example" : "Python example");
}

// One decision of Pig's first player, asked again and again of the same program.
void BM_ExternalDecisionRoundTrip(benchmark::State& state) {
  const PigGame game;
  const AgentPtr<PigGame> agent = make_agent(
      game, "external:cmd='" + program(static_cast<int>(state.range(0))) + "',log=" + log_file());
  agent->new_game(1);
  const PigGame::State start = game.initial_state();
  agent->act(start);  // starts the program: its start-up is not a decision
  for (auto _ : state) benchmark::DoNotOptimize(agent->act(start));
  state.SetItemsProcessed(state.iterations());
  state.SetLabel(program_label(static_cast<int>(state.range(0))));
}
BENCHMARK(BM_ExternalDecisionRoundTrip)
    ->Arg(0)
    ->Arg(1)
    ->Arg(2)
    ->UseRealTime()  // two processes: the wall clock is the cost
    ->Unit(benchmark::kMicrosecond);

// The same decision in process, for scale.
void BM_InProcessDecision(benchmark::State& state) {
  const PigGame game;
  const AgentPtr<PigGame> agent = make_agent(game, "random");
  agent->new_game(1);
  const PigGame::State start = game.initial_state();
  for (auto _ : state) benchmark::DoNotOptimize(agent->act(start));
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_InProcessDecision)->Unit(benchmark::kMicrosecond);

// Whole Pig games, the agent program against the in-process random agent: every ply reported,
// every decision of its side asked.  Items are games.
void BM_ExternalPigGames(benchmark::State& state) {
  const PigGame game;
  const int which = static_cast<int>(state.range(0));
  const AgentPtr<PigGame> external =
      make_agent(game, "external:cmd='" + program(which) + "',log=" + log_file());
  const AgentPtr<PigGame> opponent = make_agent(game, "random");
  std::uint64_t seed = 1;
  std::int64_t plies = 0;
  for (auto _ : state) {
    const GameResult result = play_game(game, *external, *opponent, seed++);
    if (!result.error.empty()) state.SkipWithError(result.error.c_str());
    plies += result.plies;
  }
  state.SetItemsProcessed(state.iterations());
  state.counters["plies/game"] =
      benchmark::Counter(static_cast<double>(plies) / static_cast<double>(state.iterations()));
  state.SetLabel(program_label(which));
}
BENCHMARK(BM_ExternalPigGames)
    ->Arg(0)
    ->Arg(1)
    ->Arg(2)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace sling
