#include "experiments/tournament/game_store.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <ostream>
#include <sstream>

#include "engine/core/errors.h"
#include "engine/core/io.h"
#include "experiments/tournament/progress.h"
#include "experiments/tournament/text_format.h"

namespace sling {

namespace fs = std::filesystem;
using tournament_text::format_number;
using tournament_text::parse_integer;
using tournament_text::single_line;

namespace {

// Appends a whole line with one write() call where possible, so that a killed process leaves at
// worst one torn last line.
void append_all(int fd, const std::string& text, const std::string& path) {
  std::size_t written = 0;
  while (written < text.size()) {
    const ssize_t n = ::write(fd, text.data() + written, text.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw FileFormatError("cannot append to '" + path + "': " + std::strerror(errno));
    written += static_cast<std::size_t>(n);
  }
}

}  // namespace

TournamentStore::TournamentStore(const TournamentConfig& config, const SideNames& sides,
                                 const TournamentOptions& options, std::ostream& log)
    : config_(config), sides_(sides), options_(options), log_(log), schedule_(config) {
  finished_.assign(static_cast<std::size_t>(schedule_.total_games()), 0);
  agent_score_.assign(config.agents.size(), 0.0);
  agent_games_.assign(config.agents.size(), 0);
  const fs::path dir(options_.out_dir);
  const fs::path config_path = dir / "config.json";
  if (!fs::exists(config_path)) {
    if (fs::exists(dir) && !fs::is_empty(dir)) {
      throw OptionError("'" + options_.out_dir +
                        "' exists and is not a tournament directory (no config.json); choose "
                        "another --out");
    }
    if (options_.resume)
      log_ << "tournament: nothing to resume in '" << options_.out_dir
           << "'; starting a new tournament\n";
    create_fresh();
  } else {
    const TournamentConfig existing =
        TournamentConfig::from_json(read_file(config_path.string()), config_path.string());
    const std::string difference = existing.first_difference(config_);
    if (!difference.empty()) {
      throw OptionError("'" + options_.out_dir +
                        "' holds a tournament with another configuration (" + difference +
                        "); choose another --out or remove it");
    }
    recover();
  }
  open_appenders();
  for (const GameRow& row : rows_) count_score(row);
  progress_ = std::make_unique<TournamentProgress>(log_, options_.progress,
                                                   options_.progress_interval_seconds,
                                                   schedule_.total_games(), finished_games());
}

TournamentStore::~TournamentStore() {
  close_appenders();
}

void TournamentStore::close_appenders() {
  for (int* fd : {&games_fd_, &records_fd_, &timing_fd_}) {
    if (*fd >= 0) ::close(*fd);
    *fd = -1;
  }
}

void TournamentStore::rewrite_games_and_timing() {
  std::sort(rows_.begin(), rows_.end(),
            [](const GameRow& a, const GameRow& b) { return a.game_id < b.game_id; });
  const fs::path dir(options_.out_dir);
  std::string timing_text = "game_id,seconds\n";
  for (const auto& [id, seconds] : seconds_) {
    timing_text += std::to_string(id) + "," + format_number("%.6f", seconds) + "\n";
  }
  write_file_atomic((dir / "games.csv").string(), games_csv_text(rows_, config_, sides_));
  write_file_atomic((dir / "timing.csv").string(), timing_text);
}

void TournamentStore::count_score(const GameRow& row) {
  const double score0 = side0_score(row);
  agent_score_[row.agent0] += score0;
  agent_score_[row.agent1] += 1.0 - score0;
  ++agent_games_[row.agent0];
  ++agent_games_[row.agent1];
}

std::string TournamentStore::leader_text() const {
  int leader = -1;
  double best = -1;
  for (std::size_t i = 0; i < agent_games_.size(); ++i) {
    if (agent_games_[i] == 0) continue;
    const double rate = agent_score_[i] / agent_games_[i];
    if (rate > best) best = rate, leader = static_cast<int>(i);
  }
  return leader < 0 ? "" : config_.agents[leader] + " " + format_number("%.0f%%", 100 * best);
}

void TournamentStore::create_fresh() {
  const fs::path dir(options_.out_dir);
  std::error_code error;
  fs::create_directories(dir, error);
  if (error) throw FileFormatError("cannot create '" + dir.string() + "': " + error.message());
  // config.json comes first: a directory with it is recognised even if the run stops right here.
  write_file_atomic((dir / "config.json").string(), config_.to_json());
  write_file_atomic((dir / "games.csv").string(), games_csv_header(sides_) + "\n");
  write_file_atomic((dir / "records.jsonl").string(), "");
  write_file_atomic((dir / "timing.csv").string(), "game_id,seconds\n");
}

void TournamentStore::recover() {
  const fs::path dir(options_.out_dir);
  const std::string games_path = (dir / "games.csv").string();
  std::vector<GameRow> rows;
  if (fs::exists(games_path)) {
    const ParsedGamesCsv parsed =
        parse_games_csv(read_file(games_path), config_, sides_, games_path);
    if (!parsed.problems.empty()) {
      std::string message = parsed.problems.front();
      if (parsed.problems.size() > 1) {
        message += " (and " + std::to_string(parsed.problems.size() - 1) + " more bad lines)";
      }
      throw FileFormatError(
          message + "; the file is left unchanged with its " + std::to_string(parsed.rows.size()) +
          " valid rows: fix or delete the bad lines, then run again with --resume");
    }
    rows = parsed.rows;
    if (parsed.torn_tail && options_.resume) {
      log_ << "tournament: " << games_path << " line " << parsed.torn_line
           << " was cut off by an interrupted write; that game will be played again\n";
    }
  }
  // A row counts only with its record (the record is appended first, so this drops nothing a
  // normal interruption produces).
  const std::string records_path = (dir / "records.jsonl").string();
  const std::string records_text = fs::exists(records_path) ? read_file(records_path) : "";
  const RecordLines records =
      split_record_lines(records_text, schedule_.total_games(), records_path);
  if (!records.problems.empty()) {
    throw FileFormatError(records.problems.front() + "; the file is left unchanged");
  }
  std::vector<GameRow> kept;
  for (GameRow& row : rows) {
    if (records.lines.count(row.game_id)) {
      kept.push_back(std::move(row));
    } else if (options_.resume) {
      log_ << "tournament: game " << row.game_id << " has no record; it will be played again\n";
    }
  }
  std::sort(kept.begin(), kept.end(),
            [](const GameRow& a, const GameRow& b) { return a.game_id < b.game_id; });
  rows_ = std::move(kept);
  for (const GameRow& row : rows_) finished_[static_cast<std::size_t>(row.game_id)] = 1;

  const std::int64_t done = finished_games();
  if (!options_.resume) {
    if (done < schedule_.total_games()) {
      throw OptionError("'" + options_.out_dir + "' holds an unfinished tournament (" +
                        std::to_string(done) + " of " + std::to_string(schedule_.total_games()) +
                        " games played); add --resume to continue it, or choose another --out");
    }
    log_ << "tournament: every game in '" << options_.out_dir << "' is already played\n";
  }

  // Wall times of the kept games (a lenient read: this file is informative only).
  const std::string timing_path = (dir / "timing.csv").string();
  if (fs::exists(timing_path)) {
    std::istringstream timing(read_file(timing_path));
    std::string line;
    while (std::getline(timing, line)) {
      if (timing.eof()) break;  // a last line without its line break is torn
      const std::size_t comma = line.find(',');
      std::int64_t id = 0;
      if (comma == std::string::npos || !parse_integer(std::string_view(line).substr(0, comma), id))
        continue;
      if (id < 0 || id >= schedule_.total_games() || !finished_[static_cast<std::size_t>(id)])
        continue;
      seconds_[id] = std::atof(line.c_str() + comma + 1);
    }
  }
  // Rewrite the logs clean (dropping torn last lines and records without rows) before appending.
  std::string records_clean;
  for (const GameRow& row : rows_) {
    records_clean += records.lines.at(row.game_id);
    records_clean += '\n';
    last_record_id_ = row.game_id;
  }
  write_file_atomic(records_path, records_clean);
  rewrite_games_and_timing();
}

void TournamentStore::open_appenders() {
  const fs::path dir(options_.out_dir);
  games_fd_ = ::open((dir / "games.csv").c_str(), O_WRONLY | O_APPEND);
  records_fd_ = ::open((dir / "records.jsonl").c_str(), O_WRONLY | O_APPEND);
  timing_fd_ = ::open((dir / "timing.csv").c_str(), O_WRONLY | O_APPEND);
  if (games_fd_ < 0 || records_fd_ < 0 || timing_fd_ < 0) {
    throw FileFormatError("cannot append to the logs in '" + options_.out_dir +
                          "': " + std::strerror(errno));
  }
}

GameRow scheduled_row(const Schedule& schedule, std::int64_t game_id) {
  const ScheduledGame scheduled = schedule.game(game_id);
  GameRow row;
  row.game_id = scheduled.game_id;
  row.pair_id = scheduled.pair_id;
  row.seed = scheduled.seed;
  row.agent0 = scheduled.agent0;
  row.agent1 = scheduled.agent1;
  return row;
}

GameRow finished_row(GameRow row, const GameResult& result) {
  row.winner = result.winner;
  row.end = result.end_reason;
  row.plies = result.plies;
  row.error = result.error;
  return row;
}

GameRow TournamentStore::scheduled_row(std::int64_t game_id) const {
  return sling::scheduled_row(schedule_, game_id);
}

std::vector<std::int64_t> TournamentStore::pending_games() const {
  std::vector<std::int64_t> pending;
  for (std::size_t id = 0; id < finished_.size(); ++id) {
    if (!finished_[id]) pending.push_back(static_cast<std::int64_t>(id));
  }
  return pending;
}

std::int64_t TournamentStore::finished_games() const {
  return static_cast<std::int64_t>(std::count(finished_.begin(), finished_.end(), 1));
}

void TournamentStore::save(const GameRow& row, const GameRecord& record, double seconds) {
  const std::string record_text = record_line(row.game_id, record);
  const std::string line = format_game_row(row, config_, sides_) + "\n";
  const std::string timing =
      std::to_string(row.game_id) + "," + format_number("%.6f", seconds) + "\n";

  std::lock_guard<std::mutex> lock(mutex_);
  append_all(records_fd_, record_text, options_.out_dir + "/records.jsonl");
  append_all(games_fd_, line, options_.out_dir + "/games.csv");
  append_all(timing_fd_, timing, options_.out_dir + "/timing.csv");
  rows_.push_back(row);
  if (row.game_id < last_record_id_) records_in_order_ = false;
  last_record_id_ = std::max(last_record_id_, row.game_id);
  seconds_[row.game_id] = seconds;
  finished_[static_cast<std::size_t>(row.game_id)] = 1;
  count_score(row);
  progress_->update(static_cast<std::int64_t>(rows_.size()), leader_text());
}

void TournamentStore::log_message(const std::string& text) {
  std::lock_guard<std::mutex> lock(mutex_);
  progress_->message(text);
}

void TournamentStore::log_error(const GameRow& row) {
  std::lock_guard<std::mutex> lock(mutex_);
  const int side = row.winner == 0 ? 1 : 0;
  const std::string agent = config_.agents[side == 0 ? row.agent0 : row.agent1];
  progress_->message("tournament: game " + std::to_string(row.game_id) + ": agent '" + agent +
                     "' (" + sides_[side] +
                     ") failed and loses the game: " + single_line(row.error));
}

std::vector<GameRow> TournamentStore::finish() {
  std::lock_guard<std::mutex> lock(mutex_);
  progress_->finish(static_cast<std::int64_t>(rows_.size()));
  if (finished_games() != schedule_.total_games()) {
    throw SlingError("tournament: some games were not played");
  }
  close_appenders();
  rewrite_games_and_timing();
  const fs::path dir(options_.out_dir);
  if (!records_in_order_) {
    // Games finished out of order on several threads: sort the records by game id.
    const std::string records_path = (dir / "records.jsonl").string();
    const std::string text = read_file(records_path);
    const RecordLines records = split_record_lines(text, schedule_.total_games(), records_path);
    if (!records.problems.empty()) throw FileFormatError(records.problems.front());
    std::string sorted;
    sorted.reserve(text.size());
    for (const auto& [id, line] : records.lines) {
      sorted += line;
      sorted += '\n';
    }
    write_file_atomic(records_path, sorted);
  }
  fs::remove(dir / kStopNoteFile);
  return rows_;
}

}  // namespace sling
