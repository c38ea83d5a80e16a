#pragma once
// Game selection shared by every command: a game name (engine/games.h) plus the options that build
// it (a rules file, and for a game with a map a map file: engine/game_files.h).  with_game() turns
// the name into the concrete game type and calls a generic lambda with it, so commands are
// written once for every game.

#include <CLI/CLI.hpp>

#include <string>

#include "cli/games.h"
#include "engine/game_files.h"

namespace sling::cli {

// The files a game is built from (engine/game_files.h), as every command's options name them.
using GameOptions = GameFiles;
using sling::make_game;
using sling::rules_text;
using sling::with_game;

inline void add_game_options(CLI::App& sub, GameOptions& options) {
  sub.add_option("--rules", options.rules_file,
                 "Rules file (JSON; default: the game's own rules, see `sling rules GAME`)");
  sub.add_option("--map", options.map_file,
                 "Map file for " + map_game_list() +
                     " (JSON; default: the built-in map, see "
                     "`sling map GAME --json`)");
}

}  // namespace sling::cli
