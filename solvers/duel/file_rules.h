#pragma once
// The rules a duel solution file (uncapped or capped) was solved for, read back and checked
// against the game that loads it, with the same one-line errors for both kinds of file.

#include <sstream>
#include <string>

#include "engine/core/errors.h"
#include "engine/duel/duel.h"

namespace sling::duel::detail {

// The game of the file's rules text; `where` names the file in errors.  With `expected`, the file
// must have been solved for exactly its rules: the error names the first rules key that differs.
inline DuelGame game_of_solution_file(const std::string& where, const std::string& rules,
                                      const DuelGame* expected) {
  DuelGame game = [&] {
    try {
      return DuelGame::from_rules_json(rules);
    } catch (const SlingError& e) {
      throw FileFormatError(where + ": corrupted rules (" + e.what() + ")");
    }
  }();
  if (expected != nullptr && !(expected->rules() == game.rules())) {
    std::istringstream a(expected->rules_json()), b(game.rules_json());
    std::string la, lb, differ;
    while (std::getline(a, la) && std::getline(b, lb)) {
      if (la != lb) {
        differ = la;
        break;
      }
    }
    const auto first = differ.find_first_not_of(" \t");
    throw RulesError(where + " was solved for other rules (first difference: " +
                     (first == std::string::npos ? differ : differ.substr(first)) +
                     " here); solve these rules with `sling solve duel --rules FILE`");
  }
  return game;
}

}  // namespace sling::duel::detail
