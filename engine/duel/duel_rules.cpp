#include "engine/duel/duel_rules.h"

#include "engine/core/json_options.h"

namespace sling::duel {

namespace {

void check(const char* name, int value, int low, int high) {
  if (value < low || value > high) {
    throw RulesError("duel rules: '" + std::string(name) + "' must be in [" + std::to_string(low) +
                     ", " + std::to_string(high) + "], got " + std::to_string(value));
  }
}

}  // namespace

void DuelRules::validate() const {
  check("board_cm", board_cm, 15, 60);
  check("pitch_cm", pitch_cm, 1, 5);
  check("david_base_mm", david_base_mm, 10, 60);
  check("goliath_base_mm", goliath_base_mm, 10, 60);
  // Moves are bounded so that a movement disc fits the fixed-capacity action list.
  check("david_move", david_move, 2, 12);
  check("goliath_move_shield", goliath_move_shield, 2, 12);
  check("goliath_move_two_handed", goliath_move_two_handed, 2, 12);
  check("david_shooting", david_shooting, 0, 6);
  check("goliath_shooting", goliath_shooting, 0, 6);
  check("shooting_band_cm", shooting_band_cm, 1, 30);
  check("protection_shield", protection_shield, 0, 6);
  check("protection_two_handed", protection_two_handed, 0, 6);
  check("daze_max", daze_max, 0, 6);
  check("combat_david", combat_david, 0, 10);
  check("combat_goliath_shield", combat_goliath_shield, 0, 10);
  check("combat_goliath_two_handed", combat_goliath_two_handed, 0, 10);
  check("search_min", search_min, 1, 7);
  check("recover_min", recover_min, 1, 7);
  check("flee_min", flee_min, 1, 7);
  check("turn_cap", turn_cap, 0, 65535);  // DuelState::turn is 16 bits and saturates
  if (david_base_mm + goliath_base_mm > board_cm * 10) {
    throw RulesError("duel rules: the two bases do not fit on the board");
  }
}

std::string rules_to_json(const DuelRules& rules) {
  return options_to_json(rules);
}

DuelRules rules_from_json(const std::string& text) {
  return options_from_json<DuelRules>(text, "duel rules");
}

}  // namespace sling::duel
