// sling analyse FILE... (or analyze): every decision of a played game rated against the best one,
// every roll's luck, and totals per side (experiments/analysis/, docs/analysis.md).  One game (a
// save, or game N of a tournament folder) gives its analysis; several games, or a whole
// tournament folder, give each player's report: their error rate and their luck.
#include <filesystem>
#include <iostream>
#include <memory>

#include "cli/command.h"
#include "cli/common_options.h"
#include "cli/game_options.h"
#include "engine/core/io.h"
#include "engine/core/record.h"
#include "experiments/analysis/analysis_report.h"
#include "experiments/analysis/analysis_values.h"
#include "experiments/tournament/tournament.h"

namespace sling::cli {
namespace {

struct AnalyseCommand {
  std::vector<std::string> files;
  std::int64_t game_id = -1;
  bool game_given = false;
  AnalysisValueOptions values;
  std::string json_file;
  std::string svg_file;
  std::string player;
  bool every_ply = false;
};

struct NamedRecord {
  std::string name;  // where it came from, for messages
  GameRecord record;
};

// The games the files name: saves, tournament folders (every game, or game N with --game) and
// records.jsonl files.
std::vector<NamedRecord> load_records(const AnalyseCommand& command) {
  namespace fs = std::filesystem;
  std::vector<NamedRecord> out;
  for (const std::string& file : command.files) {
    const fs::path path(file);
    const bool tournament = fs::is_directory(path) || path.filename() == "records.jsonl";
    if (!tournament) {
      out.push_back({file, load_record(file)});
      continue;
    }
    const fs::path folder = fs::is_directory(path) ? path : path.parent_path();
    const std::string dir = folder.empty() ? "." : folder.string();
    if (!fs::exists(fs::path(dir) / "records.jsonl")) {
      throw FileFormatError(error_text("not a tournament folder", file,
                                       "it has no records.jsonl (give a saved game, or the --out "
                                       "folder of `sling tournament`)"));
    }
    if (command.game_given) {
      out.push_back({file + " game " + std::to_string(command.game_id),
                     load_tournament_record(dir, command.game_id)});
      continue;
    }
    for (auto& [id, record] : load_tournament_records(dir)) {
      out.push_back({file + " game " + std::to_string(id), std::move(record)});
    }
  }
  if (command.game_given && out.size() != command.files.size()) {
    throw OptionError(error_text("--game applies to a tournament folder", "--game",
                                 "give one folder or records.jsonl with it"));
  }
  return out;
}

template <class G>
void analyse_games(const AnalyseCommand& command, const std::vector<NamedRecord>& records) {
  const G game = G::from_rules_json(records.front().record.rules);
  const AnalysisValue<G> values = analysis_value(game, command.values);
  std::vector<GameAnalysis> analyses;
  for (const NamedRecord& named : records) {
    if (named.record.game != records.front().record.game ||
        named.record.rules != records.front().record.rules) {
      throw FileFormatError(error_text("games of other rules", named.name,
                                       "analyse games of one game and one set of rules together"));
    }
    try {
      analyses.push_back(analyse_record(game, named.record, values.value));
    } catch (const SlingError& e) {
      throw FileFormatError(error_text("bad game record", named.name, e.what()));
    }
    analyses.back().source = values.source;
    analyses.back().exact = values.exact;
  }
  if (analyses.size() == 1 && command.player.empty()) {
    const GameAnalysis& analysis = analyses.front();
    std::cout << analysis_text(analysis, command.every_ply);
    if (!command.json_file.empty()) write_file_atomic(command.json_file, analysis_json(analysis));
    if (!command.svg_file.empty()) write_file_atomic(command.svg_file, analysis_svg(analysis));
    return;
  }
  if (!command.svg_file.empty()) {
    throw OptionError(error_text("--svg draws one game", "--svg",
                                 "give a single game (a save, or a folder with --game N)"));
  }
  const std::vector<PlayerSummary> players = player_summaries(analyses, command.player);
  std::cout << analyses.size() << " games analysed.\n" << players_text(players, values.source);
  if (!command.json_file.empty()) {
    write_file_atomic(command.json_file, players_json(players, values.source));
  }
}

void run(const AnalyseCommand& command) {
  const std::vector<NamedRecord> records = load_records(command);
  if (records.empty()) throw FileFormatError("no finished game to analyse in those files");
  const GameRecord& first = records.front().record;
  require_game(first.game, records.front().name);
  with_game(first.game, GameOptions{}, [&](const auto& default_game) {
    using G = std::decay_t<decltype(default_game)>;
    analyse_games<G>(command, records);
  });
}

const RegisterCommand kRegister(
    "analyse",
    "Rate every decision of played games and measure the luck of every roll (also: analyze)",
    [](CLI::App& sub) {
      sub.alias("analyze");
      auto command = std::make_shared<AnalyseCommand>();
      sub.add_option("files", command->files,
                     "Saved games (JSON or binary records), tournament folders or records.jsonl "
                     "files; several games give each player's report")
          ->required();
      sub.add_option("--game", command->game_id, "Only game N of a tournament folder")
          ->check(CLI::Range(std::int64_t{0}, std::numeric_limits<std::int64_t>::max()));
      sub.add_option("--solution", command->values.solution_file,
                     "duel: the exact solution to analyse with (`sling solve duel --out`); "
                     "default: the cached solution of the game's lattice, else the next coarser "
                     "one interpolated");
      sub.add_option("--refine", command->values.refine,
                     "duel without an exact solution: refine the interpolated values first "
                     "(sweeps; minutes at 1 cm)")
          ->check(CLI::Range(0, 500));
      sub.add_option("--json", command->json_file, "Also write the analysis as JSON to this file");
      sub.add_option("--svg", command->svg_file,
                     "Also draw the win probability over the game, with the errors and big rolls "
                     "marked (one game)");
      sub.add_option("--player", command->player,
                     "Report on this player only (an agent spec or preset as the records name "
                     "it, or human)");
      sub.add_flag("--all", command->every_ply, "List every ply, not only errors and big rolls");
      set_examples(sub, {"sling analyse game.json --svg game.svg",
                         "sling analyse tournament-out --game 3 --json game3.json",
                         "sling analyse saves/*.json --player human"});
      sub.callback([command, &sub] {
        command->game_given = sub.count("--game") > 0;
        run(*command);
      });
    });

}  // namespace
}  // namespace sling::cli
