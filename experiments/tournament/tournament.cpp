#include "experiments/tournament/tournament.h"

#include "engine/core/json_text.h"

#include "engine/core/json_options.h"  // first: makes rapidjson assertions throw

#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <limits>
#include <ostream>
#include <set>
#include <sstream>

#include "engine/core/io.h"
#include "experiments/csv.h"

namespace sling {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view kConfigFormat = "sling-tournament";
constexpr int kConfigVersion = 1;

std::string format(const char* pattern, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, pattern, value);
  return buffer;
}

// A finite number as JSON, or null (an interval of an agent that never played).
std::string json_number(double value, const char* pattern = "%.2f") {
  return std::isfinite(value) ? format(pattern, value) : "null";
}

template <class Integer>
bool parse_integer(std::string_view text, Integer& value) {
  if (text.empty()) return false;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  return error == std::errc() && end == text.data() + text.size();
}

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

std::string duration_text(double seconds) {
  if (!std::isfinite(seconds) || seconds < 0) return "?";
  const auto total = static_cast<long long>(seconds + 0.5);
  char buffer[32];
  if (total >= 3600) {
    std::snprintf(buffer, sizeof buffer, "%lldh%02lldm", total / 3600, total / 60 % 60);
  } else if (total >= 60) {
    std::snprintf(buffer, sizeof buffer, "%lldm%02llds", total / 60, total % 60);
  } else {
    std::snprintf(buffer, sizeof buffer, "%llds", total);
  }
  return buffer;
}

std::string single_line(std::string text) {
  for (char& c : text) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  return text;
}

constexpr std::string_view kRecordPrefix = "{\"game_id\":";
constexpr std::string_view kRecordMiddle = ",\"record\":";

// The game id of a records.jsonl line (without its line break), or -1 if the line is malformed.
std::int64_t record_line_id(std::string_view line) {
  if (!line.starts_with(kRecordPrefix) || !line.ends_with("}}")) return -1;
  line.remove_prefix(kRecordPrefix.size());
  const std::size_t middle = line.find(kRecordMiddle);
  std::int64_t id = -1;
  if (middle == std::string_view::npos || !parse_integer(line.substr(0, middle), id)) return -1;
  return id;
}

// The lines of records.jsonl by game id.  A last line without its line break was cut off by an
// interruption and is ignored; any other malformed line is reported by number.
struct RecordLines {
  std::map<std::int64_t, std::string_view> lines;  // without line breaks
  std::vector<std::string> problems;
};

RecordLines split_record_lines(std::string_view text, std::int64_t total_games,
                               const std::string& path) {
  RecordLines result;
  int line_number = 0;
  std::size_t at = 0;
  while (at < text.size()) {
    ++line_number;
    const std::size_t end = text.find('\n', at);
    if (end == std::string_view::npos) break;  // torn
    const std::string_view line = text.substr(at, end - at);
    at = end + 1;
    const std::int64_t id = record_line_id(line);
    if (id < 0 || id >= total_games) {
      result.problems.push_back(path + " line " + std::to_string(line_number) +
                                ": not a game record line of this tournament");
      continue;
    }
    result.lines[id] = line;  // a repeated id (a game replayed after a torn row) keeps the last
  }
  return result;
}

}  // namespace

std::string record_line(std::int64_t game_id, const GameRecord& record) {
  // The record's own JSON encoding, minified onto one line.
  const std::string pretty = record_to_json(record);
  rapidjson::StringStream in(pretty.c_str());
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
  rapidjson::Reader reader;
  if (!reader.Parse(in, writer)) throw SlingError("cannot encode the record of a game");
  std::string line(kRecordPrefix);
  line += std::to_string(game_id);
  line += kRecordMiddle;
  line.append(buffer.GetString(), buffer.GetSize());
  line += "}\n";
  return line;
}

GameRecord load_tournament_record(const std::string& out_dir, std::int64_t game_id) {
  const std::string path = (fs::path(out_dir) / "records.jsonl").string();
  const std::string text = read_file(path);
  const RecordLines records =
      split_record_lines(text, std::numeric_limits<std::int64_t>::max(), path);
  const auto it = records.lines.find(game_id);
  if (it == records.lines.end()) {
    throw FileFormatError("'" + path + "' has no record of game " + std::to_string(game_id));
  }
  std::string_view line = it->second;
  line.remove_prefix(line.find(kRecordMiddle) + kRecordMiddle.size());
  line.remove_suffix(1);  // the closing brace of the line's object
  return record_from_text(line);
}

// ---------------------------------------------------------------------------------------------
// Configuration and schedule

void TournamentConfig::validate() const {
  if (agents.size() < 2) throw OptionError("a tournament needs at least two agents");
  std::set<std::string> seen;
  for (const std::string& spec : agents) {
    if (spec.empty()) throw OptionError("an agent spec is empty");
    if (!seen.insert(spec).second) {
      throw OptionError("agent '" + spec + "' is listed twice (give each agent once)");
    }
  }
  if (pairs_per_pairing < 1) throw OptionError("--games must be at least 1");
}

