#pragma once
// The solver's layers and slots: which flags of a declare state each one stands for.  A layer is
// an irreversible pair of flags (God available, Goliath's kit); a slot is the side to declare
// with the reversible ones (David's stone, Goliath's daze, a pending behead).

#include <cstdint>

#include "engine/duel/duel.h"

namespace sling::duel::detail {

constexpr std::uint8_t kStone = kDavidHasStone;
constexpr std::uint8_t kShield = kGoliathShield;
constexpr std::uint8_t kJavelin = kGoliathJavelin;
constexpr std::uint8_t kGod = kGodAvailable;
constexpr std::uint8_t kDazed = kGoliathDazed;
constexpr std::uint8_t kBehead = kBeheadPending;

// Flags of a layer (God and Goliath's kit) and of a slot (stone, daze, pending behead).
inline std::uint8_t layer_flags(int layer) {
  std::uint8_t f = 0;
  if (layer >= 3) f |= kGod;
  const int kit = layer % 3;
  if (kit >= 1) f |= kShield;
  if (kit == 2) f |= kJavelin;
  return f;
}
inline std::uint8_t slot_flags(int slot) {
  if (slot < 4)
    return static_cast<std::uint8_t>(((slot & 2) ? kStone : 0) | ((slot & 1) ? kDazed : 0));
  const int g = slot - 4;
  std::uint8_t f = g >= 3 ? kStone : 0;
  const int k = g % 3;
  if (k >= 1) f |= kDazed;
  if (k == 2) f |= kBehead;
  return f;
}
inline const char* layer_name(int layer) {
  static const char* kNames[] = {"no-god/no-kit", "no-god/shield", "no-god/shield+javelin",
                                 "god/no-kit",    "god/shield",    "god/shield+javelin"};
  return kNames[layer];
}

}  // namespace sling::duel::detail
