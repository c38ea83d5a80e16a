#include "engine/games.h"

#include "engine/core/errors.h"

namespace sling {
namespace {

template <class... G>
std::vector<GameDeclaration> declarations_of(std::tuple<G...>*) {
  return {GameRegistration<G>::kDeclaration...};
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
      declarations_of(static_cast<RegisteredGames*>(nullptr));
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

void require_map_game(std::string_view name, std::string_view command) {
  const GameDeclaration& game = require_game(name);
  if (!game.has_map) {
    throw OptionError(error_text(std::string(command) + ": " + std::string(name) + " has no map",
                                 "game", "games with a map: " + map_game_list("and")));
  }
}

}  // namespace sling
