#pragma once
// Danelaw's entry in the game registry (engine/core/game_registry.h, listed in engine/games.h).

#include "engine/core/game_registry.h"
#include "engine/danelaw/danelaw.h"

namespace sling {

template <>
struct GameRegistration<danelaw::DanelawGame> {
  static constexpr GameDeclaration kDeclaration{
      "danelaw", "Danes vs English on a hex map of England", {"danes", "english"}, true};
};

}  // namespace sling
