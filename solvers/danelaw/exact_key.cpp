#include "solvers/danelaw/exact_key.h"

#include <algorithm>
#include <cstring>

#include "engine/core/fnv1a.h"
#include "engine/core/random.h"

namespace sling::danelaw {

namespace {

// Byte offsets of the packed fields.
constexpr int kArmiesAt = 0;  // 2 bytes an army: hex, side | flags << 1
constexpr int kTownsAt = kArmiesAt + 2 * kExactMaxArmies;  // 30: danish_towns, 8 bytes
constexpr int kHexesAt = kTownsAt + 8;    // 38: selected, target, rout_hex, rout_from
constexpr int kScalarsAt = kHexesAt + 4;  // 42: the one-byte fields below
constexpr int kPhaseAt = kScalarsAt + 1;  // 43
static_assert(kScalarsAt + 14 == 8 * kExactKeyWords, "the packing fills the key exactly");
// The empty key's phase byte (0xff) is no phase, so no state's key is empty; the word holding it.
constexpr int kPhaseWord = kPhaseAt / 8;

std::uint8_t hex_byte(std::uint16_t hex) {
  return hex == kNoHex ? std::uint8_t{0xff} : static_cast<std::uint8_t>(hex);
}
std::uint16_t hex_of_byte(std::uint8_t byte) {
  return byte == 0xff ? kNoHex : std::uint16_t{byte};
}

}  // namespace

ExactKey exact_key(const State& s) {
  std::array<std::uint8_t, 8 * kExactKeyWords> bytes{};
  std::array<std::uint16_t, kExactMaxArmies> armies{};  // hex << 8 | side | flags << 1
  for (int i = 0; i < s.army_count; ++i) {
    const Army& a = s.armies[i];
    armies[i] = static_cast<std::uint16_t>(a.hex << 8 | a.side | a.flags << 1);
  }
  std::sort(armies.begin(), armies.begin() + s.army_count);
  for (int i = 0; i < s.army_count; ++i) {
    bytes[kArmiesAt + 2 * i] = static_cast<std::uint8_t>(armies[i] >> 8);
    bytes[kArmiesAt + 2 * i + 1] = static_cast<std::uint8_t>(armies[i] & 0xff);
  }
  std::memcpy(&bytes[kTownsAt], &s.danish_towns, 8);
  bytes[kHexesAt] = hex_byte(s.selected);
  bytes[kHexesAt + 1] = hex_byte(s.target);
  bytes[kHexesAt + 2] = hex_byte(s.rout_hex);
  bytes[kHexesAt + 3] = hex_byte(s.rout_from);
  // The movement dice matter only while a double's reinforcement is being placed (the points they
  // gave are kept apart): after that, states that differ only in how the points were rolled are
  // one state.
  const std::uint8_t dice =
      s.phase == Phase::kReinforce ? static_cast<std::uint8_t>(s.dice_low << 4 | s.dice_high) : 0;
  const std::array<std::uint8_t, 14> scalars = {
      s.army_count,   static_cast<std::uint8_t>(s.phase),
      s.side,         s.turn,
      s.points,       dice,
      s.battle_roll,  s.attack_rolls,
      s.rout_steps,   s.to_place,
      s.winner,       static_cast<std::uint8_t>(s.end_reason),
      s.pool[kDanes], s.pool[kEnglish]};
  std::copy(scalars.begin(), scalars.end(), bytes.begin() + kScalarsAt);
  ExactKey key;
  std::memcpy(key.words.data(), bytes.data(), bytes.size());
  return key;
}

State state_of_key(const ExactKey& key) {
  std::array<std::uint8_t, 8 * kExactKeyWords> bytes{};
  std::memcpy(bytes.data(), key.words.data(), bytes.size());
  State s;
  const std::uint8_t* scalar = &bytes[kScalarsAt];
  s.army_count = scalar[0];
  for (int i = 0; i < s.army_count; ++i) {
    const std::uint8_t info = bytes[kArmiesAt + 2 * i + 1];
    s.armies[i] = Army{bytes[kArmiesAt + 2 * i], static_cast<std::uint8_t>(info & 1),
                       static_cast<std::uint8_t>(info >> 1)};
  }
  std::memcpy(&s.danish_towns, &bytes[kTownsAt], 8);
  s.selected = hex_of_byte(bytes[kHexesAt]);
  s.target = hex_of_byte(bytes[kHexesAt + 1]);
  s.rout_hex = hex_of_byte(bytes[kHexesAt + 2]);
  s.rout_from = hex_of_byte(bytes[kHexesAt + 3]);
  s.phase = static_cast<Phase>(scalar[1]);
  s.side = scalar[2];
  s.turn = scalar[3];
  s.points = scalar[4];
  s.dice_low = static_cast<std::uint8_t>(scalar[5] >> 4);
  s.dice_high = static_cast<std::uint8_t>(scalar[5] & 15);
  s.battle_roll = scalar[6];
  s.attack_rolls = scalar[7];
  s.rout_steps = scalar[8];
  s.to_place = scalar[9];
  s.winner = scalar[10];
  s.end_reason = static_cast<EndReason>(scalar[11]);
  s.pool = {scalar[12], scalar[13]};
  return s;
}

std::uint64_t exact_key_hash(const ExactKey& key) {
  std::uint64_t h = kFnv1aOffsetBasis;
  for (const std::uint64_t word : key.words) h = mix64(h ^ word);
  return h;
}

ExactKey empty_exact_key() {
  ExactKey key;
  key.words.fill(~std::uint64_t{0});
  return key;
}

bool is_empty_exact_key(const ExactKey& key) {
  return key.words[kPhaseWord] == ~std::uint64_t{0};
}

}  // namespace sling::danelaw
