// A state's one JSON form (engine/core/state_io.h): the bare state on one line with lists, as
// the agent protocol's version 1 sends it; and the forms its reader also accepts (wrapped as
// {"state": {...}}, C++ arrays as cereal's {"valueN"} objects), with the errors of anything else.
// The round trips of every game's states at every ply are the conformance suite's
// (tests/conformance.h).

#include <gtest/gtest.h>

#include <string>

#include "engine/core/state_io.h"
#include "engine/danelaw/danelaw.h"
#include "engine/duel/duel.h"
#include "engine/pig/pig.h"
#include "tests/state_forms.h"

namespace sling {
namespace {

using testing_support::cereal_wrapped_json;

// Pig's state the protocol's documentation shows (docs/protocol.md, "States and actions").
pig::PigState documented_pig_state() {
  pig::PigState state;
  state.scores = {12, 30};
  state.turn_total = 4;
  state.to_move = 1;
  return state;
}
const std::string kDocumentedPig = R"({"scores":[12,30],"turn_total":4,"to_move":1,"phase":0})";

// Danelaw's initial state as `sling match danelaw` sent it to an external agent (protocol 1).
const std::string kDanelawInitialVersion1 =
    R"({"armies":[{"hex":439,"side":1,"flags":1},{"hex":23,"side":1,"flags":1},{"hex":22,"side")"
    R"(:1,"flags":1},{"hex":51,"side":1,"flags":1},{"hex":101,"side":1,"flags":1},{"hex":204,"s)"
    R"(ide":1,"flags":1},{"hex":386,"side":1,"flags":1},{"hex":284,"side":1,"flags":1},{"hex":3)"
    R"(73,"side":1,"flags":1},{"hex":396,"side":1,"flags":1},{"hex":464,"side":1,"flags":1},{"h)"
    R"(ex":462,"side":1,"flags":1},{"hex":486,"side":1,"flags":1},{"hex":432,"side":1,"flags":1)"
    R"(},{"hex":473,"side":1,"flags":1},{"hex":543,"side":1,"flags":1},{"hex":539,"side":1,"fla)"
    R"(gs":1},{"hex":500,"side":1,"flags":1},{"hex":525,"side":1,"flags":1},{"hex":478,"side":1)"
    R"(,"flags":0},{"hex":140,"side":1,"flags":0},{"hex":56,"side":1,"flags":0}],"danish_towns")"
    R"(:0,"selected":65535,"target":65535,"rout_hex":65535,"rout_from":65535,"phase":0,"side":0)"
    R"(,"turn":1,"points":0,"dice_low":0,"dice_high":0,"battle_roll":0,"attack_rolls":0,"rout_s)"
    R"(teps":0,"to_place":10,"winner":255,"end_reason":0,"pool":[20,17]})";

// The message of the FileFormatError that reading `text` as a Pig state throws.
std::string pig_error(const std::string& text) {
  try {
    (void)state_from_json<pig::PigState>(text);
  } catch (const FileFormatError& e) {
    return e.what();
  }
  return "(read)";
}

TEST(StateJson, AStateIsWrittenBareOnOneLineWithLists) {
  EXPECT_EQ(state_to_json(documented_pig_state()), kDocumentedPig);
  EXPECT_EQ(state_to_json(pig::PigGame().initial_state()),
            R"({"scores":[0,0],"turn_total":0,"to_move":0,"phase":0})");
  // What cereal writes itself, which the one form replaces.
  EXPECT_NE(cereal_wrapped_json(documented_pig_state()).find("\"value1\": 30"), std::string::npos);

  const duel::DuelGame duel;
  const std::string duel_json = state_to_json(duel.initial_state());
  EXPECT_EQ(duel_json.rfind("{\"david_x\":", 0), 0u) << duel_json;
  EXPECT_NE(duel_json.find("\"dice\":[0,0]"), std::string::npos) << duel_json;

  // Danelaw's armies (a list of objects) and its pools (a C++ array): both lists.
  const danelaw::DanelawGame danelaw;
  danelaw::State state = danelaw.initial_state();
  ActionList<danelaw::DanelawGame> legal;
  danelaw.legal_actions(state, legal);
  danelaw.apply_action(state, legal[0]);
  const std::string danelaw_json = state_to_json(state);
  EXPECT_EQ(danelaw_json.rfind("{\"armies\":[{\"hex\":", 0), 0u) << danelaw_json;
  EXPECT_NE(danelaw_json.find("\"pool\":["), std::string::npos) << danelaw_json;
  EXPECT_EQ(danelaw_json.find('\n'), std::string::npos);
  EXPECT_EQ(state_from_json<danelaw::State>(danelaw_json), state);
}