std::string TournamentConfig::to_json() const {
  std::string out = "{\n";
  out += "  \"format\": " + json_string(kConfigFormat) + ",\n";
  out += "  \"version\": " + std::to_string(kConfigVersion) + ",\n";
  out += "  \"game\": " + json_string(game) + ",\n";
  out += "  \"rules\": " + json_string(rules) + ",\n";
  out += "  \"agents\": [";
  for (std::size_t i = 0; i < agents.size(); ++i) {
    out += (i ? ", " : "") + json_string(agents[i]);
  }
  out += "],\n";
  out += "  \"pairs_per_pairing\": " + std::to_string(pairs_per_pairing) + ",\n";
  out += "  \"seed\": " + std::to_string(seed) + "\n}\n";
  return out;
}

TournamentConfig TournamentConfig::from_json(std::string_view text, const std::string& path) {
  rapidjson::Document document;
  document.Parse(text.data(), text.size());
  auto fail = [&](const std::string& reason) -> TournamentConfig {
    throw FileFormatError("'" + path + "': " + reason);
  };
  if (document.HasParseError() || !document.IsObject()) return fail("not a JSON object");
  auto member = [&](const char* key) -> const rapidjson::Value& {
    const auto it = document.FindMember(key);
    if (it == document.MemberEnd()) fail(std::string("missing key '") + key + "'");
    return it->value;
  };
  if (!member("format").IsString() || member("format").GetString() != kConfigFormat) {
    return fail("not a Sling tournament configuration");
  }
  if (!member("version").IsInt() || member("version").GetInt() != kConfigVersion) {
    return fail("unsupported tournament configuration version");
  }
  TournamentConfig config;
  if (!member("game").IsString() || !member("rules").IsString() || !member("agents").IsArray() ||
      !member("pairs_per_pairing").IsInt() || !member("seed").IsUint64()) {
    return fail("a key has the wrong kind of value");
  }
  config.game = member("game").GetString();
  config.rules = member("rules").GetString();
  for (const auto& agent : member("agents").GetArray()) {
    if (!agent.IsString()) return fail("'agents' must be a list of strings");
    config.agents.emplace_back(agent.GetString());
  }
  config.pairs_per_pairing = member("pairs_per_pairing").GetInt();
  config.seed = member("seed").GetUint64();
  return config;
}

std::string TournamentConfig::first_difference(const TournamentConfig& other) const {
  auto list = [](const std::vector<std::string>& agents) {
    std::string text;
    for (const auto& a : agents) text += (text.empty() ? "" : " ") + a;
    return text;
  };
  if (game != other.game) return "game " + game + " vs " + other.game;
  if (rules != other.rules) return "the rules differ";
  if (agents != other.agents)
    return "agents [" + list(agents) + "] vs [" + list(other.agents) + "]";
  if (pairs_per_pairing != other.pairs_per_pairing) {
    return "--games " + std::to_string(pairs_per_pairing) + " vs " +
           std::to_string(other.pairs_per_pairing);
  }
  if (seed != other.seed)
    return "--seed " + std::to_string(seed) + " vs " + std::to_string(other.seed);
  return "";
}

Schedule::Schedule(const TournamentConfig& config) : seed_(config.seed) {
  const int n = static_cast<int>(config.agents.size());
  for (int i = 0; i < n; ++i) {
    for (int j = i + 1; j < n; ++j) pairings_.push_back({i, j});
  }
  total_games_ = 2 * static_cast<std::int64_t>(pairings_.size()) * config.pairs_per_pairing;
}

ScheduledGame Schedule::game(std::int64_t game_id) const {
  ScheduledGame game;
  game.game_id = game_id;
  game.pair_id = game_id / 2;
  const auto& pairing = pairings_[static_cast<std::size_t>(game.pair_id % pairings())];
  const bool swapped = game_id % 2 == 1;
  game.agent0 = pairing[swapped ? 1 : 0];
  game.agent1 = pairing[swapped ? 0 : 1];
  game.seed = Rng(seed_, static_cast<std::uint64_t>(game.pair_id)).next();
  return game;
}

// ---------------------------------------------------------------------------------------------
// games.csv

std::string games_csv_header(const SideNames& sides) {
  return csv_line(
      {"game_id", "pair_id", "seed", sides[0], sides[1], "winner", "end", "plies", "error"});
}

std::string format_game_row(const GameRow& row, const TournamentConfig& config,
                            const SideNames& sides) {
  return csv_line({std::to_string(row.game_id), std::to_string(row.pair_id),
                   std::to_string(row.seed), config.agents[row.agent0], config.agents[row.agent1],
                   row.winner < 0 ? "draw" : sides[row.winner], row.end, std::to_string(row.plies),
                   single_line(row.error)});
}

