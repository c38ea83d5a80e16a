#pragma once
// The game store: the files of a tournament's output directory, how finished games are appended
// to them, and how an interrupted run (even one killed with kill -9) is recovered and resumed.
//
// Files in the output directory (see docs/tournament.md):
//   config.json    the configuration; a resumed run must match it exactly
//   games.csv      one row a finished game, appended and flushed as games finish, rewritten in
//                  game-id order at the end
//   records.jsonl  one line a finished game, {"game_id": N, "record": R} with R a game record in
//                  the JSON format of engine/core/record.h; appended before the game's row, sorted
//                  by game id at the end (load_tournament_record reads one back)
//   timing.csv     wall seconds per game: the one file that is not reproducible
//   ratings.json, ratings.svg   the report (report.h)
// Every file but timing.csv is byte-identical for any thread or process count and after any resume.

#include <array>
#include <cstdint>
#include <iosfwd>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "engine/core/record.h"
#include "experiments/play_game.h"
#include "experiments/tournament/config.h"

namespace sling {

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

// The one score formula of the tournament: a win scores 1, a draw 1/2, a loss 0.  This is side 0's
// score; side 1 scores 1 minus it.
inline double side0_score(const GameRow& row) {
  return row.winner == 0 ? 1.0 : (row.winner == 1 ? 0.0 : 0.5);
}

// The row of a scheduled game, its result fields still empty.
GameRow scheduled_row(const Schedule& schedule, std::int64_t game_id);
// The row with a played game's result filled in.
GameRow finished_row(GameRow row, const GameResult& result);

using SideNames = std::array<std::string, 2>;

std::string games_csv_header(const SideNames& sides);
std::string format_game_row(const GameRow& row, const TournamentConfig& config,
                            const SideNames& sides);
// The whole of games.csv for these rows (header first, rows in the order given).
std::string games_csv_text(const std::vector<GameRow>& rows, const TournamentConfig& config,
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

// One line of records.jsonl (with its line break).
std::string record_line(std::int64_t game_id, const GameRecord& record);
// Reads game `game_id`'s record from a tournament directory; throws FileFormatError if absent.
GameRecord load_tournament_record(const std::string& out_dir, std::int64_t game_id);
// Every record of a tournament directory, by game id; throws FileFormatError on a malformed line.
std::vector<std::pair<std::int64_t, GameRecord>> load_tournament_records(
    const std::string& out_dir);

// The lines of records.jsonl by game id.  A last line without its line break was cut off by an
// interruption and is ignored; any other malformed line is reported by number.
struct RecordLines {
  std::map<std::int64_t, std::string_view> lines;  // without line breaks
  std::vector<std::string> problems;
};
RecordLines split_record_lines(std::string_view text, std::int64_t total_games,
                               const std::string& path);

class TournamentProgress;

// The note an MPI run leaves in its output directory when the launcher stops it; the run that
// finishes the tournament removes it.
inline constexpr const char* kStopNoteFile = "stopped.txt";

// The output directory: creation, configuration check, recovery of finished games, and the
// thread-safe appends.  Non-template, so the game-specific runner (tournament.h) stays small.
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
  // Logs a line of its own, clearing the progress bar first.  Thread-safe.
  void log_message(const std::string& text);
  // Rewrites games.csv and timing.csv in game-id order and returns the rows.
  std::vector<GameRow> finish();

 private:
  void create_fresh();
  void recover();
  void open_appenders();
  void close_appenders();
  // games.csv and timing.csv rewritten whole from rows_ and seconds_, rows in game-id order.
  void rewrite_games_and_timing();
  // Adds a finished game to the running scores behind the progress line's leader.
  void count_score(const GameRow& row);
  std::string leader_text() const;

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
  std::unique_ptr<TournamentProgress> progress_;
  std::vector<double> agent_score_;
  std::vector<int> agent_games_;
};

}  // namespace sling
