// sling play GAME --<side> human|SPEC --<side> human|SPEC [--seed S] [--rules FILE] [--load FILE]:
// a game in the terminal between people and agents (play/play_session.h).
#include <unistd.h>

#include <iostream>
#include <map>
#include <memory>
#include <random>

#include "cli/command.h"
#include "cli/common_options.h"
#include "cli/game_options.h"
#include "engine/core/io.h"
#include "engine/core/record.h"
#include "play/play_session.h"

namespace sling::cli {
namespace {

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
  std::string god_prompt = "bad-rolls";
  int turn_limit = play::PlayConfig::kAutoTurnLimit;
};

template <class G>
void play(const G& game, const PlayCommand& command, const GameRecord* saved) {
  play::PlayConfig config;
  // Unless told otherwise, a person plays the first side against the strongest preset available.
  config.sides = {"human", play::registry_has(game, "mcts") ? "normal" : "easy"};
  // A save that names its players brings them back; a side given on the command line overrides.
  if (saved != nullptr && saved->agents.size() == 2)
    config.sides = {saved->agents[0], saved->agents[1]};
  for (const auto& [flag, value] : command.sides) {
    const auto& names = game.info().sides;
    if (flag == names[0]) {
      config.sides[0] = value;
    } else if (flag == names[1]) {
      config.sides[1] = value;
    } else {
      const GameDeclaration& declared = require_game(game.info().name);
      throw OptionError(error_text("--" + flag + " is not a side of " + std::string(declared.name),
                                   "--" + flag, "its sides are " + side_flags(declared)));
    }
  }
  config.seed = command.seed;
  config.hint = command.hint;
  config.solution_file = command.solution_file;
  config.dice_questions = command.god_prompt == "every" ? play::DiceQuestions::kAfterEveryRoll
                                                        : play::DiceQuestions::kAfterBadRolls;
  config.turn_limit = command.turn_limit;
  config.style.colour = play::colour_wanted(command.colour, STDOUT_FILENO);
  config.progress = play::is_terminal(STDERR_FILENO);
  config.echo_input = !play::is_terminal(STDIN_FILENO);
  using View = play::GameView<G>;
  // Options are checked before the session builds its agents: a preset may first solve a coarse
  // lattice for its value function, which a mistyped option should not wait for.
  if constexpr (!play::HasSvg<View, G>) {
    if (!command.svg_file.empty()) throw OptionError("--svg applies to danelaw only");
  }
  play::PlaySession<G> session(game, config, std::cin, std::cout, std::cerr);
  if constexpr (play::HasSvg<View, G>) {
    if (!command.svg_file.empty()) {
      const std::string path = command.svg_file;
      session.set_observer([path](const G& g, const typename G::State& s) {
        if (const auto svg = View::svg(g, s)) write_file_atomic(path, *svg);
      });
    }
  }
  if (saved != nullptr) session.resume(*saved, /*restore_players=*/false);
  session.run();
}

const RegisterCommand kRegister(
    "play", "Play a game in the terminal against an agent (or watch two agents)",
    [](CLI::App& sub) {
      auto command = std::make_shared<PlayCommand>();
      sub.add_option("game", command->game, "Game: " + game_list() + " (not needed with --load)");
      add_game_options(sub, command->options);
      for (const GameDeclaration& declared : game_declarations()) {
        for (int side = 0; side < 2; ++side) {
          const std::string name(declared.sides[side]);
          sub.add_option("--" + name, command->sides[name],
                         std::string(declared.name) + ": who plays " + name +
                             ": human, a preset (easy, normal, strong; docs/play.md) or an agent "
                             "spec (`sling agents " +
                             std::string(declared.name) + "`); default " +
                             (side == 0 ? "human" : "normal"));
        }
      }
      add_seed_option(sub, command->seed, "Seed of the dice (default: a fresh one, printed)");
      sub.add_option("--load", command->load_file, "Continue a saved game (a game record)");
      sub.add_option("--hint", command->hint,
                     "Agent spec for `hint` (default auto: the strongest available; off)");
      sub.add_option("--colour,--color", command->colour, "auto, always or never")
          ->capture_default_str();
      sub.add_option("--solution", command->solution_file,
                     "The exact solver's solution file (`sling solve GAME --out`): `strong` and "
                     "hints play from it");
      sub.add_option("--god-prompt", command->god_prompt,
                     "duel, a person as David: when God's question comes. bad-rolls: only after "
                     "a roll that went against David (a kill, a lost melee, a miss, a recovery, a "
                     "failed search or flee, a trip), every: after every roll")
          ->check(CLI::IsMember({"bad-rolls", "every"}))
          ->capture_default_str();
      sub.add_option("--turn-limit", command->turn_limit,
                     "A draw when the game is still going after this many turns, both sides' "
                     "turns counted (0 = none). Default: " +
                         std::to_string(kDefaultAgentTurnLimit) +
                         " when agents play both sides, none when a person plays")
          ->check(CLI::Range(0, 65535));
      sub.add_option("--svg", command->svg_file,
                     "danelaw: rewrite this SVG of the position after every action");
      set_examples(sub, {"sling play pig --first human --second strong",
                         "sling play duel --david human --goliath normal --seed 7",
                         "sling play duel --goliath strong --god-prompt every",
                         "sling play danelaw --danes easy --english human --svg board.svg",
                         "sling play --load game.sav"});
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
            throw OptionError(
                error_text("wrong game", command->load_file,
                           "the save is a game of " + saved.game + ", not " + command->game));
          }
          require_game(saved.game, command->load_file);
          with_game(saved.game, GameOptions{}, [&](const auto& default_game) {
            using G = std::decay_t<decltype(default_game)>;
            const G game = G::from_rules_json(saved.rules);
            play(game, *command, &saved);
          });
          return;
        }
        if (command->game.empty())
          throw OptionError(error_text("no game named", "game",
                                       "name one of " + game_list() + ", or give --load FILE"));
        with_game(command->game, command->options,
                  [&](const auto& game) { play(game, *command, nullptr); });
      });
    });

}  // namespace
}  // namespace sling::cli
