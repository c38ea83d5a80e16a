// sling replay FILE [--to-end]: steps through a game record (a save of `sling play`) with the board
// shown (play/replay_session.h); `sling replay DIR --game N` replays game N of a
// tournament's output folder (its records.jsonl).
#include <unistd.h>

#include <filesystem>
#include <iostream>
#include <memory>

#include "cli/command.h"
#include "cli/common_options.h"
#include "cli/game_options.h"
#include "engine/core/record.h"
#include "experiments/tournament/tournament.h"
#include "play/replay_session.h"

namespace sling::cli {
namespace {

struct ReplayCommand {
  std::string file;
  bool to_end = false;
  std::string colour = "auto";
  std::int64_t game_id = -1;
  bool game_given = false;
};

// A save, or game N of a tournament folder (or of its records.jsonl).
GameRecord load(const ReplayCommand& command) {
  namespace fs = std::filesystem;
  const fs::path path(command.file);
  const bool tournament = fs::is_directory(path) || path.filename() == "records.jsonl";
  if (!tournament) {
    if (command.game_given) {
      throw OptionError(error_text("--game applies to a tournament folder", "--game",
                                   "'" + command.file + "' is a single game"));
    }
    return load_record(command.file);
  }
  const fs::path folder = fs::is_directory(path) ? path : path.parent_path();
  if (!fs::exists(folder / "records.jsonl")) {
    throw FileFormatError(error_text("not a tournament folder", command.file,
                                     "it has no records.jsonl (give a saved game, or the --out "
                                     "folder of `sling tournament`)"));
  }
  if (!command.game_given) {
    throw OptionError(error_text("which game?", command.file,
                                 "it holds a tournament's games: choose one with --game N"));
  }
  if (command.game_id < 0) {
    throw OptionError(error_text("bad value", "--game", "a game id is 0 or more"));
  }
  return load_tournament_record(folder.empty() ? "." : folder.string(), command.game_id);
}

const RegisterCommand kRegister(
    "replay", "Step through a saved game or tournament record with the board shown",
    [](CLI::App& sub) {
      auto command = std::make_shared<ReplayCommand>();
      sub.add_option("file", command->file,
                     "Game record (JSON or binary), or a tournament folder with --game")
          ->required();
      sub.add_option("--game", command->game_id, "Game id in a tournament folder");
      sub.add_flag("--to-end", command->to_end, "Print the final position and exit");
      sub.add_option("--colour,--color", command->colour, "auto, always or never")
          ->capture_default_str();
      set_examples(sub,
                   {"sling replay game.sav", "sling replay tournament-out --game 12 --to-end"});
      sub.callback([command, &sub] {
        command->game_given = sub.count("--game") > 0;
        const GameRecord record = load(*command);
        require_game(record.game, command->file);
        play::Style style{play::colour_wanted(command->colour, STDOUT_FILENO)};
        with_game(record.game, GameOptions{}, [&](const auto& default_game) {
          using G = std::decay_t<decltype(default_game)>;
          const G game = G::from_rules_json(record.rules);
          const play::ReplaySession<G> session(game, record, style);
          if (command->to_end) {
            session.to_end(std::cout);
          } else {
            session.run(std::cin, std::cout);
          }
        });
      });
    });

}  // namespace
}  // namespace sling::cli
