#pragma once
// Game selection shared by every command: a game name plus the options that build it (a rules
// file, and for danelaw a map).  with_game() turns the name into the concrete game type and calls
// a generic lambda with it, so commands are written once for every game.

#include <CLI/CLI.hpp>

#include <string>

#include "engine/core/errors.h"
#include "engine/core/io.h"
#include "engine/danelaw/danelaw.h"
#include "engine/duel/duel.h"
#include "engine/pig/pig.h"

namespace sling::cli {

struct GameOptions {
  std::string rules_file;  // empty: the game's default rules
  std::string map_file;    // danelaw only; empty: the built-in map of England
};

inline void add_game_options(CLI::App& sub, GameOptions& options) {
  sub.add_option("--rules", options.rules_file, "Rules file (JSON); see `sling rules GAME`");
  sub.add_option("--map", options.map_file, "Map file for danelaw (JSON); see `sling map danelaw`");
}

inline const char* kGameNames = "duel, danelaw, pig";

inline std::string rules_text(const GameOptions& options) {
  return options.rules_file.empty() ? std::string("{}") : read_file(options.rules_file);
}

template <class F>
decltype(auto) with_game(const std::string& name, const GameOptions& options, F&& body) {
  auto in_file = [&](auto make) {
    try {
      return make();
    } catch (const RulesError& e) {
      if (options.rules_file.empty()) throw;
      throw RulesError("'" + options.rules_file + "': " + e.what());
    }
  };
  if (name == "duel") {
    if (!options.map_file.empty()) throw OptionError("--map applies to danelaw only");
    const duel::DuelGame game =
        in_file([&] { return duel::DuelGame::from_rules_json(rules_text(options)); });
    return body(game);
  }
  if (name == "danelaw") {
    const danelaw::DanelawGame game =
        danelaw::DanelawGame::from_files(options.rules_file, options.map_file);
    return body(game);
  }
  if (name == "pig") {
    if (!options.map_file.empty()) throw OptionError("--map applies to danelaw only");
    const pig::PigGame game =
        in_file([&] { return pig::PigGame::from_rules_json(rules_text(options)); });
    return body(game);
  }
  throw OptionError("unknown game '" + name + "' (valid games: " + kGameNames + ")");
}

}  // namespace sling::cli
