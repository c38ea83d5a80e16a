#pragma once
// The tournament harness: a paired round robin played in parallel, logged so that it can be
// reproduced, resumed after any interruption (even kill -9), and rated.  Its parts, one concern a
// file:
//   config.h        the configuration (config.json) and the schedule: who plays game g, with which
//                   seed
//   agent_pool.h    a worker's agents across games: agent programs are kept, the others built anew
//   game_store.h    the output directory: games.csv, records.jsonl, timing.csv, recovery, resume
//   process_pool.h  --isolate: one forked process per game
//   report.h        ratings.json, ratings.svg and the terminal table
//   progress.h      the progress bar
// This file plays the games: the game-specific runner that feeds the store.

#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <atomic>
#include <cmath>
#include <cstdint>
#include <exception>
#include <filesystem>
#include <functional>
#include <iosfwd>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "agents/registry.h"
#include "engine/core/io.h"
#include "experiments/analysis/luck.h"
#include "experiments/game_result_codec.h"
#include "experiments/mpi_jobs.h"
#include "experiments/play_game.h"
#include "experiments/tournament/agent_pool.h"
#include "experiments/tournament/config.h"
#include "experiments/tournament/game_store.h"
#include "experiments/tournament/process_pool.h"
#include "experiments/tournament/report.h"
#include "experiments/tournament/text_format.h"