ParsedGamesCsv parse_games_csv(std::string_view text, const TournamentConfig& config,
                               const SideNames& sides, const std::string& path) {
  ParsedGamesCsv parsed;
  const Schedule schedule(config);
  std::map<std::int64_t, int> line_of_game;
  std::vector<std::string> fields;
  std::string error;
  int line_number = 0;
  std::size_t at = 0;
  auto problem = [&](const std::string& reason) {
    parsed.problems.push_back(path + " line " + std::to_string(line_number) + ": " + reason);
  };
  while (at < text.size()) {
    ++line_number;
    const std::size_t end = text.find('\n', at);
    if (end == std::string_view::npos) {
      parsed.torn_tail = true;  // no line break: the write of this row was interrupted
      parsed.torn_line = line_number;
      break;
    }
    const std::string_view line = text.substr(at, end - at);
    at = end + 1;
    if (line_number == 1) {
      if (line != games_csv_header(sides)) {
        problem("expected the header '" + games_csv_header(sides) + "'");
        return parsed;  // without the right header no row can be trusted
      }
      continue;
    }
    if (!parse_csv_line(line, fields, error)) {
      problem(error);
      continue;
    }
    if (fields.size() != 9) {
      problem("expected 9 fields, found " + std::to_string(fields.size()));
      continue;
    }
    GameRow row;
    if (!parse_integer(fields[0], row.game_id) || row.game_id < 0 ||
        row.game_id >= schedule.total_games()) {
      problem("game id '" + fields[0] + "' is not in the schedule");
      continue;
    }
    const ScheduledGame expected = schedule.game(row.game_id);
    if (!parse_integer(fields[1], row.pair_id) || row.pair_id != expected.pair_id) {
      problem("pair id '" + fields[1] + "' does not match game " + fields[0]);
      continue;
    }
    if (!parse_integer(fields[2], row.seed) || row.seed != expected.seed) {
      problem("seed '" + fields[2] + "' does not match game " + fields[0]);
      continue;
    }
    if (fields[3] != config.agents[expected.agent0] ||
        fields[4] != config.agents[expected.agent1]) {
      problem("agents do not match the schedule of game " + fields[0]);
      continue;
    }
    row.agent0 = expected.agent0;
    row.agent1 = expected.agent1;
    if (fields[5] == sides[0]) {
      row.winner = 0;
    } else if (fields[5] == sides[1]) {
      row.winner = 1;
    } else if (fields[5] == "draw") {
      row.winner = -1;
    } else {
      problem("winner '" + fields[5] + "' is not " + sides[0] + ", " + sides[1] + " or draw");
      continue;
    }
    row.end = fields[6];
    if (row.end.empty()) {
      problem("the end reason is empty");
      continue;
    }
    if (!parse_integer(fields[7], row.plies) || row.plies < 0) {
      problem("plies '" + fields[7] + "' is not a count");
      continue;
    }
    row.error = fields[8];
    const auto [previous, inserted] = line_of_game.emplace(row.game_id, line_number);
    if (!inserted) {
      problem("game " + fields[0] + " is already on line " + std::to_string(previous->second));
      continue;
    }
    parsed.rows.push_back(std::move(row));
  }
  if (line_number == 0) {
    parsed.problems.push_back(path + " line 1: the header is missing");
  }
  return parsed;
}

// ---------------------------------------------------------------------------------------------
// Progress

class Progress {
 public:
  using Clock = std::chrono::steady_clock;

  Progress(std::ostream& out, ProgressStyle style, double interval, std::int64_t total,
           std::int64_t done)
      : out_(out),
        style_(style),
        interval_(interval),
        total_(total),
        start_done_(done),
        start_(Clock::now()),
        last_(start_) {}

  void update(std::int64_t done, const std::string& leader) {
    if (style_ == ProgressStyle::kNone) return;
    const auto now = Clock::now();
    const double since = std::chrono::duration<double>(now - last_).count();
    const double wait = style_ == ProgressStyle::kBar ? 0.1 : interval_;
    if (since < wait && done < total_) return;
    last_ = now;
    const double elapsed = std::chrono::duration<double>(now - start_).count();
    const double rate = elapsed > 0 ? static_cast<double>(done - start_done_) / elapsed : 0.0;
    const double eta = rate > 0 ? static_cast<double>(total_ - done) / rate : -1.0;
    char numbers[160];
    std::snprintf(numbers, sizeof numbers, "%lld/%lld games  %.2f games/s  ETA %s",
                  static_cast<long long>(done), static_cast<long long>(total_), rate,
                  duration_text(eta).c_str());
    std::string text = numbers;
    if (!leader.empty()) text += "  leader: " + leader;
    if (style_ == ProgressStyle::kBar) {
      constexpr int kWidth = 24;
      const int filled = total_ > 0 ? static_cast<int>(kWidth * done / total_) : kWidth;
      out_ << "\r[" << std::string(filled, '#') << std::string(kWidth - filled, '.') << "] " << text
           << "\x1b[K" << std::flush;
      drawn_ = true;
    } else {
      out_ << "tournament: " << text << '\n' << std::flush;
    }
  }

  void message(const std::string& text) {
    clear();
    out_ << text << '\n' << std::flush;
  }

  void finish(std::int64_t done) {
    if (style_ == ProgressStyle::kNone) return;
    clear();
    const double elapsed = std::chrono::duration<double>(Clock::now() - start_).count();
    char line[160];
    std::snprintf(line, sizeof line, "tournament: %lld games played in %s (%.2f games/s)",
                  static_cast<long long>(done - start_done_), duration_text(elapsed).c_str(),
                  elapsed > 0 ? static_cast<double>(done - start_done_) / elapsed : 0.0);
    out_ << line << '\n' << std::flush;
  }

 private:
  void clear() {
    if (drawn_) out_ << "\r\x1b[K";
    drawn_ = false;
  }

