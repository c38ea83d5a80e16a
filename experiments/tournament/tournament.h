#pragma once
// The tournament harness: a paired round robin played in parallel, logged so that it can be
// reproduced, resumed after any interruption (even kill -9), and rated.  Its parts, one concern a
// file:
//   config.h        the configuration (config.json) and the schedule: who plays game g, with which
//                   seed
//   game_store.h    the output directory: games.csv, records.jsonl, timing.csv, recovery, resume
//   process_pool.h  --isolate: one forked process per game
//   report.h        ratings.json, ratings.svg and the terminal table
//   progress.h      the progress bar
// This file plays the games: the game-specific runner that feeds the store.

#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <atomic>
#include <cstdint>
#include <exception>
#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

#include "agents/registry.h"
#include "experiments/play_game.h"
#include "experiments/tournament/config.h"
#include "experiments/tournament/game_store.h"
#include "experiments/tournament/process_pool.h"
#include "experiments/tournament/report.h"

namespace sling {

// Builds an agent from its spec; make_agent by default (tests add agents of known strength).
template <Game G>
using AgentFactory = std::function<AgentPtr<G>(const G& game, const std::string& spec)>;

// Plays one scheduled game.  An exception outside act() (building the agent, new_game) costs the
// failing side the game, like one inside act() (play_game handles those).  With report_fd >= 0
// the agents report to a parent process (isolation).
template <Game G>
GameResult play_scheduled_game(const G& game, const TournamentConfig& config,
                               const AgentFactory<G>& factory, const GameRow& row, int max_plies,
                               int report_fd = -1) {
  GameResult result;
  AgentPtr<G> agents[2];
  int failing_side = -1;
  try {
    for (int side = 0; side < 2; ++side) {
      failing_side = side;
      if (report_fd >= 0) isolation::send_side(report_fd, side);
      agents[side] = factory(game, config.agents[side == 0 ? row.agent0 : row.agent1]);
      if (report_fd >= 0) {
        agents[side] = std::make_unique<isolation::ReportingAgent<G>>(std::move(agents[side]), side,
                                                                      report_fd);
      }
      agents[side]->new_game(agent_seed(row.seed, side));
    }
    failing_side = -1;
    result = play_game(game, *agents[0], *agents[1], row.seed, max_plies);
  } catch (const std::exception& e) {
    result = GameResult{};
    result.record = GameRecord{std::string(game.info().name), game.rules_json(), row.seed, {}};
    result.end_reason = "error";
    result.error = e.what();
    result.error_side = failing_side >= 0 ? failing_side : 0;
    result.winner = 1 - result.error_side;
  }
  return result;
}

// Plays every unfinished game of the tournament on `threads` threads (or `threads` processes
// with options.isolate), writes the report files and returns the report.  Progress and agent
// errors go to `log`.
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
  for (const std::string& spec : config.agents) factory(game, spec);  // bad specs fail now

  const SideNames sides{std::string(game.info().sides[0]), std::string(game.info().sides[1])};
  TournamentStore store(config, sides, options, log);
  const std::vector<std::int64_t> pending = store.pending_games();
  const int threads = options.threads > 0 ? options.threads : tbb::info::default_concurrency();

  if (options.isolate) {
    isolation::run_isolated(
        store, pending, threads, config.game, config.rules, [&](const GameRow& row, int fd) {
          isolation::send_result(
              fd, play_scheduled_game(game, config, factory, row, options.max_plies, fd));
        });
  } else {
    // Workers pull the next game id from one counter, so games start in id order whatever the
    // thread count; each game builds fresh agents, so nothing carries over between games.
    std::atomic<std::size_t> next{0};
    std::atomic<bool> failed{false};  // a log write failed: the other workers stop too
    tbb::task_arena arena(threads);
    arena.execute([&] {
      tbb::parallel_for(0, threads, [&](int) {
        for (std::size_t index = next++; index < pending.size() && !failed; index = next++) {
          GameRow row = store.scheduled_row(pending[index]);
          const GameResult result =
              play_scheduled_game(game, config, factory, row, options.max_plies);
          row.winner = result.winner;
          row.end = result.end_reason;
          row.plies = result.plies;
          row.error = result.error;
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
  }
  const std::vector<GameRow> rows = store.finish();
  TournamentReport report = make_report(config, sides, rows);
  write_report_files(options.out_dir, report);
  return report;
}

}  // namespace sling
