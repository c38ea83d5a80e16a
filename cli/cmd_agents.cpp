// sling agents [GAME]: lists every agent a game offers, with each option's default, range and
// meaning, and what the presets (easy, normal, strong; danelaw's fixed reference strong-0a8476c)
// stand for.  Without a game, lists them for
// every game.
#include <iomanip>
#include <iostream>

#include "agents/registry.h"
#include "cli/command.h"
#include "cli/common_options.h"
#include "cli/game_options.h"

namespace sling::cli {
namespace {

template <class G>
void print_catalogue(const G& game) {
  std::cout << game.info().name << " agents (spec: name or name:key=value,...):\n";
  for (const AgentInfo& agent : agent_catalogue(game)) {
    std::cout << "  " << agent.name << " - " << agent.help << "\n";
    for (const AgentOptionInfo& option : agent.options) {
      std::cout << "      " << std::left << std::setw(14) << option.key << " default "
                << std::setw(10) << option.default_value << " " << std::setw(22) << option.range
                << " " << option.help << "\n";
    }
  }
  std::cout << "presets (accepted wherever an agent spec is):\n";
  for (const PresetInfo& preset : agent_presets(game)) {
    std::cout << "  " << std::left << std::setw(7) << preset.name << " = " << preset.spec << "\n"
              << "            " << preset.help << "\n";
  }
}

struct AgentsCommand {
  std::string game;
};

const RegisterCommand kRegister(
    "agents", "List the agents of a game with their options", [](CLI::App& sub) {
      auto command = std::make_shared<AgentsCommand>();
      sub.add_option("game", command->game, "Game: " + game_list() + " (default: every game)");
      set_examples(sub, {"sling agents duel", "sling agents"});
      sub.callback([command] {
        const GameOptions defaults;
        if (!command->game.empty()) {
          with_game(command->game, defaults, [](const auto& game) { print_catalogue(game); });
          return;
        }
        bool first = true;
        for (const GameDeclaration& declared : game_declarations()) {
          if (!first) std::cout << "\n";
          first = false;
          with_game(std::string(declared.name), defaults,
                    [](const auto& game) { print_catalogue(game); });
        }
      });
    });

}  // namespace
}  // namespace sling::cli