  std::ostream& out_;
  ProgressStyle style_;
  double interval_;
  std::int64_t total_;
  std::int64_t start_done_;
  Clock::time_point start_;
  Clock::time_point last_;
  bool drawn_ = false;
};

// ---------------------------------------------------------------------------------------------
// The output directory

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
  for (const GameRow& row : rows_) {
    const double score0 = row.winner == 0 ? 1.0 : (row.winner == 1 ? 0.0 : 0.5);
    agent_score_[row.agent0] += score0;
    agent_score_[row.agent1] += 1.0 - score0;
    ++agent_games_[row.agent0];
    ++agent_games_[row.agent1];
  }
  progress_ =
      std::make_unique<Progress>(log_, options_.progress, options_.progress_interval_seconds,
                                 schedule_.total_games(), finished_games());
}

TournamentStore::~TournamentStore() {
  if (games_fd_ >= 0) ::close(games_fd_);
  if (records_fd_ >= 0) ::close(records_fd_);
  if (timing_fd_ >= 0) ::close(timing_fd_);
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
  std::string games_text = games_csv_header(sides_) + "\n";
  for (const GameRow& row : rows_) games_text += format_game_row(row, config_, sides_) + "\n";
  write_file_atomic(games_path, games_text);
  std::string timing_text = "game_id,seconds\n";
  for (const auto& [id, seconds] : seconds_) {
    timing_text += std::to_string(id) + "," + format("%.6f", seconds) + "\n";
  }
  write_file_atomic(timing_path, timing_text);
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

GameRow TournamentStore::scheduled_row(std::int64_t game_id) const {
  const ScheduledGame scheduled = schedule_.game(game_id);
  GameRow row;
  row.game_id = scheduled.game_id;
  row.pair_id = scheduled.pair_id;
  row.seed = scheduled.seed;
  row.agent0 = scheduled.agent0;
  row.agent1 = scheduled.agent1;
  return row;
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
  const std::string timing = std::to_string(row.game_id) + "," + format("%.6f", seconds) + "\n";

  std::lock_guard<std::mutex> lock(mutex_);
  append_all(records_fd_, record_text, options_.out_dir + "/records.jsonl");
  append_all(games_fd_, line, options_.out_dir + "/games.csv");
  append_all(timing_fd_, timing, options_.out_dir + "/timing.csv");
  rows_.push_back(row);
  if (row.game_id < last_record_id_) records_in_order_ = false;
  last_record_id_ = std::max(last_record_id_, row.game_id);
  seconds_[row.game_id] = seconds;
  finished_[static_cast<std::size_t>(row.game_id)] = 1;
  const double score0 = row.winner == 0 ? 1.0 : (row.winner == 1 ? 0.0 : 0.5);
  agent_score_[row.agent0] += score0;
  agent_score_[row.agent1] += 1.0 - score0;
  ++agent_games_[row.agent0];
  ++agent_games_[row.agent1];
  int leader = -1;
  double best = -1;
  for (std::size_t i = 0; i < agent_games_.size(); ++i) {
    if (agent_games_[i] == 0) continue;
    const double rate = agent_score_[i] / agent_games_[i];
    if (rate > best) best = rate, leader = static_cast<int>(i);
  }
  const std::string leader_text =
      leader < 0 ? "" : config_.agents[leader] + " " + format("%.0f%%", 100 * best);
  progress_->update(static_cast<std::int64_t>(rows_.size()), leader_text);
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
  std::sort(rows_.begin(), rows_.end(),
            [](const GameRow& a, const GameRow& b) { return a.game_id < b.game_id; });
  const fs::path dir(options_.out_dir);
  std::string games_text = games_csv_header(sides_) + "\n";
  for (const GameRow& row : rows_) games_text += format_game_row(row, config_, sides_) + "\n";
  std::string timing_text = "game_id,seconds\n";
  for (const auto& [id, seconds] : seconds_) {
    timing_text += std::to_string(id) + "," + format("%.6f", seconds) + "\n";
  }
  ::close(games_fd_);
  ::close(records_fd_);
  ::close(timing_fd_);
  games_fd_ = records_fd_ = timing_fd_ = -1;
  write_file_atomic((dir / "games.csv").string(), games_text);
  write_file_atomic((dir / "timing.csv").string(), timing_text);
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
  return rows_;
}

// ---------------------------------------------------------------------------------------------
// Isolation: one process per game

namespace isolation {

namespace {

// Messages from a game process: 'S' + int32 side about to run agent code, 'A' + uint32 action
// applied, 'R' + uint32 length + the result.
constexpr char kSideTag = 'S';
constexpr char kActionTag = 'A';
constexpr char kResultTag = 'R';

void send_bytes(int fd, const std::string& bytes) {
  std::size_t written = 0;
  while (written < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + written, bytes.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) ::_exit(3);  // the parent is gone: nobody is left to report to
    written += static_cast<std::size_t>(n);
  }
}

template <class T>
void put(std::string& out, const T& value) {
  out.append(reinterpret_cast<const char*>(&value), sizeof value);
}

void put_text(std::string& out, const std::string& text) {
  put(out, static_cast<std::uint32_t>(text.size()));
  out += text;
}

// Reads what put/put_text wrote; false when the bytes run out.
class Reader {
 public:
  explicit Reader(std::string_view bytes) : bytes_(bytes) {}
  template <class T>
  bool get(T& value) {
    if (bytes_.size() < sizeof value) return false;
    std::memcpy(&value, bytes_.data(), sizeof value);
    bytes_.remove_prefix(sizeof value);
    return true;
  }
  bool get_text(std::string& text) {
    std::uint32_t size = 0;
    if (!get(size) || bytes_.size() < size) return false;
    text.assign(bytes_.substr(0, size));
    bytes_.remove_prefix(size);
    return true;
  }

 private:
  std::string_view bytes_;
};

struct Child {
  pid_t pid = -1;
  int fd = -1;
  GameRow row;
  std::string buffer;
  int side = -1;  // the side whose agent code ran last
  std::vector<Action> history;
  bool has_result = false;
  bool protocol_error = false;
  GameResult result;
  std::chrono::steady_clock::time_point start;
};

// Consumes the complete messages at the front of child.buffer.
void read_messages(Child& child) {
  std::size_t at = 0;
  const std::string& b = child.buffer;
  while (at < b.size()) {
    const char tag = b[at];
    if (tag == kSideTag || tag == kActionTag) {
      if (b.size() - at < 5) break;
      std::uint32_t value = 0;
      std::memcpy(&value, b.data() + at + 1, 4);
      if (tag == kSideTag) {
        child.side = static_cast<int>(value);
      } else {
        child.history.push_back(value);
      }
      at += 5;
    } else if (tag == kResultTag) {
      if (b.size() - at < 5) break;
      std::uint32_t length = 0;
      std::memcpy(&length, b.data() + at + 1, 4);
      if (b.size() - at - 5 < length) break;
      Reader reader(std::string_view(b).substr(at + 5, length));
      GameResult& r = child.result;
      std::int32_t winner = 0, error_side = 0, plies = 0;
      std::string record;
      if (!reader.get(winner) || !reader.get(error_side) || !reader.get(plies) ||
          !reader.get(r.seconds) || !reader.get_text(r.end_reason) || !reader.get_text(r.error) ||
          !reader.get_text(record)) {
        child.protocol_error = true;
        return;
      }
      r.winner = winner;
      r.error_side = error_side;
      r.plies = plies;
      try {
        r.record = record_from_text(record);
      } catch (const FileFormatError&) {
        child.protocol_error = true;
        return;
      }
      child.has_result = true;
      at += 5 + length;
    } else {
      child.protocol_error = true;
      return;
    }
  }
  child.buffer.erase(0, at);
}

}  // namespace

void send_side(int fd, int side) {
  std::string message(1, kSideTag);
  put(message, static_cast<std::uint32_t>(side));
  send_bytes(fd, message);
}

void send_action(int fd, Action action) {
  std::string message(1, kActionTag);
  put(message, static_cast<std::uint32_t>(action));
  send_bytes(fd, message);
}

void send_result(int fd, const GameResult& result) {
  std::string payload;
  put(payload, static_cast<std::int32_t>(result.winner));
  put(payload, static_cast<std::int32_t>(result.error_side));
  put(payload, static_cast<std::int32_t>(result.plies));
  put(payload, result.seconds);
  put_text(payload, result.end_reason);
  put_text(payload, result.error);
  put_text(payload, record_to_binary(result.record));
  std::string message(1, kResultTag);
  put(message, static_cast<std::uint32_t>(payload.size()));
  send_bytes(fd, message + payload);
}

void run_isolated(TournamentStore& store, const std::vector<std::int64_t>& pending, int slots,
                  const std::string& game_name, const std::string& rules,
                  const std::function<void(const GameRow& row, int fd)>& play_in_child) {
  std::vector<Child> running;
  std::size_t next = 0;
  auto spawn = [&](std::int64_t game_id) {
    Child child;
    child.row = store.scheduled_row(game_id);
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) {
      throw SlingError(std::string("cannot create a pipe: ") + std::strerror(errno));
    }
    child.start = std::chrono::steady_clock::now();
    child.pid = ::fork();
    if (child.pid < 0) {
      ::close(fds[0]);
      ::close(fds[1]);
      throw SlingError(std::string("cannot start a game process: ") + std::strerror(errno));
    }
    if (child.pid == 0) {
      ::close(fds[0]);
      try {
        play_in_child(child.row, fds[1]);
      } catch (...) {
      }
      ::_exit(0);  // no destructors, no atexit handlers: the parent owns every file
    }
    ::close(fds[1]);
    child.fd = fds[0];
    running.push_back(std::move(child));
  };
  auto finish = [&](Child& child) {
    ::close(child.fd);
    int status = 0;
    while (::waitpid(child.pid, &status, 0) < 0 && errno == EINTR) {
    }
    GameRow row = child.row;
    GameRecord record;
    double seconds = 0;
    if (child.has_result && !child.protocol_error) {
      row.winner = child.result.winner;
      row.end = child.result.end_reason;
      row.plies = child.result.plies;
      row.error = child.result.error;
      record = std::move(child.result.record);
      seconds = child.result.seconds;
    } else {
      // The process died inside an agent: that agent loses, and the moves so far are kept.
      const int side = child.side >= 0 && child.side <= 1 ? child.side : 0;
      row.winner = 1 - side;
      row.end = "error";
      row.plies = static_cast<int>(child.history.size());
      if (child.protocol_error) {
        row.error = "the game process sent malformed results";
      } else if (WIFSIGNALED(status)) {
        row.error = std::string("agent crashed (") + ::strsignal(WTERMSIG(status)) + ")";
      } else {
        row.error = "agent process exited with status " +
                    std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1);
      }
      record = GameRecord{game_name, rules, row.seed, child.history};
      seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - child.start).count();
    }
    store.save(row, record, seconds);
    if (!row.error.empty()) store.log_error(row);
  };
  try {
    while (next < pending.size() || !running.empty()) {
      while (static_cast<int>(running.size()) < slots && next < pending.size()) {
        spawn(pending[next++]);
      }
      std::vector<pollfd> polls;
      for (const Child& child : running) polls.push_back({child.fd, POLLIN, 0});
      if (::poll(polls.data(), polls.size(), -1) < 0) {
        if (errno == EINTR) continue;
        throw SlingError(std::string("poll failed: ") + std::strerror(errno));
      }
      for (std::size_t i = running.size(); i-- > 0;) {
        if (polls[i].revents == 0) continue;
        Child& child = running[i];
        char chunk[65536];
        const ssize_t n = ::read(child.fd, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR) continue;
        if (n > 0) {
          child.buffer.append(chunk, static_cast<std::size_t>(n));
          read_messages(child);
          continue;
        }
        finish(child);  // end of the pipe: the process has exited or is exiting
        running.erase(running.begin() + static_cast<std::ptrdiff_t>(i));
      }
    }
  } catch (...) {
    for (Child& child : running) {
      ::kill(child.pid, SIGKILL);
      ::close(child.fd);
      ::waitpid(child.pid, nullptr, 0);
    }
    throw;
  }
}

}  // namespace isolation

