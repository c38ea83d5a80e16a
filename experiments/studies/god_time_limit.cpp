#include "experiments/studies/god_time_limit.h"

#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <chrono>
#include <cstdio>

#include "engine/core/errors.h"
#include "engine/core/game.h"
#include "engine/core/random.h"
#include "solvers/duel/capped_solve.h"
#include "solvers/duel/turn_expectation.h"

namespace sling::duel {

int turns_left_bucket(int turns_left) {
  int bucket = 0;
  for (int top = 1; turns_left > top && bucket < kTurnsLeftBuckets - 1; top *= 2) ++bucket;
  return bucket;
}

const char* turns_left_bucket_name(int bucket) {
  static const char* const kNames[kTurnsLeftBuckets] = {
      "1", "2", "3-4", "5-8", "9-16", "17-32", "33-64", "65-128", "129-256", "257+"};
  return kNames[std::clamp(bucket, 0, kTurnsLeftBuckets - 1)];
}

namespace {

struct GodDecision {
  Roll roll = Roll::kNone;
  int turns_left = 0;
  bool rerolled = false;
  double gain = 0;
};

// One game of the optimal pair, played a turn at a time alongside the others of its cap.
struct LiveGame {
  DuelState state;
  Rng dice{0, 0};
  std::vector<GodDecision> decisions;
};

// Plays `g` until its turn counter passes `turn` or it ends.  `turns_in_solution` is the
// solution's own cap: a state of a game capped at C carries the turn counter of the solution's
// game shifted by (turns_in_solution - C), so that the turns left agree.
void play_through_turn(const CappedDuelSolution& solution, LiveGame& g, int turn,
                       int turns_in_solution, int cap) {
  const DuelGame& game = solution.game();
  DuelState& s = g.state;
  while (!game.is_terminal(s) && s.turn <= turn) {
    if (game.current_player(s) == kChancePlayer) {
      apply_any(game, s, sample_chance(game, s, g.dice));
      continue;
    }
    const auto values = solution.action_values(s);
    const std::size_t best = best_index_of_actions(game, s, values);
    if (s.phase == Phase::kGod) {
      // The initiative comes before the first turn: it counts the whole cap as left.
      const int left = std::min(cap, turns_in_solution - static_cast<int>(s.turn) + 1);
      g.decisions.push_back({s.roll, left, values[best].first != act::kAccept,
                             values[best].second - values[0].second});  // values[0]: accept
    }
    apply_any(game, s, values[best].first);
  }
}

CapGames play_cap(const CappedDuelSolution& solution, int cap, int objective_index,
                  const TimeLimitStudyOptions& options, tbb::task_arena& arena) {
  const DuelGame& game = solution.game();
  const int solved = solution.turn_cap();
  std::vector<LiveGame> games(static_cast<std::size_t>(options.games));
  const Rng streams = Rng(options.seed, 0x74696d65ULL + static_cast<std::uint64_t>(objective_index))
                          .derive(static_cast<std::uint64_t>(cap));
  for (std::size_t i = 0; i < games.size(); ++i) {
    games[i].state = game.initial_state();
    games[i].state.turn = static_cast<std::uint16_t>(solved - cap);
    games[i].dice = streams.derive(i);
  }
  for (int turn = solved - cap; turn <= solved; ++turn) {
    // The values this turn reads (one and two turns below it), computed here once rather than
    // inside the parallel games.
    const int next = solved - turn;
    solution.values_at(next - 1);
    solution.values_at(next);
    arena.execute([&] {
      tbb::parallel_for(std::size_t{0}, games.size(), [&](std::size_t i) {
        play_through_turn(solution, games[i], turn, solved, cap);
      });
    });
  }
  CapGames out;
  out.cap = cap;
  out.games = options.games;
  out.by_roll.resize(16);
  std::int64_t turns = 0;
  for (const LiveGame& g : games) {
    const DuelState& s = g.state;
    if (!game.is_terminal(s)) throw SlingError("time-limit study: a game outlived its cap");
    out.david_wins += s.winner == kDavid;
    out.goliath_wins += s.winner == kGoliath;
    out.draws += s.winner != kDavid && s.winner != kGoliath;
    turns += s.turn - (solved - cap);
    bool used = false;
    for (const GodDecision& d : g.decisions) {
      auto& stats = out.by_roll[static_cast<std::size_t>(d.roll)]
                               [static_cast<std::size_t>(turns_left_bucket(d.turns_left))];
      ++stats.offered;
      if (d.rerolled) {
        ++stats.rerolled;
        stats.gain += d.gain;
        used = true;
      }
    }
    out.god_used += used;
  }
  out.mean_turns = static_cast<double>(turns) / std::max(1, options.games);
  return out;
}

}  // namespace

TimeLimitStudyResult run_time_limit_study(const DuelGame& game,
                                          const TimeLimitStudyOptions& options) {
  if (options.caps.empty()) throw OptionError("the time-limit study needs at least one turn cap");
  if (options.games < 1) throw OptionError("the time-limit study needs at least one game a cap");
  if (!game.rules().god_enabled)
    throw RulesError("the God study needs rules with god_enabled true");
  for (int cap : options.caps) {
    if (cap < 1 || cap > 65535) {
      throw OptionError("turn cap " + std::to_string(cap) + " is outside 1 to 65535");
    }
  }
  const auto started = std::chrono::steady_clock::now();
  auto log = [&](const std::string& line) {
    if (!options.log) return;
    char stamp[32];
    std::snprintf(
        stamp, sizeof stamp, "[%6.1f s] ",
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
    options.log(stamp + line);
  };
  TimeLimitStudyResult result;
  result.rules = game.rules();
  result.rules.turn_cap = *std::max_element(options.caps.begin(), options.caps.end());
  const DuelGame capped(result.rules);
  check_capped_solvable(capped);
  tbb::task_arena arena(std::max(1, options.threads));
  const CappedObjective objectives[2] = {CappedObjective::kScore, CappedObjective::kWin};
  for (int o = 0; o < 2; ++o) {
    ObjectiveStudy& study = result.objectives[static_cast<std::size_t>(o)];
    study.objective = objectives[o];
    CappedOptions solver;
    solver.threads = options.threads;
    // Every turn a keyframe when they fit the budget: the games then read each turn's values
    // straight from memory.
    const std::uint64_t keyframe_bytes =
        4ull * static_cast<std::uint64_t>(DuelIndex(capped).pairs()) * DuelIndex::kSlots * 6 / 2;
    const std::uint64_t all = keyframe_bytes * static_cast<std::uint64_t>(result.rules.turn_cap);
    solver.keyframe_every = static_cast<int>(
        std::max<std::uint64_t>(1, (all + options.keyframe_budget_bytes - 1) /
                                       std::max<std::uint64_t>(1, options.keyframe_budget_bytes)));
    study.keyframe_every = solver.keyframe_every;
    // The solver's own progress (every twentieth of the turns), under the study's clock.
    solver.log = [&](const std::string& line) { log("  " + line); };
    log(std::string("solving the duel capped at ") + std::to_string(result.rules.turn_cap) +
        " turns, objective " + objective_name(objectives[o]) + " (every shorter cap on the way)");
    const CappedDuelSolution solution = solve_capped_duel(capped, objectives[o], solver);
    study.summary = solution.summary();
    for (int cap : options.caps) {
      log("  " + std::to_string(options.games) + " optimal games capped at " + std::to_string(cap) +
          " turns");
      study.by_cap.push_back(play_cap(solution, cap, o, options, arena));
    }
  }
  log("done");
  return result;
}

}  // namespace sling::duel