TEST(StateJson, BareWrappedListsAndValueObjectsAreAllRead) {
  const pig::PigState expected = documented_pig_state();
  const std::string value_objects =
      R"({"scores":{"value0":12,"value1":30},"turn_total":4,"to_move":1,"phase":0})";
  for (const std::string& state : {kDocumentedPig, value_objects}) {
    EXPECT_EQ(state_from_json<pig::PigState>(state), expected) << state;
    EXPECT_EQ(state_from_json<pig::PigState>("{\"state\": " + state + "}"), expected) << state;
    EXPECT_EQ(state_from_json<pig::PigState>("\n  " + state + "\n"), expected) << state;
  }
  EXPECT_EQ(state_from_json<pig::PigState>(cereal_wrapped_json(expected)), expected);
  // Fields in any order, as any JSON object's.
  EXPECT_EQ(
      state_from_json<pig::PigState>(R"({"phase":0,"to_move":1,"turn_total":4,"scores":[12,30]})"),
      expected);
}

TEST(StateJson, TheStatesOfProtocolVersionOneAreRead) {
  // docs/protocol.md's new_game and act, as a version 1 host sends them.
  EXPECT_EQ(
      state_from_json<pig::PigState>(R"({"scores":[0,0],"turn_total":0,"to_move":0,"phase":0})"),
      pig::PigGame().initial_state());
  pig::PigState rolled;
  rolled.turn_total = 4;
  EXPECT_EQ(
      state_from_json<pig::PigState>(R"({"scores":[0,0],"turn_total":4,"to_move":0,"phase":0})"),
      rolled);
  // Danelaw's initial state (the English militia and field armies in their towns) as a version 1
  // host sent it: the one form is that text, byte for byte.
  const danelaw::DanelawGame danelaw;
  EXPECT_EQ(state_to_json(danelaw.initial_state()), kDanelawInitialVersion1);
  EXPECT_EQ(state_from_json<danelaw::State>(kDanelawInitialVersion1), danelaw.initial_state());
}

TEST(StateJson, AnythingElseIsAMalformedStateInOneLine) {
  EXPECT_EQ(pig_error(R"({"scores":[1,2])"),
            "malformed state: malformed JSON at line 1, column 16 (missing a comma or '}' after an "
            "object member)");
  EXPECT_EQ(pig_error("[1,2]"), "malformed state: expected an object");
  EXPECT_EQ(pig_error("{}"), "malformed state: field 'scores' is missing");
  EXPECT_EQ(pig_error(R"({"state":{}})"), "malformed state: field 'scores' is missing");
  EXPECT_EQ(pig_error(R"({"state":5})"), "malformed state: expected an object");
  EXPECT_EQ(pig_error(R"({"scores":"many","turn_total":4,"to_move":1,"phase":0})")
                .rfind("malformed state: ", 0),
            0u);
  const std::string deep = std::string(200, '[') + std::string(200, ']');
  EXPECT_EQ(pig_error(R"({"scores":)" + deep + "}")
                .rfind("malformed state: JSON nested deeper than 128 levels at line 1, column", 0),
            0u);
  EXPECT_THROW((void)state_from_json<danelaw::State>(R"({"armies":{"value0":1}})"),
               FileFormatError);
}

}  // namespace
}  // namespace sling
