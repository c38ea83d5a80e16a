#pragma once
// A match: N games between two fixed agents, one per side, played in parallel.
//
// Game i's seed is derived from (base seed, i) alone, each worker thread builds its own pair of
// agents and calls new_game(seed) before every game, and the per-game results are summed in game
// order after the parallel loop.  So a match's result is the same for any --threads, and for any
// number of MPI ranks (mpirun -np N sling match ...: rank 0 deals the games out, experiments/
// mpi_jobs.h).

#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <array>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <functional>
#include <iostream>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "agents/registry.h"
#include "engine/core/record.h"
#include "experiments/analysis/luck.h"
#include "experiments/game_result_codec.h"
#include "experiments/mpi_jobs.h"
#include "experiments/play_game.h"

namespace sling {

// The games finished so far, in the order they finished (which depends on the threads; the
// final result does not).
struct MatchProgress {
  int games_done = 0;
  int games = 0;
  std::array<int, 2> wins{};
  int draws = 0;
  double seconds = 0;
};

struct MatchOptions {
  int games = 100;
  std::uint64_t seed = 1;
  int threads = 0;         // 0 = every core
  std::string record_dir;  // when set, each game's record is saved there
  int max_plies = 1'000'000;
  int turn_limit = kDefaultAgentTurnLimit;  // a draw at this many turns (engine/core/game_limit.h)
  bool luck = false;  // also score each game adjusted for the luck of its dice (docs/analysis.md)
  // Called after each finished game, one call at a time (long matches report as they go).
  std::function<void(const MatchProgress&)> progress;
  // Called with each finished game, its index and its whole result (the record's history
  // included), on the thread that played it (on rank 0 under MPI), so possibly on several threads
  // at once: it should write only to that game's own slot.  Self-play training learns from these.
  std::function<void(int index, const GameResult& played)> on_game;
  // Asked before each game: once it answers true the games not yet started are skipped and the
  // result is incomplete (Python stops a match at its agent's first exception, then raises it).
  std::function<bool()> stop;
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
  int turn_limit = 0;  // games still going at this many turns were drawn (0: no limit)
  // With MatchOptions::luck: side 0's score per game, plain and adjusted for luck, and the luck.
  bool luck = false;
  std::string luck_source;
  MeanInterval score, adjusted, luck_of_side0;

  Interval win_interval(int side) const { return wilson_interval(wins[side], games); }
  double win_rate(int side) const { return games ? static_cast<double>(wins[side]) / games : 0; }
};

std::string match_to_text(const MatchResult& result);
std::string match_to_json(const MatchResult& result);

// The seed of game `index` of a match with base seed `seed`.
inline std::uint64_t match_game_seed(std::uint64_t seed, int index) {
  return Rng(seed, 0x6d61746368).derive(static_cast<std::uint64_t>(index)).next();
}

namespace match_detail {

struct Outcome {
  int winner = -1;
  int plies = 0;
  int error_side = -1;
  std::string end_reason;
  std::string error;
  double luck = 0;  // side 0's, with MatchOptions::luck
};

// Counts finished games for MatchOptions::progress; thread-safe.
class ProgressCounter {
 public:
  explicit ProgressCounter(const MatchOptions& options)
      : callback_(options.progress), start_(std::chrono::steady_clock::now()) {
    progress_.games = options.games;
  }
  void finished(int winner) {
    if (!callback_) return;
    const std::lock_guard<std::mutex> lock(mutex_);
    ++progress_.games_done;
    if (winner >= 0) {
      ++progress_.wins[static_cast<std::size_t>(winner)];
    } else {
      ++progress_.draws;
    }
    progress_.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    callback_(progress_);
  }

