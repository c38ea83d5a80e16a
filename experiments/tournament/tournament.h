#pragma once
// The tournament harness: a paired round robin played in parallel, logged so that it can be
// reproduced, resumed after any interruption (even kill -9), and rated.
//
// Schedule.  Every pair of agents (i < j) plays `pairs_per_pairing` pairs of games.  In a pair, i
// plays side 0 in the first game and side 1 in the second; both games use the same game seed, so
// the same dice stream (common random numbers): a lucky roll helps each agent once, and luck
// largely cancels within the pair.  The games diverge once the agents choose differently; that is
// expected. Pairs are numbered repetition-major (repetition 0 of every pairing, then repetition 1,
// ...), so a run stopped early still covers every pairing evenly.  Game g belongs to pair g / 2 and
// its seed is Rng(seed, pair).next(): a game depends on nothing but the configuration and its id.
//
// Files in the output directory (see docs/tournament.md):
//   config.json    the configuration; a resumed run must match it exactly
//   games.csv      one row a finished game, appended and flushed as games finish, rewritten in
//                  game-id order at the end
//   records.jsonl  one line a finished game, {"game_id": N, "record": R} with R a game record in
//                  the JSON format of engine/core/record.h; appended before the game's row, sorted
//                  by game id at the end (load_tournament_record reads one back)
//   timing.csv     wall seconds per game: the one file that is not reproducible
//   ratings.json, ratings.svg   the report
// Every file but timing.csv is byte-identical for any thread count and after any resume.

#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <array>
#include <atomic>
#include <cstdint>
#include <exception>
#include <functional>
#include <iosfwd>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "agents/registry.h"
#include "experiments/play_game.h"
#include "experiments/ratings.h"

namespace sling {

struct TournamentConfig {
  std::string game;                 // GameInfo::name
  std::string rules;                // the game's rules JSON, exactly as the game writes it
  std::vector<std::string> agents;  // agent spec strings, as given
  int pairs_per_pairing = 10;       // pairs of games (one each side) per pair of agents
  std::uint64_t seed = 1;

  void validate() const;  // throws OptionError
  std::string to_json() const;
  static TournamentConfig from_json(std::string_view text, const std::string& path);
  // The first field that differs, described for a person; empty when the configs are equal.
  std::string first_difference(const TournamentConfig& other) const;
};

struct ScheduledGame {
  std::int64_t game_id = 0;
  std::int64_t pair_id = 0;
  std::uint64_t seed = 0;
  int agent0 = 0;  // index into TournamentConfig::agents of the agent on side 0
  int agent1 = 0;
};

class Schedule {
 public:
  explicit Schedule(const TournamentConfig& config);
  std::int64_t total_games() const { return total_games_; }
  std::int64_t pairings() const { return static_cast<std::int64_t>(pairings_.size()); }
  ScheduledGame game(std::int64_t game_id) const;

 private:
  std::uint64_t seed_;
  std::vector<std::array<int, 2>> pairings_;
  std::int64_t total_games_;
};

// One row of games.csv.
struct GameRow {
  std::int64_t game_id = 0;
  std::int64_t pair_id = 0;
  std::uint64_t seed = 0;
  int agent0 = 0;
  int agent1 = 0;
  int winner = -1;  // side index, or -1 for a draw
  std::string end;  // how the game ended (the game's end reason, "error", "ply limit")
  int plies = 0;
  std::string error;  // the failing agent's message when end == "error"

  bool operator==(const GameRow&) const = default;
};

using SideNames = std::array<std::string, 2>;

std::string games_csv_header(const SideNames& sides);
std::string format_game_row(const GameRow& row, const TournamentConfig& config,
                            const SideNames& sides);

struct ParsedGamesCsv {
  std::vector<GameRow> rows;          // the valid rows, in file order
  std::vector<std::string> problems;  // "games.csv line N: reason", one per malformed line
  bool torn_tail = false;             // the last line had no line break (an interrupted write)
  int torn_line = 0;
};

// Parses games.csv leniently: every complete line is checked against the schedule (ids, seeds,
// agents), a malformed one is reported in `problems` by its line number, and the valid rows are
// kept.  `path` names the file in messages.
ParsedGamesCsv parse_games_csv(std::string_view text, const TournamentConfig& config,
                               const SideNames& sides, const std::string& path);

// Everything the report shows, computed from the rows alone (so it is as reproducible as they are).
struct TournamentReport {
  std::string game;
  SideNames sides;
  std::vector<std::string> agents;
  std::int64_t games = 0;
  std::int64_t total_games = 0;
  RatingFit fit;
  std::vector<std::vector<double>> score_rate;         // [i][j]: i's score rate against j, or NaN
  std::vector<std::vector<int>> games_between;         // [i][j]: games i played against j
  std::vector<std::array<double, 2>> side_score_rate;  // [i][side]: i's score rate on that side
  std::vector<std::array<int, 2>> side_games;
  std::map<std::string, std::int64_t> ends;  // by end reason
  std::int64_t draws = 0;
  std::int64_t errors = 0;
  std::array<std::int64_t, 2> side_wins{};
};

TournamentReport make_report(const TournamentConfig& config, const SideNames& sides,
                             const std::vector<GameRow>& rows);
std::string report_table(const TournamentReport& report);
std::string report_json(const TournamentReport& report);
std::string report_svg(const TournamentReport& report);

enum class ProgressStyle { kNone, kBar, kLines };

struct TournamentOptions {
  std::string out_dir = "tournament-out";
  int threads = 0;  // 0: every core
  bool resume = false;
  ProgressStyle progress = ProgressStyle::kNone;
  double progress_interval_seconds = 10;  // for kLines
  int max_plies = 1'000'000;
  bool isolate = false;  // one process per game: a crashing agent loses instead of ending the run
};

class Progress;

// The output directory: creation, configuration check, recovery of finished games, and the
// thread-safe appends.  Non-template, so the game-specific runner below stays small.
class TournamentStore {
 public:
  TournamentStore(const TournamentConfig& config, const SideNames& sides,
                  const TournamentOptions& options, std::ostream& log);
  ~TournamentStore();
  TournamentStore(const TournamentStore&) = delete;
  TournamentStore& operator=(const TournamentStore&) = delete;

