#pragma once
// The game registry: every game Sling offers, each registered in its own folder
// (engine/<game>/registration.h: name, summary, sides, whether it has a map).  The command line,
// the page's server, Python and the studies build their game lists, messages and dispatch from
// this list; a new game is one registration header and one entry in RegisteredGames below.
//
// with_registered_game(name, body) turns a name into the concrete game type: it calls
// body(std::type_identity<G>{}) for the game G of that name, so a generic lambda is written once
// for every game.  What a tool does differently per game comes from traits the game specialises
// in that tool's layer (agents/presets.h, play/play_agents.h, play/web/web_game.h, ...), never
// from comparing types or names.

#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "engine/core/game_registry.h"
#include "engine/danelaw/registration.h"
#include "engine/duel/registration.h"
#include "engine/pig/registration.h"

namespace sling {

// Every game, in the order lists show them.
using RegisteredGames = std::tuple<duel::DuelGame, danelaw::DanelawGame, pig::PigGame>;

// The declarations in RegisteredGames order.
const std::vector<GameDeclaration>& game_declarations();

// The declaration of `name`; throws OptionError naming the valid games when there is none.
// `option` names where the name came from in the message ("game", "--load FILE").
const GameDeclaration& require_game(std::string_view name, std::string_view option = "game");

// "duel, danelaw or pig" (joiner "or") or "duel, danelaw and pig".
std::string game_list(std::string_view joiner = "or");
// The games with a map, the same way.
std::string map_game_list(std::string_view joiner = "or");

// Throws OptionError unless `name` is a game with a map ("render", "path" ... name the command).
void require_map_game(std::string_view name, std::string_view command);

// Calls body(std::type_identity<G>{}) for each registered game G, in order.
template <class F>
void for_each_registered_game(F&& body) {
  [&]<class... G>(std::tuple<G...>*) {
    (body(std::type_identity<G>{}), ...);
  }(static_cast<RegisteredGames*>(nullptr));
}

// body(std::type_identity<G>{}) for the registered game G named `name`, and its result; throws
// OptionError naming the games when there is none (require_game).
template <class F>
decltype(auto) with_registered_game(std::string_view name, F&& body) {
  require_game(name);
  return [&]<class... G>(std::tuple<G...>*) -> decltype(auto) {
    using Result = std::common_type_t<decltype(body(std::type_identity<G>{}))...>;
    if constexpr (std::is_void_v<Result>) {
      (void)((name == GameRegistration<G>::kDeclaration.name &&
              (body(std::type_identity<G>{}), true)) ||
             ...);
    } else {
      std::optional<Result> result;
      (void)((name == GameRegistration<G>::kDeclaration.name &&
              (result.emplace(body(std::type_identity<G>{})), true)) ||
             ...);
      return Result(std::move(*result));
    }
  }(static_cast<RegisteredGames*>(nullptr));
}

}  // namespace sling