 private:
  const std::function<void(const MatchProgress&)>& callback_;
  std::chrono::steady_clock::time_point start_;
  std::mutex mutex_;
  MatchProgress progress_;
};

inline Outcome outcome_of(const GameResult& played) {
  return {played.winner, played.plies, played.error_side, played.end_reason, played.error};
}

inline void save_match_record(const std::string& record_dir, int index, const GameRecord& record) {
  char name[32];
  std::snprintf(name, sizeof name, "game-%06d.json", index);
  save_record((std::filesystem::path(record_dir) / name).string(), record);
}

// The match on MPI ranks: rank 0 hands game indices to ranks 1..N-1 (options.threads games at a
// time each, default 1) and collects the outcomes, and alone writes the records.  Workers leave
// `outcomes` empty.
template <Game G>
void play_on_ranks(const G& game, const std::array<std::string, 2>& specs,
                   const MatchOptions& options, const AgentFactory<G>& factory,
                   std::vector<Outcome>& outcomes, const std::string& local_error,
                   const LuckMeter<G>* luck) {
  mpi::require_same_run("match\ngame " + std::string(game.info().name) + "\nrules " +
                            game.rules_json() + "\nagents " + specs[0] + " | " + specs[1] +
                            "\ngames " + std::to_string(options.games) + "\nseed " +
                            std::to_string(options.seed) + "\nmax_plies " +
                            std::to_string(options.max_plies) + "\nturn_limit " +
                            std::to_string(options.turn_limit) + "\n",
                        local_error);
  mpi::share_start("");
  if (mpi::rank() != 0) {
    struct Players {
      AgentPtr<G> agents[2];
    };
    tbb::enumerable_thread_specific<Players> workers([&] {
      return Players{{build_agent(factory, game, specs[0]), build_agent(factory, game, specs[1])}};
    });
    mpi::work_on_jobs(options.threads > 0 ? options.threads : 1, [&](std::int64_t index) {
      Players& players = workers.local();
      return encode_game_result(play_game(game, *players.agents[0], *players.agents[1],
                                          match_game_seed(options.seed, static_cast<int>(index)),
                                          options.max_plies, options.turn_limit));
    });
    return;
  }
  std::vector<std::int64_t> jobs(static_cast<std::size_t>(options.games));
  for (std::size_t i = 0; i < jobs.size(); ++i) jobs[i] = static_cast<std::int64_t>(i);
  ProgressCounter counter(options);
  try {
    mpi::serve_jobs(
        jobs,
        [&](std::int64_t index, std::string_view bytes) {
          GameResult played;
          if (index < 0 || index >= options.games || !decode_game_result(bytes, played)) {
            throw SlingError("an MPI rank sent a malformed result for game " +
                             std::to_string(index));
          }
          outcomes[static_cast<std::size_t>(index)] = outcome_of(played);
          if (luck != nullptr) {
            outcomes[static_cast<std::size_t>(index)].luck = luck->luck(played.record);
          }
          played.record.agents = {specs[0], specs[1]};
          if (!options.record_dir.empty()) {
            save_match_record(options.record_dir, static_cast<int>(index), played.record);
          }
          if (options.on_game) options.on_game(static_cast<int>(index), played);
          counter.finished(played.winner);
        },
        mpi::StopNote{"match: stopped by a signal (an MPI rank died or the job was cancelled)\n",
                      ""});
  } catch (const std::exception& e) {
    std::cerr << "match: " << e.what() << "; stopping every MPI rank" << std::endl;
    mpi::abort_all(1);
  }
}

}  // namespace match_detail

// Plays the match on `options.threads` threads, or across MPI ranks when started by mpirun with
// more than one (then only rank 0's result is filled in: the others return an empty MatchResult).
// `factory` builds the agents from their specs (make_agent when empty).
template <Game G>
MatchResult run_match(const G& game, const std::array<std::string, 2>& specs,
                      const MatchOptions& options, const AgentFactory<G>& factory = {}) {
  using match_detail::Outcome;
  if (options.games < 1) throw OptionError("a match needs at least one game");
  MatchResult result;
  result.game = std::string(game.info().name);
  result.sides = {std::string(game.info().sides[0]), std::string(game.info().sides[1])};
  result.seed = options.seed;
  result.turn_limit = recorded_turn_limit<G>(options.turn_limit);
  result.games = options.games;
  std::optional<LuckMeter<G>> luck;
  if (options.luck && (!mpi::distributed() || mpi::rank() == 0)) {
    luck.emplace(game);
    result.luck = true;
    result.luck_source = luck->source();
  }
  std::vector<Outcome> outcomes(static_cast<std::size_t>(options.games));
  const auto start = std::chrono::steady_clock::now();
  if (mpi::distributed()) {
    // A rank that cannot build an agent says so to rank 0 instead of leaving the others waiting.
    std::string error;
    try {
      result.specs = {build_agent(factory, game, specs[0])->spec(),
                      build_agent(factory, game, specs[1])->spec()};
      if (mpi::rank() == 0 && !options.record_dir.empty()) {
        std::filesystem::create_directories(options.record_dir);
      }
    } catch (const std::exception& e) {
      error = e.what();
    }
    match_detail::play_on_ranks(game, specs, options, factory, outcomes, error,
                                luck ? &*luck : nullptr);
    if (mpi::rank() != 0) {
      MatchResult none;  // (a named value: GCC 12 fails on a braced temporary here)
      return none;
    }
  } else {
    // Build once up front: a bad spec is reported before any game starts.
    result.specs = {build_agent(factory, game, specs[0])->spec(),
                    build_agent(factory, game, specs[1])->spec()};
    if (!options.record_dir.empty()) std::filesystem::create_directories(options.record_dir);
    struct Players {
      AgentPtr<G> agents[2];
    };
    tbb::enumerable_thread_specific<Players> workers([&] {
      return Players{{build_agent(factory, game, specs[0]), build_agent(factory, game, specs[1])}};
    });
    match_detail::ProgressCounter counter(options);
    tbb::task_arena arena(options.threads > 0 ? options.threads : tbb::task_arena::automatic);
    arena.execute([&] {
      tbb::parallel_for(0, options.games, [&](int index) {
        if (options.stop && options.stop()) return;
        Players& players = workers.local();
        GameResult played =
            play_game(game, *players.agents[0], *players.agents[1],
                      match_game_seed(options.seed, index), options.max_plies, options.turn_limit);
        played.record.agents = {specs[0], specs[1]};
        outcomes[static_cast<std::size_t>(index)] = match_detail::outcome_of(played);
        if (luck) outcomes[static_cast<std::size_t>(index)].luck = luck->luck(played.record);
        if (!options.record_dir.empty()) {
          match_detail::save_match_record(options.record_dir, index, played.record);
        }
        if (options.on_game) options.on_game(index, played);
        counter.finished(played.winner);
      });
    });
  }
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
  if (result.luck) {
    std::vector<double> scores, adjusted, lucks;
    for (const Outcome& o : outcomes) {
      const double score = o.winner == 0 ? 1.0 : (o.winner == 1 ? 0.0 : 0.5);
      scores.push_back(score);
      lucks.push_back(o.luck);
      adjusted.push_back(score - o.luck);
    }
    result.score = mean_interval(scores);
    result.adjusted = mean_interval(adjusted);
    result.luck_of_side0 = mean_interval(lucks);
  }
  return result;
}

// The registered games' matches are compiled once, in experiments/match.cpp (as their agents are,
// agents/registry.h): the harness with its threads, ranks and records would otherwise be compiled
// again in every file that runs a match.
extern template MatchResult run_match(const pig::PigGame&, const std::array<std::string, 2>&,
                                      const MatchOptions&, const AgentFactory<pig::PigGame>&);
extern template MatchResult run_match(const duel::DuelGame&, const std::array<std::string, 2>&,
                                      const MatchOptions&, const AgentFactory<duel::DuelGame>&);
extern template MatchResult run_match(const danelaw::DanelawGame&,
                                      const std::array<std::string, 2>&, const MatchOptions&,
                                      const AgentFactory<danelaw::DanelawGame>&);

}  // namespace sling
