#pragma once
// The command line's view of the game registry (engine/games.h): the --<side> flags every game's
// sides give, and the names a side may give instead of an agent spec.  Game lists, help texts,
// "unknown game" messages and with_game() (cli/game_options.h) all come from the registry, so
// adding a game changes no cli/cmd_*.cpp file.

#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "engine/games.h"

namespace sling::cli {

// The names a side may give instead of an agent spec (play/play_agents.h resolves them per game).
inline constexpr std::array<std::string_view, 4> kSideChoices = {"human", "easy", "normal",
                                                                 "strong"};

// Every side name of every game, each once, in declaration order (the --<side> flags).
std::vector<std::string> all_side_names();
// "--david and --goliath".
std::string side_flags(const GameDeclaration& game);

}  // namespace sling::cli
