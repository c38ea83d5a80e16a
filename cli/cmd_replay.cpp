// sling replay FILE [--to-end]: steps through a game record (a save of `sling play` or a game of a
// tournament log) with the board shown (experiments/play/replay_session.h).
#include <unistd.h>

#include <iostream>
#include <memory>

#include "cli/command.h"
#include "cli/game_options.h"
#include "engine/core/record.h"
#include "experiments/play/replay_session.h"

namespace sling::cli {
namespace {

struct ReplayCommand {
  std::string file;
  bool to_end = false;
  std::string colour = "auto";
};

const RegisterCommand kRegister(
    "replay", "Step through a saved game or tournament record with the board shown",
    [](CLI::App& sub) {
      auto command = std::make_shared<ReplayCommand>();
      sub.add_option("file", command->file, "Game record (JSON or binary)")->required();
      sub.add_flag("--to-end", command->to_end, "Print the final position and exit");
      sub.add_option("--colour,--color", command->colour, "auto, always or never")
          ->capture_default_str();
      sub.callback([command] {
        const GameRecord record = load_record(command->file);
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
