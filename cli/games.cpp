#include "cli/games.h"

#include <algorithm>

namespace sling::cli {

std::vector<std::string> all_side_names() {
  std::vector<std::string> names;
  for (const GameDeclaration& game : game_declarations()) {
    for (std::string_view side : game.sides) {
      if (std::find(names.begin(), names.end(), side) == names.end()) names.emplace_back(side);
    }
  }
  return names;
}

std::string side_flags(const GameDeclaration& game) {
  return "--" + std::string(game.sides[0]) + " and --" + std::string(game.sides[1]);
}

}  // namespace sling::cli