// ---------------------------------------------------------------------------------------------
// The report

TournamentReport make_report(const TournamentConfig& config, const SideNames& sides,
                             const std::vector<GameRow>& rows) {
  TournamentReport report;
  report.game = config.game;
  report.sides = sides;
  report.agents = config.agents;
  report.games = static_cast<std::int64_t>(rows.size());
  report.total_games = Schedule(config).total_games();
  const std::size_t n = config.agents.size();
  std::vector<std::vector<double>> points(n, std::vector<double>(n, 0.0));
  report.games_between.assign(n, std::vector<int>(n, 0));
  std::vector<std::array<double, 2>> side_points(n, {0.0, 0.0});
  report.side_games.assign(n, {0, 0});
  std::vector<RatedGame> rated;
  for (const GameRow& row : rows) {
    const double score0 = row.winner == 0 ? 1.0 : (row.winner == 1 ? 0.0 : 0.5);
    rated.push_back({row.agent0, row.agent1, score0, row.pair_id});
    points[row.agent0][row.agent1] += score0;
    points[row.agent1][row.agent0] += 1.0 - score0;
    ++report.games_between[row.agent0][row.agent1];
    ++report.games_between[row.agent1][row.agent0];
    side_points[row.agent0][0] += score0;
    side_points[row.agent1][1] += 1.0 - score0;
    ++report.side_games[row.agent0][0];
    ++report.side_games[row.agent1][1];
    ++report.ends[row.end];
    if (row.winner < 0) ++report.draws;
    if (row.winner >= 0) ++report.side_wins[row.winner];
    if (row.end == "error") ++report.errors;
  }
  const double nan = std::numeric_limits<double>::quiet_NaN();
  report.score_rate.assign(n, std::vector<double>(n, nan));
  report.side_score_rate.assign(n, {nan, nan});
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < n; ++j) {
      if (report.games_between[i][j] > 0) {
        report.score_rate[i][j] = points[i][j] / report.games_between[i][j];
      }
    }
    for (int side = 0; side < 2; ++side) {
      if (report.side_games[i][side] > 0) {
        report.side_score_rate[i][side] = side_points[i][side] / report.side_games[i][side];
      }
    }
  }
  report.fit = fit_ratings(config.agents, rated, {.intervals = IntervalMethod::kClustered});
  return report;
}

