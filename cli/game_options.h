#pragma once
// Game selection shared by every command: a game name (engine/games.h) plus the options that build
// it (a rules file, and for a game with a map a map file).  with_game() turns the name into the
// concrete game type and calls a generic lambda with it, so commands are written once for every
// game.

#include <CLI/CLI.hpp>

#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

#include "cli/games.h"
#include "engine/core/errors.h"
#include "engine/core/io.h"

namespace sling::cli {

struct GameOptions {
  std::string rules_file;  // empty: the game's default rules
  std::string map_file;    // games with a map only; empty: the game's built-in map
};

inline void add_game_options(CLI::App& sub, GameOptions& options) {
  sub.add_option("--rules", options.rules_file,
                 "Rules file (JSON; default: the game's own rules, see `sling rules GAME`)");
  sub.add_option("--map", options.map_file,
                 "Map file for " + map_game_list() +
                     " (JSON; default: the built-in map, see "
                     "`sling map GAME --json`)");
}

inline std::string rules_text(const GameOptions& options) {
  return options.rules_file.empty() ? std::string("{}") : read_file(options.rules_file);
}

// Game G built from the options: the rules file (and map) or the defaults.  A rules error names
// the file: "duel rules (my.json): unknown key ...".
template <class G>
G make_game(const GameOptions& options) {
  constexpr GameDeclaration declaration = GameRegistration<G>::kDeclaration;
  try {
    if constexpr (declaration.has_map) {
      return G::from_files(options.rules_file, options.map_file);
    } else {
      if (!options.map_file.empty()) {
        throw OptionError(error_text("--map applies to " + map_game_list() + " only", "--map",
                                     std::string(declaration.name) + " has no map"));
      }
      return G::from_rules_json(rules_text(options));
    }
  } catch (const RulesError& e) {
    std::string text = e.what();
    const std::string where = " (" + options.rules_file + ")";
    const std::size_t colon = text.find(": ");
    if (!options.rules_file.empty() && text.find(where) == std::string::npos &&
        colon != std::string::npos && text.rfind("rules", colon) != std::string::npos) {
      text.insert(colon, where);
    }
    throw RulesError(text);
  }
}

// body(game) for the game named `name`, built from `options` (the registry's with_registered_game).
template <class F>
decltype(auto) with_game(const std::string& name, const GameOptions& options, F&& body) {
  return with_registered_game(name, [&]<class G>(std::type_identity<G>) -> decltype(auto) {
    return body(make_game<G>(options));
  });
}

}  // namespace sling::cli
