#pragma once
// What the page's server does differently per game, as a trait each game may specialise beside it
// (play/web/duel_web.h, play/web/danelaw_web.h): game_factory.cpp and info_json are written once
// for every registered game (engine/games.h) and ask this trait, never the game's name.

#include <string>
#include <vector>

#include "engine/core/game.h"
#include "play/web/web_json.h"

namespace sling::web {

template <Game G>
struct DefaultWebTraits {
  // Whether the server's --solution file is this game's (its `strong` and hints play from it).
  static constexpr bool kTakesServerSolution = false;
  // The game of a request: a new game from its rules text, or a save's rules (`saved`).  A game
  // with a map reads the request's "map" and "map_name" here.
  static G from_request(const std::string& rules, const rapidjson::Value& /*request*/,
                        bool /*saved*/) {
    return G::from_rules_json(rules);
  }
  // The maps built into Sling that the page offers for this game.
  static std::vector<std::string> built_in_maps() { return {}; }
};

template <Game G>
struct WebTraits : DefaultWebTraits<G> {};

}  // namespace sling::web