namespace {

// Agents by rating, strongest first (ties by name, so the order is reproducible).
std::vector<int> ranking(const TournamentReport& report) {
  std::vector<int> order(report.agents.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
  std::sort(order.begin(), order.end(), [&](int a, int b) {
    const double ea = report.fit.agents[a].elo, eb = report.fit.agents[b].elo;
    if (ea != eb) return ea > eb;
    return report.agents[a] < report.agents[b];
  });
  return order;
}

std::string percent(double rate) {
  return std::isfinite(rate) ? format("%.1f%%", 100 * rate) : "-";
}

std::string signed_elo(double elo) {
  if (!std::isfinite(elo)) return elo > 0 ? "+inf" : "-inf";
  return std::abs(elo) < 0.5 ? "+0" : format("%+.0f", elo);  // never "-0"
}

std::string pad(const std::string& text, std::size_t width, bool left = true) {
  if (text.size() >= width) return text;
  return left ? text + std::string(width - text.size(), ' ')
              : std::string(width - text.size(), ' ') + text;
}

}  // namespace

std::string report_table(const TournamentReport& report) {
  const std::vector<int> order = ranking(report);
  std::size_t name_width = 5;
  for (const auto& name : report.agents) name_width = std::max(name_width, name.size());
  std::ostringstream out;
  out << "Tournament: " << report.game << ", " << report.games << " of " << report.total_games
      << " games\n";
  out << "Side advantage of " << report.sides[0] << ": "
      << signed_elo(report.fit.side_advantage_elo) << " Elo ["
      << signed_elo(report.fit.side_advantage_ci_low) << ", "
      << signed_elo(report.fit.side_advantage_ci_high) << "] (" << report.sides[0] << " won "
      << report.side_wins[0] << ", " << report.sides[1] << " won " << report.side_wins[1]
      << ", draws " << report.draws << ")\n";
  out << "Intervals: 95%, "
      << (report.fit.intervals == IntervalMethod::kClustered
              ? "from the spread of the pair results (games of a pair share their dice)"
              : "from the model (few pairs, or an agent or side won all or none of its games)")
      << "\n\n";
  out << "rank  " << pad("agent", name_width) << "   Elo   95% interval   games   score  "
      << pad(report.sides[0], 8, false) << " " << pad(report.sides[1], 8, false) << "\n";
  for (std::size_t r = 0; r < order.size(); ++r) {
    const int i = order[r];
    const AgentRating& a = report.fit.agents[i];
    out << pad(std::to_string(r + 1), 4, false) << "  " << pad(report.agents[i], name_width)
        << pad(signed_elo(a.elo), 6, false) << "  "
        << pad("[" + signed_elo(a.ci_low) + ", " + signed_elo(a.ci_high) + "]", 13) << " "
        << pad(std::to_string(a.games), 6, false) << " "
        << pad(percent(a.games ? a.score / a.games : std::nan("")), 7, false) << "  "
        << pad(percent(report.side_score_rate[i][0]), 8, false) << " "
        << pad(percent(report.side_score_rate[i][1]), 8, false) << "\n";
  }
  out << "\nScore of the row agent against the column agent (both sides; draws count half):\n";
  out << pad("", name_width + 5);
  for (std::size_t c = 0; c < order.size(); ++c) out << pad("#" + std::to_string(c + 1), 7, false);
  out << "\n";
  for (std::size_t r = 0; r < order.size(); ++r) {
    out << pad("#" + std::to_string(r + 1) + " " + report.agents[order[r]], name_width + 5);
    for (int c : order) out << pad(percent(report.score_rate[order[r]][c]), 7, false);
    out << "\n";
  }
  out << "\nLikelihood of superiority (row stronger than column):\n";
  out << pad("", name_width + 5);
  for (std::size_t c = 0; c < order.size(); ++c) out << pad("#" + std::to_string(c + 1), 7, false);
  out << "\n";
  for (std::size_t r = 0; r < order.size(); ++r) {
    out << pad("#" + std::to_string(r + 1) + " " + report.agents[order[r]], name_width + 5);
    for (int c : order) {
      out << pad(order[r] == c ? "-" : percent(report.fit.likelihood_of_superiority(order[r], c)),
                 7, false);
    }
    out << "\n";
  }
  out << "\nHow games ended:";
  for (const auto& [reason, count] : report.ends) out << "  " << reason << " " << count;
  out << "\n(draws " << report.draws << ", agent errors " << report.errors << ")\n";
  return out.str();
}

std::string report_json(const TournamentReport& report) {
  const std::vector<int> order = ranking(report);
  std::ostringstream out;
  out << "{\n  \"game\": " << json_string(report.game) << ",\n";
  out << "  \"sides\": [" << json_string(report.sides[0]) << ", " << json_string(report.sides[1])
      << "],\n";
  out << "  \"games\": " << report.games << ",\n  \"total_games\": " << report.total_games << ",\n";
  out << "  \"side_advantage_elo\": " << json_number(report.fit.side_advantage_elo) << ",\n";
  out << "  \"side_advantage_ci95\": [" << json_number(report.fit.side_advantage_ci_low) << ", "
      << json_number(report.fit.side_advantage_ci_high) << "],\n";
  out << "  \"intervals\": \""
      << (report.fit.intervals == IntervalMethod::kClustered ? "pair-clustered" : "model")
      << "\",\n";
  out << "  \"agents\": [\n";
  for (std::size_t r = 0; r < order.size(); ++r) {
    const int i = order[r];
    const AgentRating& a = report.fit.agents[i];
    out << "    {\"name\": " << json_string(report.agents[i]) << ", \"elo\": " << json_number(a.elo)
        << ", \"ci95_low\": " << json_number(a.ci_low)
        << ", \"ci95_high\": " << json_number(a.ci_high) << ", \"games\": " << a.games
        << ", \"score\": " << json_number(a.games ? a.score / a.games : std::nan(""), "%.4f")
        << ", \"score_as_" << report.sides[0]
        << "\": " << json_number(report.side_score_rate[i][0], "%.4f") << ", \"score_as_"
        << report.sides[1] << "\": " << json_number(report.side_score_rate[i][1], "%.4f") << "}"
        << (r + 1 < order.size() ? "," : "") << "\n";
  }
  out << "  ],\n";
  auto matrix = [&](const char* key, auto value) {
    out << "  \"" << key << "\": [\n";
    for (std::size_t r = 0; r < order.size(); ++r) {
      out << "    [";
      for (std::size_t c = 0; c < order.size(); ++c) {
        out << (c ? ", " : "") << value(order[r], order[c]);
      }
      out << "]" << (r + 1 < order.size() ? "," : "") << "\n";
    }
    out << "  ],\n";
  };
  out << "  \"matrix_order\": [";
  for (std::size_t r = 0; r < order.size(); ++r) {
    out << (r ? ", " : "") << json_string(report.agents[order[r]]);
  }
  out << "],\n";
  matrix("score_matrix",
         [&](int i, int j) { return json_number(report.score_rate[i][j], "%.4f"); });
  matrix("games_matrix", [&](int i, int j) { return std::to_string(report.games_between[i][j]); });
  matrix("likelihood_of_superiority", [&](int i, int j) {
    return i == j ? std::string("null")
                  : json_number(report.fit.likelihood_of_superiority(i, j), "%.4f");
  });
  out << "  \"ends\": {";
  bool first = true;
  for (const auto& [reason, count] : report.ends) {
    out << (first ? "" : ", ") << json_string(reason) << ": " << count;
    first = false;
  }
  out << "},\n  \"draws\": " << report.draws << ",\n  \"errors\": " << report.errors << "\n}\n";
  return out.str();
}

std::string report_svg(const TournamentReport& report) {
  const std::vector<int> order = ranking(report);
  std::size_t name_width = 5;
  for (const auto& name : report.agents) name_width = std::max(name_width, name.size());
  const double label = 20 + 7.0 * static_cast<double>(name_width);
  const double plot = 480, row_height = 26, top = 40;
  const double width = label + plot + 30;
  const double height = top + row_height * static_cast<double>(order.size()) + 40;
  // The Elo range covered by every finite interval, padded and rounded to the tick step.
  double low = 0, high = 0;
  for (const AgentRating& a : report.fit.agents) {
    if (std::isfinite(a.ci_low)) low = std::min(low, a.ci_low);
    if (std::isfinite(a.ci_high)) high = std::max(high, a.ci_high);
  }
  double step = 10;
  for (double candidate : {10.0, 25.0, 50.0, 100.0, 200.0, 500.0, 1000.0}) {
    step = candidate;
    if ((high - low) / candidate <= 8) break;
  }
  low = std::floor(low / step) * step - step;
  high = std::ceil(high / step) * step + step;
  auto x_of = [&](double elo) {
    return label + plot * (std::clamp(elo, low, high) - low) / (high - low);
  };
  auto number = [](double value) { return format("%.1f", value); };
  std::ostringstream svg;
  svg << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << number(width) << "\" height=\""
      << number(height) << "\" font-family=\"sans-serif\" font-size=\"12\">\n";
  svg << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  svg << "<text x=\"10\" y=\"20\" font-size=\"14\">" << report.game << ": Bradley-Terry ratings"
      << " (Elo, 95% intervals), " << report.games << " games</text>\n";
  const double axis_y = top + row_height * static_cast<double>(order.size());
  for (double tick = low; tick <= high + 1e-9; tick += step) {
    const double x = x_of(tick);
    svg << "<line x1=\"" << number(x) << "\" y1=\"" << number(top - 8) << "\" x2=\"" << number(x)
        << "\" y2=\"" << number(axis_y) << "\" stroke=\"" << (tick == 0 ? "#888" : "#ddd")
        << "\"/>\n";
    svg << "<text x=\"" << number(x) << "\" y=\"" << number(axis_y + 16)
        << "\" text-anchor=\"middle\">" << format("%+.0f", tick) << "</text>\n";
  }
  for (std::size_t r = 0; r < order.size(); ++r) {
    const AgentRating& a = report.fit.agents[order[r]];
    const double y = top + row_height * (static_cast<double>(r) + 0.5);
    std::string name = report.agents[order[r]];
    std::string escaped;
    for (char c : name) {
      escaped += c == '<' ? "&lt;" : c == '>' ? "&gt;" : c == '&' ? "&amp;" : std::string(1, c);
    }
    svg << "<text x=\"" << number(label - 10) << "\" y=\"" << number(y + 4)
        << "\" text-anchor=\"end\">" << escaped << "</text>\n";
    svg << "<line x1=\"" << number(x_of(a.ci_low)) << "\" y1=\"" << number(y) << "\" x2=\""
        << number(x_of(a.ci_high)) << "\" y2=\"" << number(y)
        << "\" stroke=\"#3465a4\" stroke-width=\"2\"/>\n";
    svg << "<circle cx=\"" << number(x_of(a.elo)) << "\" cy=\"" << number(y)
        << "\" r=\"4\" fill=\"#204a87\"/>\n";
    svg << "<text x=\"" << number(x_of(a.ci_high) + 6) << "\" y=\"" << number(y + 4) << "\">"
        << signed_elo(a.elo) << "</text>\n";
  }
  svg << "</svg>\n";
  return svg.str();
}

void write_report_files(const std::string& out_dir, const TournamentReport& report) {
  write_file_atomic((fs::path(out_dir) / "ratings.json").string(), report_json(report));
  write_file_atomic((fs::path(out_dir) / "ratings.svg").string(), report_svg(report));
}

}  // namespace sling
