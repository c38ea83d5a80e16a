// Danelaw benchmarks: loading the map, Boost.Graph movement queries, whole random games, the
// learned evaluation and the movement-plan search.

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <optional>
#include <vector>

#include "agents/danelaw_planner.h"
#include "engine/core/embedded.h"
#include "engine/danelaw/danelaw.h"
#include "search/mcts.h"
#include "solvers/danelaw/exact_scenario.h"
#include "solvers/danelaw/model_value.h"
#include "tests/build_paths.h"

namespace sling::danelaw {
namespace {

const DanelawGame& default_game() {
  static const DanelawGame game;
  return game;
}

// Parsing and validating the embedded England map (cereal JSON, all consistency checks).
void BM_DanelawMapLoad(benchmark::State& state) {
  const std::string_view text = embedded_file("england.json");
  for (auto _ : state) {
    HexMap map = HexMap::parse(text, "england.json");
    benchmark::DoNotOptimize(map);
  }
}
BENCHMARK(BM_DanelawMapLoad)->Unit(benchmark::kMicrosecond);

// The reachable set within 12 points (a maximum movement roll), by Boost.Graph's Dijkstra, from
// a plain hex in the Midlands (Leicester) for the English and from the North Sea for the Danes.
void BM_DanelawReachable(benchmark::State& state) {
  const DanelawGame& game = default_game();
  const Side side = static_cast<Side>(state.range(0));
  const int from =
      side == kEnglish ? game.map().find_hex("Leicester") : game.map().find_hex("Lindisfarne");
  int start = from;
  if (side == kDanes) {  // the sea hex next to Lindisfarne
    for (int n : game.map().hex(from).neighbours) {
      if (n >= 0 && game.map().hex(n).is_sea()) start = n;
    }
  }
  const HexSet blocked;
  ReachList reach;
  MovementWorkspace workspace;
  std::int64_t hexes = 0;
  for (auto _ : state) {
    game.movement().reachable(side, start, 12, blocked, reach, workspace);
    hexes += static_cast<std::int64_t>(reach.size());
    benchmark::DoNotOptimize(reach.data());
  }
  state.counters["hexes"] =
      benchmark::Counter(static_cast<double>(hexes) / static_cast<double>(state.iterations()));
  state.SetLabel(side == kDanes ? "danes from the sea off Lindisfarne" : "english from Leicester");
}
BENCHMARK(BM_DanelawReachable)->Arg(kEnglish)->Arg(kDanes)->Unit(benchmark::kMicrosecond);

// One cheapest path by A*, Carlisle to Canterbury (across England).
void BM_DanelawAStar(benchmark::State& state) {
  const DanelawGame& game = default_game();
  const int from = game.map().find_hex("Carlisle");
  const int to = game.map().find_hex("Canterbury");
  const HexSet blocked;
  for (auto _ : state) {
    PathResult path = game.movement().path(kEnglish, from, to, blocked);
    benchmark::DoNotOptimize(path);
  }
}
BENCHMARK(BM_DanelawAStar)->Unit(benchmark::kMicrosecond);

// One whole game from the start: dice sampled, decisions by `decide(state, rng)` (applied
// unchecked); returns the plies played.
template <class Decide>
std::int64_t play_whole_game(const DanelawGame& game, Rng rng, Decide decide) {
  State s = game.initial_state();
  std::int64_t plies = 0;
  for (; !game.is_terminal(s); ++plies) {
    if (game.current_player(s) == kChancePlayer) {
      game.apply_chance(s, sample_chance(game, s, rng));
    } else {
      game.apply_unchecked(s, decide(s, rng));
    }
  }
  benchmark::DoNotOptimize(s);
  return plies;
}

// A whole game with uniformly random decisions and sampled dice; items = games.
void BM_DanelawRandomPlayout(benchmark::State& state) {
  const DanelawGame& game = default_game();
  Rng base(7, 0);
  std::uint64_t index = 0;
  std::int64_t plies = 0;
  for (auto _ : state) {
    plies += play_whole_game(game, base.derive(index++), [&game](const State& s, Rng& rng) {
      return sample_uniform_action(game, s, rng);
    });
  }
  state.SetItemsProcessed(state.iterations());
  state.counters["plies"] =
      benchmark::Counter(static_cast<double>(plies) / static_cast<double>(state.iterations()));
}
BENCHMARK(BM_DanelawRandomPlayout)->Unit(benchmark::kMillisecond);

// A whole game with the rule-based policy on both sides; items = games.
void BM_DanelawHeuristicPlayout(benchmark::State& state) {
  const DanelawGame& game = default_game();
  Rng base(8, 0);
  std::uint64_t index = 0;
  for (auto _ : state) {
    play_whole_game(game, base.derive(index++),
                    [&game](const State& s, Rng& rng) { return game.heuristic_action(s, rng); });
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_DanelawHeuristicPlayout)->Unit(benchmark::kMillisecond);

// Positions at the start of each half-turn of one heuristic game (48 of them).
const std::vector<State>& half_turn_positions() {
  static const std::vector<State> positions = [] {
    const DanelawGame& game = default_game();
    std::vector<State> out;
    Rng rng(9, 0);
    State s = game.initial_state();
    while (!game.is_terminal(s)) {
      if (s.phase == Phase::kMovementDice) out.push_back(s);
      if (game.current_player(s) == kChancePlayer) {
        game.apply_chance(s, sample_chance(game, s, rng));
      } else {
        game.apply_unchecked(s, game.heuristic_action(s, rng));
      }
    }
    return out;
  }();
  return positions;
}

// The learned evaluation (18 features from two Boost.Graph distance fields, one dot product);
// items = positions evaluated.
void BM_DanelawValueModel(benchmark::State& state) {
  const DanelawGame& game = default_game();
  const std::vector<State>& positions = half_turn_positions();
  const ModelValue value(game);
  std::size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(value(positions[i++ % positions.size()]));
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_DanelawValueModel)->Unit(benchmark::kMicrosecond);

// The first movement decision of each half-turn position (of `side` only, when given), reached by
// the heuristic and the dice: where a movement-plan search starts.
std::vector<State> first_movement_decisions(std::optional<Side> side = std::nullopt) {
  const DanelawGame& game = default_game();
  std::vector<State> starts;
  Rng rng(10, 0);
  for (State s : half_turn_positions()) {
    if (side && s.side != *side) continue;
    while (!game.is_terminal(s) && s.phase != Phase::kMove) {
      if (game.current_player(s) == kChancePlayer) {
        game.apply_chance(s, sample_chance(game, s, rng));
      } else {
        game.apply_unchecked(s, game.heuristic_action(s, rng));
      }
    }
    if (s.phase == Phase::kMove) starts.push_back(s);
  }
  return starts;
}

// One movement-plan search of the `strong` preset (64 plans, 256 playouts) from the first
// movement decision of each half-turn position; items = searches.
void BM_DanelawPlannerSearch(benchmark::State& state) {
  const DanelawGame& game = default_game();
  const std::vector<State> starts = first_movement_decisions();
  Planner planner(game, PlannerConfig{64, 4, 0, 0.3});
  std::size_t i = 0;
  for (auto _ : state) {
    planner.new_game(i);
    benchmark::DoNotOptimize(planner.choose(starts[i++ % starts.size()]));
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_DanelawPlannerSearch)->Unit(benchmark::kMillisecond);

// One English movement-plan search per iteration, at the English presets' budgets and with the
// reply option: args = plans, samples, reply (the Danes' halves played before a plan is scored).
void BM_DanelawEnglishPlanSearch(benchmark::State& state) {
  const DanelawGame& game = default_game();
  const std::vector<State> starts = first_movement_decisions(kEnglish);
  PlannerConfig config{static_cast<int>(state.range(0)), static_cast<int>(state.range(1)), 0, 0.3};
  config.reply = static_cast<int>(state.range(2));
  Planner planner(game, config);
  std::size_t i = 0;
  for (auto _ : state) {
    planner.new_game(i);
    benchmark::DoNotOptimize(planner.choose(starts[i++ % starts.size()]));
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_DanelawEnglishPlanSearch)
    ->Args({64, 4, 0})
    ->Args({32, 2, 0})
    ->Args({8, 2, 1})
    ->Unit(benchmark::kMillisecond);

// A whole half-turn played by `strong`'s planner with the endgame (playouts to the end of the
// game, battles and placing by 64 playouts an action), from the heuristic game's half-turn start
// `range(0)` halves before the end; with `range(1)` > 0, movement and battles by a tree search of
// that many simulations (`endgame_mcts`) in `range(2)` root-parallel trees, under a work budget
// that grows with the simulations past 32,000 (as `strong`'s Danes have it: 128,000 in 2 trees,
// 80 million).  The time is per half (real time: the trees run in parallel), `max_decision_ms` the
// slowest decision (a move may take a second on 2 cores).
void BM_DanelawEndgameHalf(benchmark::State& state) {
  const DanelawGame& game = default_game();
  const auto& positions = half_turn_positions();
  const State start = positions[positions.size() - static_cast<std::size_t>(state.range(0))];
  PlannerConfig config{64, 4, 0, 0.3};
  config.endgame = 4;
  config.endgame_battle = 64;
  config.endgame_mcts = static_cast<int>(state.range(1));
  config.endgame_mcts_trees = static_cast<int>(state.range(2));
  config.endgame_mcts_work = std::max<std::int64_t>(config.endgame_mcts_work, 625 * state.range(1));
  Planner planner(game, config);
  double slowest = 0;
  std::int64_t decisions = 0;
  std::uint64_t seed = 0;
  for (auto _ : state) {
    planner.new_game(++seed);
    Rng dice(seed, 1);
    State s = start;
    while (!game.is_terminal(s) && s.side == start.side && s.turn == start.turn) {
      if (game.current_player(s) == kChancePlayer) {
        game.apply_chance(s, sample_chance(game, s, dice));
        continue;
      }
      const auto begin = std::chrono::steady_clock::now();
      const Action a = planner.choose(s).action;
      const std::chrono::duration<double, std::milli> took =
          std::chrono::steady_clock::now() - begin;
      slowest = std::max(slowest, took.count());
      ++decisions;
      game.apply_unchecked(s, a);
    }
  }
  state.counters["max_decision_ms"] = slowest;
  state.counters["decisions"] =
      benchmark::Counter(static_cast<double>(decisions), benchmark::Counter::kAvgIterations);
}
BENCHMARK(BM_DanelawEndgameHalf)
    ->ArgsProduct({{4, 3, 2, 1}, {0, 16000}, {1}})
    ->Args({2, 128000, 2})
    ->Args({1, 128000, 2})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// The referee's holt-2 (15 hexes) and the Danes' first movement decisions of heuristic games there.
const DanelawGame& holt_game() {
  static const DanelawGame game = load_scenario(SLING_SOURCE_DIR, "holt-2");
  return game;
}

std::vector<State> holt_first_movements() {
  const DanelawGame& game = holt_game();
  std::vector<State> starts;
  for (std::uint64_t seed = 1; starts.size() < 8 && seed < 200; ++seed) {
    Rng dice(seed, 0);
    State s = game.initial_state();
    while (!game.is_terminal(s) && !(s.phase == Phase::kMove && s.side == kDanes)) {
      game.apply_unchecked(s, game.current_player(s) == kChancePlayer
                                  ? sample_chance(game, s, dice)
                                  : game.heuristic_action(s, dice));
    }
    if (!game.is_terminal(s)) starts.push_back(s);
  }
  return starts;
}

// One decision of the endgame's tree on the referee's holt-2 (15 hexes): the Danes' first
// movement of heuristic games, `range(0)` simulations, with the transposition table when
// `range(1)` is 1 (`strong`'s `endgame_mcts_transpositions`).  `nodes` is the arena's size after
// the search; with transpositions the simulations share the positions that move orders repeat.
void BM_DanelawRefereeTree(benchmark::State& state) {
  const DanelawGame& game = holt_game();
  const std::vector<State> starts = holt_first_movements();
  search::MctsConfig config;
  config.iterations = state.range(0);
  config.rollout = search::RolloutPolicy::kHeuristic;
  config.backup = search::Backup::kExpectimax;
  config.reuse = false;
  config.transpositions = state.range(1) == 1;
  search::MctsTree<DanelawGame> tree(game, config);
  std::size_t i = 0;
  double nodes = 0;
  for (auto _ : state) {
    tree.reset(i);
    tree.search(starts[i++ % starts.size()], config.iterations, search::Deadline(0));
    nodes += static_cast<double>(tree.node_count());
  }
  state.counters["nodes"] = nodes / static_cast<double>(state.iterations());
  state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_DanelawRefereeTree)
    ->ArgsProduct({{16000, 64000}, {0, 1}})
    ->Unit(benchmark::kMillisecond);

// One decision of the planner's endgame tree on holt-2 as `strong` makes it (transpositions, c = 2,
// the Danes' first movement of heuristic games): `range(0)` simulations shared by `range(1)`
// root-parallel trees, on the machine's threads; real time, since the trees run in parallel.
void BM_DanelawRefereeMove(benchmark::State& state) {
  const DanelawGame& game = holt_game();
  const std::vector<State> starts = holt_first_movements();
  PlannerConfig config{64, 4, 0, 0.3};
  config.endgame = 4;
  config.endgame_mcts = static_cast<int>(state.range(0));
  config.endgame_mcts_work = 1'000'000'000;
  config.endgame_mcts_transpositions = true;
  config.endgame_mcts_c = 2;
  config.endgame_mcts_trees = static_cast<int>(state.range(1));
  Planner planner(game, config);
  std::size_t i = 0;
  for (auto _ : state) {
    planner.new_game(i);
    benchmark::DoNotOptimize(planner.choose(starts[i++ % starts.size()]));
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_DanelawRefereeMove)
    ->Args({32000, 1})
    ->Args({128000, 1})
    ->Args({128000, 2})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace
}  // namespace sling::danelaw
