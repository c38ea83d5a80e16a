#pragma once
// How a game registers itself, as OpenSpiel's REGISTER_SPIEL_GAME does: each game specialises
// GameRegistration<G> in its own folder (engine/duel/registration.h, ...) with its declaration,
// and engine/games.h lists the registered games.  Every tool (the command line, the page, Python,
// the studies) reads that one list; none dispatches on a game's name by hand.

#include <array>
#include <concepts>
#include <string_view>

namespace sling {

struct GameDeclaration {
  std::string_view name;                  // as GameInfo::name
  std::string_view summary;               // one line for `sling --help` and `sling games`
  std::array<std::string_view, 2> sides;  // as GameInfo::sides; also the --<side> flags
  bool has_map;                           // --map applies (render, path and map commands)
};

// Specialised once per game, next to the game, with
//   static constexpr GameDeclaration kDeclaration{...};
template <class G>
struct GameRegistration;

template <class G>
concept RegisteredGame = requires {
  { GameRegistration<G>::kDeclaration } -> std::convertible_to<const GameDeclaration&>;
};

}  // namespace sling
