// sling play GAME --<side> human|SPEC --<side> human|SPEC [--seed S] [--rules FILE] [--load FILE]:
// a game in the terminal between people and agents (play/play_session.h).
#include <unistd.h>

#include <iostream>
#include <map>
#include <memory>
#include <random>

#include "cli/command.h"
#include "cli/game_options.h"
#include "engine/core/io.h"
#include "engine/core/record.h"
#include "play/play_session.h"

namespace sling::cli {
namespace {

// Every side flag of every game; a game accepts only its own two.
constexpr const char* kSideFlags[] = {"david", "goliath", "danes", "english", "first", "second"};

struct PlayCommand {
  std::string game;
  GameOptions options;
  std::map<std::string, std::string> sides;
  std::uint64_t seed = 0;
  bool seed_given = false;
  std::string load_file;
  std::string hint = "auto";
  std::string colour = "auto";
  std::string svg_file;
  std::string solution_file;
};

template <class G>
void play(const G& game, const PlayCommand& command, const GameRecord* saved) {
  play::PlayConfig config;
  // Unless told otherwise, a person plays the first side against the strongest preset available.
  config.sides = {"human", play::registry_has(game, "mcts") ? "normal" : "easy"};
  for (const auto& [flag, value] : command.sides) {
    const auto& names = game.info().sides;
    if (flag == names[0]) {
      config.sides[0] = value;
    } else if (flag == names[1]) {
      config.sides[1] = value;
    } else {
      throw OptionError("--" + flag + " is not a side of " + std::string(game.info().name) +
                        " (its sides are --" + std::string(names[0]) + " and --" +
                        std::string(names[1]) + ")");
    }
  }
  config.seed = command.seed;
  config.hint = command.hint;
  config.solution_file = command.solution_file;
  config.style.colour = play::colour_wanted(command.colour, STDOUT_FILENO);
  config.progress = play::is_terminal(STDERR_FILENO);
  config.echo_input = !play::is_terminal(STDIN_FILENO);
  play::PlaySession<G> session(game, config, std::cin, std::cout, std::cerr);
  if (!command.svg_file.empty()) {
    using View = play::GameView<G>;
    if constexpr (play::HasSvg<View, G>) {
      const std::string path = command.svg_file;
      session.set_observer([path](const G& g, const typename G::State& s) {
        if (const auto svg = View::svg(g, s)) write_file_atomic(path, *svg);
      });
    } else {
      throw OptionError("--svg applies to danelaw only");
    }
  }
  if (saved != nullptr) session.resume(*saved);
  session.run();
}

const RegisterCommand kRegister(
    "play", "Play a game in the terminal against an agent (or watch two agents)",
    [](CLI::App& sub) {
      auto command = std::make_shared<PlayCommand>();
      sub.add_option("game", command->game, "Game: duel, danelaw or pig (not needed with --load)");
      add_game_options(sub, command->options);
      for (const char* side : kSideFlags) {
        sub.add_option(std::string("--") + side, command->sides[side],
                       "human, a preset (easy, normal, strong; see docs/play.md) or an agent spec "
                       "(see `sling agents`)");
      }
      sub.add_option("--seed", command->seed, "Seed of the dice (default: a fresh one, printed)");
      sub.add_option("--load", command->load_file, "Continue a saved game (a game record)");
      sub.add_option("--hint", command->hint,
                     "Agent spec for `hint` (default auto: the strongest available; off)");
      sub.add_option("--colour,--color", command->colour, "auto, always or never")
          ->capture_default_str();
      sub.add_option("--solution", command->solution_file,
                     "The exact solver's solution file (`sling solve GAME --out`): `strong` and "
                     "hints play from it");
      sub.add_option("--svg", command->svg_file,
                     "danelaw: rewrite this SVG of the position after every action");
      sub.callback([command, &sub] {
        for (auto it = command->sides.begin(); it != command->sides.end();) {
          it = it->second.empty() ? command->sides.erase(it) : std::next(it);
        }
        command->seed_given = sub.count("--seed") > 0;
        if (!command->seed_given)
          command->seed = std::random_device{}() * 0x100000001ULL + std::random_device{}();
        if (!command->load_file.empty()) {
          if (!command->options.rules_file.empty()) {
            throw OptionError("--load takes the rules from the record; drop --rules");
          }
          const GameRecord saved = load_record(command->load_file);
          if (!command->game.empty() && command->game != saved.game) {
            throw OptionError("'" + command->load_file + "' is a game of " + saved.game + ", not " +
                              command->game);
          }
          with_game(saved.game, GameOptions{}, [&](const auto& default_game) {
            using G = std::decay_t<decltype(default_game)>;
            const G game = G::from_rules_json(saved.rules);
            play(game, *command, &saved);
          });
          return;
        }
        if (command->game.empty())
          throw OptionError("name a game (duel, danelaw or pig) or --load FILE");
        with_game(command->game, command->options,
                  [&](const auto& game) { play(game, *command, nullptr); });
      });
    });

}  // namespace
}  // namespace sling::cli
