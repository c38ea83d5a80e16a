#pragma once
// The duel's entry in the game registry (engine/core/game_registry.h, listed in engine/games.h).

#include "engine/core/game_registry.h"
#include "engine/duel/duel.h"

namespace sling {

template <>
struct GameRegistration<duel::DuelGame> {
  static constexpr GameDeclaration kDeclaration{
      "duel", "David vs Goliath on a 30 x 30 cm board (exact solver)", {"david", "goliath"}, false};
};

}  // namespace sling
