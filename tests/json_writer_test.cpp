// The one JSON writer (engine/core/json_writer.h): its escaping, number formats, null for what is
// not a finite number, nesting and indentation, and ported outputs that keep their bytes.

#include "engine/core/json_writer.h"
#include "tests/build_paths.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <limits>
#include <string>

#include "experiments/match.h"
#include "experiments/tournament/config.h"
#include "solvers/danelaw/value_model.h"

namespace sling {
namespace {

TEST(JsonText, StringsEscapeQuotesBackslashesAndControlCharacters) {
  EXPECT_EQ(json_string("plain"), R"("plain")");
  EXPECT_EQ(json_string("say \"hi\" \\ now"), R"("say \"hi\" \\ now")");
  EXPECT_EQ(json_string("a\nb\rc\td"), R"("a\nb\rc\td")");
  EXPECT_EQ(json_string(std::string("\x01\x1f", 2)), R"("\u0001\u001f")");
  EXPECT_EQ(json_string(std::string("nul\0", 4)), R"("nul\u0000")");
  EXPECT_EQ(json_string("Ærø ±"), "\"Ærø ±\"");  // UTF-8 passes through as it is
  EXPECT_EQ(json_string(""), R"("")");
}

TEST(JsonText, NumbersTakeTheirFormatExplicitly) {
  EXPECT_EQ(json_number(JsonNumber::fixed(0.3580934082, 10)), "0.3580934082");
  EXPECT_EQ(json_number(JsonNumber::fixed(1, 10)), "1.0000000000");
  EXPECT_EQ(json_number(JsonNumber::fixed(194.925, 2)), "194.93");
  EXPECT_EQ(json_number(JsonNumber::fixed(-0.001, 2)), "-0.00");
  EXPECT_EQ(json_number(JsonNumber::fixed(0.66666, 4)), "0.6667");
  EXPECT_EQ(json_number(JsonNumber::significant(1.0 / 30)), "0.0333333");
  EXPECT_EQ(json_number(JsonNumber::significant(1e-6)), "1e-06");  // as an ostream writes it
  EXPECT_EQ(json_number(JsonNumber::significant(125.23333)), "125.233");
  EXPECT_EQ(json_number(JsonNumber::significant(0.1234567890123, 10)), "0.123456789");
  EXPECT_EQ(json_number(JsonNumber::significant(5)), "5");
  // More text than the writer's buffer holds.
  EXPECT_EQ(json_number(JsonNumber::fixed(1e300, 10)).size(), 301u + 1 + 10);
}

TEST(JsonText, WhatIsNotAFiniteNumberIsNull) {
  EXPECT_EQ(json_number(JsonNumber::fixed(std::nan(""), 4)), "null");
  EXPECT_EQ(json_number(JsonNumber::significant(std::numeric_limits<double>::infinity())), "null");
  EXPECT_EQ(json_number(JsonNumber::fixed(-std::numeric_limits<double>::infinity(), 2)), "null");
}

TEST(JsonWriter, ScalarsAtTheTop) {
  JsonWriter json;
  json.integer(-12);
  EXPECT_EQ(json.take_document(), "-12\n");
  json.boolean(false);
  EXPECT_EQ(json.take_document(), "false\n");
  json.null();
  EXPECT_EQ(json.take_document(), "null\n");
  json.string("x");
  EXPECT_EQ(json.take_document(), "\"x\"\n");
}

TEST(JsonWriter, IntegersOfEveryWidth) {
  JsonWriter json;
  json.begin_array(JsonLayout::one_line);
  json.integer(std::numeric_limits<std::uint64_t>::max());
  json.integer(std::numeric_limits<std::int64_t>::min());
  json.integer(std::size_t{0}).integer(short{7});
  json.end_array();
  EXPECT_EQ(json.text(), "[18446744073709551615, -9223372036854775808, 0, 7]");
}

TEST(JsonWriter, OneLineContainers) {
  JsonWriter json;
  json.begin_object(JsonLayout::one_line).key("cost").integer(3);
  json.key("path").begin_array(JsonLayout::one_line).string("1428").string("1329").end_array();
  json.key("empty").begin_object(JsonLayout::one_line).end_object();
  json.key("none").begin_array(JsonLayout::one_line).end_array();
  json.key("ok").boolean(true).key("nothing").null().end_object();
  EXPECT_EQ(json.take_document(),
            R"({"cost": 3, "path": ["1428", "1329"], "empty": {}, "none": [], "ok": true, )"
            R"("nothing": null})"
            "\n");
}

TEST(JsonWriter, MultiLineContainersIndentTwoSpacesALevel) {
  JsonWriter json;
  json.begin_object().key("a").integer(1).key("list").begin_array();
  json.begin_array(JsonLayout::one_line).integer(1).integer(2).end_array();
  json.begin_object().key("deep").begin_array().string("x").end_array().end_object();
  json.end_array();
  json.key("empty").begin_array().end_array();
  json.key("odd \"key\"").number(JsonNumber::fixed(0.5, 2));
  json.end_object();
  EXPECT_EQ(json.take_document(),
            "{\n"
            "  \"a\": 1,\n"
            "  \"list\": [\n"
            "    [1, 2],\n"
            "    {\n"
            "      \"deep\": [\n"
            "        \"x\"\n"
            "      ]\n"
            "    }\n"
            "  ],\n"
            "  \"empty\": [\n"
            "  ],\n"
            "  \"odd \\\"key\\\"\": 0.50\n"
            "}\n");
}

TEST(JsonWriter, ElementLinesCloseAfterTheLastElement) {
  JsonWriter json;
  json.begin_object().key("bins").begin_array(JsonLayout::element_lines);
  json.begin_object(JsonLayout::one_line).key("low").integer(0).end_object();
  json.begin_object(JsonLayout::one_line).key("low").integer(1).end_object();
  json.end_array().key("none").begin_array(JsonLayout::element_lines).end_array().end_object();
  EXPECT_EQ(json.take_document(),
            "{\n"
            "  \"bins\": [\n"
            "    {\"low\": 0},\n"
            "    {\"low\": 1}],\n"
            "  \"none\": []\n"
            "}\n");
}

TEST(JsonWriter, TakeDocumentLeavesTheWriterEmpty) {
  JsonWriter json;
  json.begin_object(JsonLayout::one_line).end_object();
  EXPECT_EQ(json.take_document(), "{}\n");
  EXPECT_EQ(json.text(), "");
  json.begin_array(JsonLayout::one_line).integer(1).end_array();
  EXPECT_EQ(json.take_document(), "[1]\n");
}

// The bytes `sling tournament` has always written to config.json.
TEST(JsonWriterGolden, TournamentConfig) {
  TournamentConfig config;
  config.game = "pig";
  config.rules = "{\n    \"goal\": 100\n}";
  config.agents = {"random", "hold:20"};
  config.pairs_per_pairing = 2;
  config.seed = 5;
  EXPECT_EQ(config.to_json(),
            "{\n"
            "  \"format\": \"sling-tournament\",\n"
            "  \"version\": 1,\n"
            "  \"game\": \"pig\",\n"
            "  \"rules\": \"{\\n    \\\"goal\\\": 100\\n}\",\n"
            "  \"agents\": [\"random\", \"hold:20\"],\n"
            "  \"pairs_per_pairing\": 2,\n"
            "  \"seed\": 5\n"
            "}\n");
  config.turn_limit = 300;
  config.agents.clear();
  const std::string limited = config.to_json();
  EXPECT_NE(limited.find("  \"agents\": [],\n"), std::string::npos) << limited;
  EXPECT_NE(limited.find("  \"seed\": 5,\n  \"turn_limit\": 300\n}\n"), std::string::npos)
      << limited;
}

// The bytes `sling match --json` has always written, luck included.
TEST(JsonWriterGolden, MatchSummary) {
  MatchResult r;
  r.game = "pig";
  r.sides = {"first", "second"};
  r.specs = {"random", "hold:20"};
  r.seed = 3;
  r.games = 30;
  r.wins = {1, 29};
  r.end_reasons = {{"reached the goal", 30}};
  r.mean_plies = 125.23333333;
  r.seconds = 0.25;
  r.luck = true;
  r.luck_source = "the exact solution (goal 100)";
  r.score = {0.0333333333, 0.182574, -0.0319988, 0.0986655, 30};
  r.adjusted = {0.0170674, 0.335245, -0.102896, 0.137031, 30};
  r.luck_of_side0 = {0.016266, 0.48345, -0.156731, 0.189263, 30};
  const std::string expected =
      "{\n"
      "  \"game\": \"pig\",\n"
      "  \"seed\": 3,\n"
      "  \"games\": 30,\n"
      "  \"agents\": {\"first\": \"random\", \"second\": \"hold:20\"},\n"
      "  \"wins\": {\"first\": 1, \"second\": 29},\n"
      "  \"draws\": 0,\n"
      "  \"win_rate\": {\n"
      "    \"first\": {\"rate\": 0.0333333, \"ci95_low\": 0.00590859, \"ci95_high\": 0.166704},\n"
      "    \"second\": {\"rate\": 0.966667, \"ci95_low\": 0.833296, \"ci95_high\": 0.994091}\n"
      "  },\n"
      "  \"errors\": {\"first\": 0, \"second\": 0},\n"
      "  \"end_reasons\": {\"reached the goal\": 30},\n"
      "  \"luck\": {\n"
      "    \"values\": \"the exact solution (goal 100)\",\n"
      "    \"score\": {\"mean\": 0.0333333, \"stddev\": 0.182574, \"ci95_low\": -0.0319988, "
      "\"ci95_high\": 0.0986655},\n"
      "    \"adjusted_score\": {\"mean\": 0.0170674, \"stddev\": 0.335245, \"ci95_low\": "
      "-0.102896, \"ci95_high\": 0.137031},\n"
      "    \"luck\": {\"mean\": 0.016266, \"stddev\": 0.48345, \"ci95_low\": -0.156731, "
      "\"ci95_high\": 0.189263}\n"
      "  },\n"
      "  \"turn_limit\": 0,\n"
      "  \"mean_plies\": 125.233,\n"
      "  \"seconds\": 0.25\n"
      "}\n";
  EXPECT_EQ(match_to_json(r), expected);
}

// The embedded danelaw value model is the file `sling train danelaw` wrote, byte for byte.
TEST(JsonWriterGolden, DanelawValueModel) {
  const std::string path =
      std::string(SLING_SOURCE_DIR) + "/solvers/danelaw/data/danelaw_value.json";
  std::ifstream in(path, std::ios::binary);
  ASSERT_TRUE(in) << path;
  const std::string file((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(danelaw::ValueModel::embedded().to_json(), file);
}

}  // namespace
}  // namespace sling