namespace sling {

// Plays one scheduled game with agents borrowed from the worker's pool, given back after the game.
// An exception outside act() (building the agent, new_game) costs the failing side the game, like
// one inside act() (play_game handles those), and its agents are not given back.  With
// report_fd >= 0 the agents report to a parent process (isolation; the child's pool dies with it).
template <Game G>
GameResult play_scheduled_game(const G& game, const TournamentConfig& config, AgentPool<G>& pool,
                               const GameRow& row, int max_plies, int report_fd = -1) {
  GameResult result;
  AgentPtr<G> agents[2];
  const int index[2] = {row.agent0, row.agent1};
  int failing_side = -1;
  try {
    for (int side = 0; side < 2; ++side) {
      failing_side = side;
      if (report_fd >= 0) isolation::send_side(report_fd, side);
      agents[side] = pool.borrow(index[side]);
      if (report_fd >= 0) {
        agents[side] = std::make_unique<isolation::ReportingAgent<G>>(std::move(agents[side]), side,
                                                                      report_fd);
      }
      agents[side]->new_game(agent_seed(row.seed, side));
    }
    failing_side = -1;
    result = play_game(game, *agents[0], *agents[1], row.seed, max_plies, config.turn_limit);
    result.record.agents = {config.agents[row.agent0], config.agents[row.agent1]};
    if (report_fd < 0) {
      for (int side = 0; side < 2; ++side) pool.give_back(index[side], std::move(agents[side]));
    }
  } catch (const std::exception& e) {
    result = GameResult{};
    result.record = GameRecord{std::string(game.info().name), game.rules_json(), row.seed, {}};
    result.record.turn_limit = config.turn_limit;
    result.end_reason = "error";
    result.error = e.what();
    result.error_side = failing_side >= 0 ? failing_side : 0;
    result.winner = 1 - result.error_side;
  }
  return result;
}

namespace tournament_detail {

// Side 0's luck in every recorded game (docs/analysis.md), measured from records.jsonl on
// `options.threads` threads and written to luck.csv (game_id,luck).
template <Game G>
TournamentLuck measure_luck(const G& game, const TournamentOptions& options) {
  const LuckMeter<G> meter(game);
  const auto records = load_tournament_records(options.out_dir);
  std::vector<double> luck(records.size());
  tbb::task_arena arena(options.threads > 0 ? options.threads : tbb::task_arena::automatic);
  arena.execute([&] {
    tbb::parallel_for(std::size_t{0}, records.size(),
                      [&](std::size_t i) { luck[i] = meter.luck(records[i].second); });
  });
  TournamentLuck out;
  out.source = meter.source();
  std::string csv = "game_id,luck\n";
  for (std::size_t i = 0; i < records.size(); ++i) {
    out.by_game[records[i].first] = luck[i];
    csv += std::to_string(records[i].first) + "," +
           (std::isfinite(luck[i]) ? tournament_text::format_number("%.9f", luck[i]) : "") + "\n";
  }
  write_file_atomic((std::filesystem::path(options.out_dir) / "luck.csv").string(), csv);
  return out;
}

template <Game G>
TournamentReport finish_report(const G& game, const TournamentConfig& config,
                               const TournamentOptions& options, const SideNames& sides,
                               const std::vector<GameRow>& rows) {
  TournamentLuck luck;
  if (options.luck) luck = measure_luck(game, options);
  TournamentReport report = make_report(config, sides, rows, options.luck ? &luck : nullptr);
  write_report_files(options.out_dir, report);
  return report;
}

// Plays the pending games on `threads` threads of this process.
template <Game G>
void play_on_threads(const G& game, const TournamentConfig& config, const AgentFactory<G>& factory,
                     const TournamentOptions& options, TournamentStore& store,
                     const std::vector<std::int64_t>& pending, int threads) {
  // Workers pull the next game id from one counter, so games start in id order whatever the
  // thread count.  Each worker has its own pool: built-in agents are built fresh for each game, so
  // nothing carries over between games, and agent programs are kept (agent_pool.h).
  std::atomic<std::size_t> next{0};
  std::atomic<bool> failed{false};   // a log write failed: the other workers stop too
  std::atomic<bool> stopped{false};  // options.stop said so
  tbb::task_arena arena(threads);
  arena.execute([&] {
    tbb::parallel_for(0, threads, [&](int) {
      AgentPool<G> pool(game, config.agents, factory);
      for (std::size_t index = next++; index < pending.size() && !failed && !stopped;
           index = next++) {
        const GameRow scheduled = store.scheduled_row(pending[index]);
        const GameResult result =
            play_scheduled_game(game, config, pool, scheduled, options.max_plies);
        if (options.stop && options.stop()) {
          stopped = true;
          break;
        }
        const GameRow row = finished_row(scheduled, result);
        try {
          store.save(row, result.record, result.seconds);
        } catch (...) {
          failed = true;
          throw;
        }
        if (!row.error.empty()) store.log_error(row);
      }
    });
  });
  if (stopped) throw TournamentStopped();
}

// The tournament on MPI ranks: rank 0 holds the store and hands game ids to ranks 1..N-1, which
// play them (options.threads at a time each, default 1) and send back the results.  Rank 0 writes
// exactly what one process writes, so every file but timing.csv is byte-identical for any N.
// Workers return an empty report.
template <Game G>
TournamentReport run_on_ranks(const G& game, const TournamentConfig& config,
                              const TournamentOptions& options, std::ostream& log,
                              const AgentFactory<G>& factory, const SideNames& sides,
                              const std::string& local_error) {
  std::string error = local_error;
  if (error.empty() && options.isolate) {
    error = "--isolate runs on one machine; start it without mpirun";
  }
  // Everything that changes a game's result; --threads, --out and --resume do not.
  mpi::require_same_run(
      "tournament\n" + config.to_json() + "max_plies " + std::to_string(options.max_plies) + "\n",
      error);
  if (mpi::rank() != 0) {
    const std::string refused = mpi::share_start("");
    if (!refused.empty()) throw OptionError(refused);
    const Schedule schedule(config);
    // A pool per worker thread of this rank, as in play_on_threads; the programs it keeps quit when
    // the pools are destroyed, after the last game.
    tbb::enumerable_thread_specific<AgentPool<G>> pools(
        [&] { return AgentPool<G>(game, config.agents, factory); });
    mpi::work_on_jobs(options.threads > 0 ? options.threads : 1, [&](std::int64_t game_id) {
      const GameRow row = scheduled_row(schedule, game_id);
      return encode_game_result(
          play_scheduled_game(game, config, pools.local(), row, options.max_plies));
    });
    TournamentReport none;  // (a named value: GCC 12 fails on a braced temporary here)
    return none;
  }
  std::unique_ptr<TournamentStore> store;
  std::exception_ptr failure;
  std::string refused;
  try {
    store = std::make_unique<TournamentStore>(config, sides, options, log);
  } catch (const std::exception& e) {
    failure = std::current_exception();
    refused = e.what();
  }
  mpi::share_start(refused);
  if (failure) std::rethrow_exception(failure);
  try {
    mpi::serve_jobs(
        store->pending_games(),
        [&](std::int64_t game_id, std::string_view bytes) {
          GameResult result;
          if (game_id < 0 || game_id >= store->schedule().total_games() ||
              !decode_game_result(bytes, result)) {
            throw SlingError("an MPI rank sent a malformed result for game " +
                             std::to_string(game_id));
          }
          const GameRow row = finished_row(store->scheduled_row(game_id), result);
          store->save(row, result.record, result.seconds);
          if (!row.error.empty()) store->log_error(row);
        },
        mpi::StopNote{"tournament: stopped by a signal (an MPI rank died or the job was "
                      "cancelled); the files in '" +
                          options.out_dir + "' are intact: run again with --resume to continue\n",
                      (std::filesystem::path(options.out_dir) / kStopNoteFile).string()});
  } catch (const std::exception& e) {
    // The other ranks are waiting for work that will not come: stop them all.
    log << "tournament: " << e.what() << "; stopping every MPI rank (the files in '"
        << options.out_dir << "' are intact: run again with --resume to continue)" << std::endl;
    mpi::abort_all(1);
  }
  const std::vector<GameRow> rows = store->finish();
  return finish_report(game, config, options, sides, rows);
}

}  // namespace tournament_detail

// Plays every unfinished game of the tournament on `threads` threads (or `threads` processes
// with options.isolate, or across MPI ranks when started by mpirun with more than one), writes
// the report files and returns the report.  Progress and agent errors go to `log`.  Under MPI
// only rank 0 writes and returns the report; the other ranks return an empty one.
template <Game G>
TournamentReport run_tournament(const G& game, const TournamentConfig& config,
                                const TournamentOptions& options, std::ostream& log,
                                AgentFactory<G> factory = {}) {
  if (!factory) {
    factory = [](const G& g, const std::string& spec) { return make_agent(g, spec); };
  }
  config.validate();
  if (config.game != game.info().name || config.rules != game.rules_json()) {
    throw OptionError("tournament configuration does not describe this game and rules");
  }
  const SideNames sides{std::string(game.info().sides[0]), std::string(game.info().sides[1])};
  if (mpi::distributed()) {
    // A rank that cannot build an agent says so to rank 0 instead of leaving the others waiting.
    std::string error;
    try {
      for (const std::string& spec : config.agents) factory(game, spec);
    } catch (const std::exception& e) {
      error = e.what();
    }
    return tournament_detail::run_on_ranks(game, config, options, log, factory, sides, error);
  }
  for (const std::string& spec : config.agents) factory(game, spec);  // bad specs fail now
  if (options.luck) LuckMeter<G> check(game);  // a game without values fails now, not at the end

  TournamentStore store(config, sides, options, log);
  const std::vector<std::int64_t> pending = store.pending_games();
  const int threads = options.threads > 0 ? options.threads : tbb::info::default_concurrency();
  if (options.isolate) {
    isolation::run_isolated(
        store, pending, threads, config.game, config.rules, [&](const GameRow& row, int fd) {
          // A fresh pool in each game's process: --isolate keeps nothing between games.
          AgentPool<G> pool(game, config.agents, factory);
          isolation::send_result(
              fd, play_scheduled_game(game, config, pool, row, options.max_plies, fd));
        });
  } else {
    tournament_detail::play_on_threads(game, config, factory, options, store, pending, threads);
  }
  const std::vector<GameRow> rows = store.finish();
  return tournament_detail::finish_report(game, config, options, sides, rows);
}

// The registered games' tournaments are compiled once, in experiments/tournament/tournament.cpp
// (as their matches are, experiments/match.h).
extern template TournamentReport run_tournament(const pig::PigGame&, const TournamentConfig&,
                                                const TournamentOptions&, std::ostream&,
                                                AgentFactory<pig::PigGame>);
extern template TournamentReport run_tournament(const duel::DuelGame&, const TournamentConfig&,
                                                const TournamentOptions&, std::ostream&,
                                                AgentFactory<duel::DuelGame>);
extern template TournamentReport run_tournament(const danelaw::DanelawGame&,
                                                const TournamentConfig&, const TournamentOptions&,
                                                std::ostream&, AgentFactory<danelaw::DanelawGame>);

}  // namespace sling
