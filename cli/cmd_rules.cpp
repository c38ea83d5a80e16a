// sling rules GAME [--rules FILE]: prints the game's rules as JSON (the defaults, or the given file
// after validation), ready to edit and pass back with --rules.
#include <iostream>

#include "cli/command.h"
#include "cli/common_options.h"
#include "cli/game_options.h"

namespace sling::cli {
namespace {

struct RulesCommand {
  std::string game;
  GameOptions options;
};

const RegisterCommand kRegister(
    "rules", "Print a game's rules as JSON (defaults or a validated file)", [](CLI::App& sub) {
      auto command = std::make_shared<RulesCommand>();
      sub.add_option("game", command->game, "Game: " + game_list())->required();
      set_examples(sub, {"sling rules duel > my-rules.json",
                         "sling rules duel --rules my-rules.json   (validates the file)"});
      add_game_options(sub, command->options);
      sub.callback([command] {
        with_game(command->game, command->options,
                  [](const auto& game) { std::cout << game.rules_json() << '\n'; });
      });
    });

}  // namespace
}  // namespace sling::cli
