// sling match GAME --<side> SPEC --<side> SPEC --games N [--seed S] [--threads T] [--json FILE]
// [--record DIR]: plays N games between two agents (one per side, named by the game's side names:
// --david/--goliath, --danes/--english, --first/--second) and reports each side's wins with 95%
// Wilson intervals, the mean game length and the time.  The result is the same for any --threads.
#include <iostream>
#include <map>

#include "cli/command.h"
#include "cli/game_options.h"
#include "engine/core/io.h"
#include "experiments/match.h"

namespace sling::cli {
namespace {

constexpr const char* kSideNames[] = {"david", "goliath", "danes", "english", "first", "second"};

struct MatchCommand {
  std::string game;
  GameOptions game_options;
  std::map<std::string, std::string> sides;
  MatchOptions options;
  std::string json_file;
  bool quiet = false;
};

const RegisterCommand kRegister(
    "match", "Play N games between two agents and report win rates", [](CLI::App& sub) {
      auto command = std::make_shared<MatchCommand>();
      sub.add_option("game", command->game, "Game: duel, danelaw or pig")->required();
      for (const char* side : kSideNames) {
        sub.add_option(std::string("--") + side, command->sides[side],
                       std::string("Agent spec for side '") + side + "' (see `sling agents GAME`)");
      }
      sub.add_option("--games", command->options.games, "Number of games")->required();
      sub.add_option("--seed", command->options.seed,
                     "Base seed (game i uses a seed derived from it)");
      sub.add_option("--threads", command->options.threads, "Worker threads (0 = every core)");
      sub.add_option("--json", command->json_file, "Also write the result as JSON to this file");
      sub.add_option("--record", command->options.record_dir,
                     "Save every game's record in this folder");
      sub.add_option("--max-plies", command->options.max_plies,
                     "Stop a game after this many plies (a draw)");
      add_game_options(sub, command->game_options);
      sub.callback([command] {
        if (command->options.games < 1) throw OptionError("--games must be at least 1");
        if (command->options.threads < 0) throw OptionError("--threads must be >= 0");
        with_game(command->game, command->game_options, [&](const auto& game) {
          for (const auto& [name, spec] : command->sides) {
            if (!spec.empty() && name != game.info().sides[0] && name != game.info().sides[1]) {
              throw OptionError("--" + name + " is not a side of " + command->game + " (sides: --" +
                                std::string(game.info().sides[0]) + ", --" +
                                std::string(game.info().sides[1]) + ")");
            }
          }
          std::array<std::string, 2> specs;
          for (int side = 0; side < 2; ++side) {
            const std::string name(game.info().sides[side]);
            specs[side] = command->sides[name];
            if (specs[side].empty()) {
              throw OptionError("match " + command->game + ": give --" + name + " SPEC (sides: --" +
                                std::string(game.info().sides[0]) + ", --" +
                                std::string(game.info().sides[1]) + ")");
            }
          }
          const MatchResult result = run_match(game, specs, command->options);
          std::cout << match_to_text(result);
          if (!command->json_file.empty())
            write_file_atomic(command->json_file, match_to_json(result));
        });
      });
    });

}  // namespace
}  // namespace sling::cli
