// The formats of games.csv and records.jsonl: writing a row or a record line, and reading them
// back leniently (a torn last line is an interrupted write, not an error).
#include "engine/core/json_options.h"  // first: makes rapidjson assertions throw

#include <filesystem>
#include <limits>

#include "engine/core/io.h"
#include "experiments/csv.h"
#include "experiments/tournament/game_store.h"
#include "experiments/tournament/text_format.h"

namespace sling {

using tournament_text::parse_integer;
using tournament_text::single_line;

namespace {

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

}  // namespace

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

std::string record_line(std::int64_t game_id, const GameRecord& record) {
  // The record's own JSON encoding, minified onto one line.
  const std::string pretty = record_to_json(record);
  rapidjson::StringStream in(pretty.c_str());
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
  rapidjson::Reader reader;
  const bool parsed = reader.Parse(in, writer);  // sling's own output: rapidjson-safe numbers
  if (!parsed) throw SlingError("cannot encode the record of a game");
  std::string line(kRecordPrefix);
  line += std::to_string(game_id);
  line += kRecordMiddle;
  line.append(buffer.GetString(), buffer.GetSize());
  line += "}\n";
  return line;
}

namespace {

GameRecord record_of_line(std::string_view line) {
  line.remove_prefix(line.find(kRecordMiddle) + kRecordMiddle.size());
  line.remove_suffix(1);  // the closing brace of the line's object
  return record_from_text(line);
}

}  // namespace

GameRecord load_tournament_record(const std::string& out_dir, std::int64_t game_id) {
  const std::string path = (std::filesystem::path(out_dir) / "records.jsonl").string();
  const std::string text = read_file(path);
  const RecordLines records =
      split_record_lines(text, std::numeric_limits<std::int64_t>::max(), path);
  const auto it = records.lines.find(game_id);
  if (it == records.lines.end()) {
    throw FileFormatError("'" + path + "' has no record of game " + std::to_string(game_id));
  }
  return record_of_line(it->second);
}

std::vector<std::pair<std::int64_t, GameRecord>> load_tournament_records(
    const std::string& out_dir) {
  const std::string path = (std::filesystem::path(out_dir) / "records.jsonl").string();
  const std::string text = read_file(path);
  const RecordLines records =
      split_record_lines(text, std::numeric_limits<std::int64_t>::max(), path);
  if (!records.problems.empty()) throw FileFormatError("'" + path + "': " + records.problems[0]);
  std::vector<std::pair<std::int64_t, GameRecord>> out;
  for (const auto& [id, line] : records.lines) {
    try {
      out.emplace_back(id, record_of_line(line));
    } catch (const FileFormatError& e) {
      throw FileFormatError("'" + path + "' game " + std::to_string(id) + ": " + e.what());
    }
  }
  return out;
}

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

std::string games_csv_text(const std::vector<GameRow>& rows, const TournamentConfig& config,
                           const SideNames& sides) {
  std::string text = games_csv_header(sides) + "\n";
  for (const GameRow& row : rows) text += format_game_row(row, config, sides) + "\n";
  return text;
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

}  // namespace sling
