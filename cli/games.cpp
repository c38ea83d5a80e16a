#include "cli/games.h"

#include <algorithm>

#include "engine/core/errors.h"

namespace sling::cli {
namespace {

template <class... G>
std::vector<GameDeclaration> declarations_of(std::tuple<G...>*) {
  return {Declared<G>::kDeclaration...};
}

std::string join(const std::vector<std::string_view>& names, std::string_view joiner) {
  std::string text;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i > 0) text += i + 1 == names.size() ? " " + std::string(joiner) + " " : ", ";
    text += names[i];
  }
  return text;
}

}  // namespace

const std::vector<GameDeclaration>& game_declarations() {
  static const std::vector<GameDeclaration> declarations =
      declarations_of(static_cast<DeclaredGames*>(nullptr));
  return declarations;
}

const GameDeclaration& require_game(std::string_view name, std::string_view option) {
  for (const GameDeclaration& game : game_declarations()) {
    if (game.name == name) return game;
  }
  throw OptionError(error_text("unknown game '" + std::string(name) + "'", option,
                               "the games are " + game_list("and")));
}

std::string game_list(std::string_view joiner) {
  std::vector<std::string_view> names;
  for (const GameDeclaration& game : game_declarations()) names.push_back(game.name);
  return join(names, joiner);
}

std::string map_game_list(std::string_view joiner) {
  std::vector<std::string_view> names;
  for (const GameDeclaration& game : game_declarations()) {
    if (game.has_map) names.push_back(game.name);
  }
  return join(names, joiner);
}

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

void require_map_game(std::string_view name, std::string_view command) {
  const GameDeclaration& game = require_game(name);
  if (!game.has_map) {
    throw OptionError(error_text(std::string(command) + ": " + std::string(name) + " has no map",
                                 "game", "games with a map: " + map_game_list("and")));
  }
}

}  // namespace sling::cli
