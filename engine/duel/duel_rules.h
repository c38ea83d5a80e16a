#pragma once
// The duel's rules file.  Every number the rules leave open, and every variant that changes the
// balance, is a field here rather than a code path; `sling rules duel` prints these defaults.

#include <cereal/cereal.hpp>

#include <cstdint>
#include <string>

namespace sling::duel {

struct DuelRules {
  // Geometry (centimetres and millimetres).
  int board_cm = 30;       // side of the square board
  int pitch_cm = 1;        // lattice pitch of figure centres
  int david_base_mm = 25;  // base diameters
  int goliath_base_mm = 40;

  // Movement: David base - d6 (a 6 trips him), Goliath base - d6.
  int david_move = 12;
  int goliath_move_shield = 7;
  int goliath_move_two_handed = 9;

  // Shooting: hit on d6 <= capability - (full bands of distance, edge to edge).
  int david_shooting = 5;
  int goliath_shooting = 2;
  int shooting_band_cm = 5;

  // A stone damages Goliath when d6 > protection, and the damage dazes him on d6 <= daze_max.
  int protection_shield = 4;
  int protection_two_handed = 3;
  int daze_max = 4;

  // Melee: d6 + combat value each.
  int combat_david = 2;
  int combat_goliath_shield = 5;
  int combat_goliath_two_handed = 6;

  // Success thresholds (d6 >= value).
  int search_min = 3;
  int recover_min = 5;
  int flee_min = 5;

  // David may invoke God once per game; false gives the game without God.
  bool god_enabled = true;
  // A draw after this many turns (both sides' turns counted); 0 = no cap.
  int turn_cap = 0;

  template <class Archive>
  void serialize(Archive& ar) {
    ar(CEREAL_NVP(board_cm), CEREAL_NVP(pitch_cm), CEREAL_NVP(david_base_mm),
       CEREAL_NVP(goliath_base_mm), CEREAL_NVP(david_move), CEREAL_NVP(goliath_move_shield),
       CEREAL_NVP(goliath_move_two_handed), CEREAL_NVP(david_shooting),
       CEREAL_NVP(goliath_shooting), CEREAL_NVP(shooting_band_cm), CEREAL_NVP(protection_shield),
       CEREAL_NVP(protection_two_handed), CEREAL_NVP(daze_max), CEREAL_NVP(combat_david),
       CEREAL_NVP(combat_goliath_shield), CEREAL_NVP(combat_goliath_two_handed),
       CEREAL_NVP(search_min), CEREAL_NVP(recover_min), CEREAL_NVP(flee_min),
       CEREAL_NVP(god_enabled), CEREAL_NVP(turn_cap));
  }

  // Throws RulesError naming the first field out of range.
  void validate() const;

  bool operator==(const DuelRules&) const = default;
};

// The rules as JSON text, and back (unknown keys and out-of-range values are RulesErrors).
std::string rules_to_json(const DuelRules& rules);
DuelRules rules_from_json(const std::string& text);

}  // namespace sling::duel