  const Schedule& schedule() const { return schedule_; }
  std::vector<std::int64_t> pending_games() const;
  // A row with the scheduled fields of the game filled in.
  GameRow scheduled_row(std::int64_t game_id) const;
  std::int64_t finished_games() const;

  // Saves a finished game: its record first, then its row (so a row always has its record), then
  // its time.  Thread-safe.
  void save(const GameRow& row, const GameRecord& record, double seconds);
  // Logs a failed agent's error with the game id.  Thread-safe.
  void log_error(const GameRow& row);
  // Rewrites games.csv and timing.csv in game-id order and returns the rows.
  std::vector<GameRow> finish();

 private:
  void create_fresh();
  void recover();
  void open_appenders();

  TournamentConfig config_;
  SideNames sides_;
  TournamentOptions options_;
  std::ostream& log_;
  Schedule schedule_;
  std::mutex mutex_;
  std::vector<GameRow> rows_;
  std::vector<char> finished_;
  std::map<std::int64_t, double> seconds_;
  int games_fd_ = -1;
  int records_fd_ = -1;
  int timing_fd_ = -1;
  bool records_in_order_ = true;  // records.jsonl holds increasing game ids so far
  std::int64_t last_record_id_ = -1;
  std::unique_ptr<Progress> progress_;
  std::vector<double> agent_score_;
  std::vector<int> agent_games_;
};

// One line of records.jsonl (with its line break).
std::string record_line(std::int64_t game_id, const GameRecord& record);
// Reads game `game_id`'s record from a tournament directory; throws FileFormatError if absent.
GameRecord load_tournament_record(const std::string& out_dir, std::int64_t game_id);

// Writes ratings.json and ratings.svg into the directory.
void write_report_files(const std::string& out_dir, const TournamentReport& report);

// Builds an agent from its spec; make_agent by default (tests add agents of known strength).
template <Game G>
using AgentFactory = std::function<AgentPtr<G>(const G& game, const std::string& spec)>;

// Isolation: with TournamentOptions::isolate every game runs in a child process, so that an agent
// that crashes (a segmentation fault, an abort, a stack overflow) loses that game instead of ending
// the run.  The child reports to the parent through a pipe: the side about to act, every action
// applied (so a crashed game keeps its history), and finally the result.
namespace isolation {

void send_side(int fd, int side);
void send_action(int fd, Action action);
void send_result(int fd, const GameResult& result);

// Plays the pending games `slots` at a time, each in a child process forked from this one, which
// calls `play_in_child(row, fd)` and exits; saves each result (or the crash) in the store.
void run_isolated(TournamentStore& store, const std::vector<std::int64_t>& pending, int slots,
                  const std::string& game_name, const std::string& rules,
                  const std::function<void(const GameRow& row, int fd)>& play_in_child);

// Forwards to an agent and tells the parent process which side is acting and what was played.
template <Game G>
class ReportingAgent final : public Agent<G> {
 public:
  ReportingAgent(AgentPtr<G> inner, int side, int fd)
      : inner_(std::move(inner)), side_(side), fd_(fd) {}
  void new_game(std::uint64_t seed) override {
    send_side(fd_, side_);
    inner_->new_game(seed);
  }
  Action act(const typename G::State& state) override {
    send_side(fd_, side_);
    return inner_->act(state);
  }
  void observe(const typename G::State& before, Action applied) override {
    if (side_ == 0) send_action(fd_, applied);  // once per action: side 0's copy reports it
    send_side(fd_, side_);  // observe is agent code too: a crash in it is this side's
    inner_->observe(before, applied);
  }
  Analysis last_analysis() const override { return inner_->last_analysis(); }
  std::string spec() const override { return inner_->spec(); }

 private:
  AgentPtr<G> inner_;
  int side_;
  int fd_;
};

}  // namespace isolation

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
