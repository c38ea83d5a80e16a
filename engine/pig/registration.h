#pragma once
// Pig's entry in the game registry (engine/core/game_registry.h, listed in engine/games.h).

#include "engine/core/game_registry.h"
#include "engine/pig/pig.h"

namespace sling {

template <>
struct GameRegistration<pig::PigGame> {
  static constexpr GameDeclaration kDeclaration{
      "pig", "the dice game Pig, the reference game (exact solver)", {"first", "second"}, false};
};

}  // namespace sling
