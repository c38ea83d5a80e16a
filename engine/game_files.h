#pragma once
// A registered game built from its files: a rules file (JSON) and, for a game with a map, a map
// file; empty names stand for the game's defaults.  The command line (cli/game_options.h) and the
// Python module build their games through these, so a file's errors read the same everywhere.

#include <string>
#include <type_traits>
#include <utility>

#include "engine/core/errors.h"
#include "engine/core/io.h"
#include "engine/games.h"

namespace sling {

struct GameFiles {
  std::string rules_file;  // empty: the game's default rules
  std::string map_file;    // games with a map only; empty: the game's built-in map
};

inline std::string rules_text(const GameFiles& files) {
  return files.rules_file.empty() ? std::string("{}") : read_file(files.rules_file);
}

// Game G built from the files or the defaults.  A rules error names the file: "duel rules
// (my.json): unknown key ...".
template <class G>
G make_game(const GameFiles& files) {
  constexpr GameDeclaration declaration = GameRegistration<G>::kDeclaration;
  try {
    if constexpr (declaration.has_map) {
      return G::from_files(files.rules_file, files.map_file);
    } else {
      if (!files.map_file.empty()) {
        throw OptionError(error_text("--map applies to " + map_game_list() + " only", "--map",
                                     std::string(declaration.name) + " has no map"));
      }
      return G::from_rules_json(rules_text(files));
    }
  } catch (const RulesError& e) {
    std::string text = e.what();
    const std::string where = " (" + files.rules_file + ")";
    const std::size_t colon = text.find(": ");
    if (!files.rules_file.empty() && text.find(where) == std::string::npos &&
        colon != std::string::npos && text.rfind("rules", colon) != std::string::npos) {
      text.insert(colon, where);
    }
    throw RulesError(text);
  }
}

// body(game) for the game named `name`, built from `files` (the registry's with_registered_game).
template <class F>
decltype(auto) with_game(const std::string& name, const GameFiles& files, F&& body) {
  return with_registered_game(name, [&]<class G>(std::type_identity<G>) -> decltype(auto) {
    return body(make_game<G>(files));
  });
}

}  // namespace sling
