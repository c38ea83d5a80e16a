// JSON nested beyond kMaxJsonDepth (engine/core/cereal_json.h) is refused by every reader before
// any parser sees it: the limit itself, the state reader, and each file the command line reads
// (rules, map, record, tournament configuration, value model, state) with 400,000 nested lists,
// each refused with exit status 2 and one line.  The protocol's and the server's entry points are
// tested with their own suites (external_agent_test.cpp, web_api_test.cpp).

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "engine/core/cereal_json.h"
#include "engine/core/state_io.h"
#include "engine/pig/pig.h"
#include "tests/run_sling.h"

namespace sling {
namespace {

namespace fs = std::filesystem;
using testing_support::CommandRun;
using testing_support::count_lines;
using testing_support::run_sling;

std::string nested(int levels) {
  return std::string(static_cast<std::size_t>(levels), '[') +
         std::string(static_cast<std::size_t>(levels), ']');
}

const std::string kDeep = nested(400000);

fs::path deep_file(const std::string& name, const std::string& text = kDeep) {
  const fs::path dir = fs::temp_directory_path() / "sling-json-depth";
  fs::create_directories(dir);
  const fs::path path = dir / name;
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

void expect_refused(const CommandRun& run, const std::string& arguments) {
  EXPECT_EQ(run.status, 2) << arguments << "\n" << run.output.substr(0, 400);
  EXPECT_EQ(count_lines(run.output), 1) << arguments << "\n" << run.output.substr(0, 400);
  EXPECT_EQ(run.output.rfind("sling: ", 0), 0u) << arguments << "\n" << run.output.substr(0, 400);
  EXPECT_NE(run.output.find("nested deeper than 128 levels"), std::string::npos)
      << arguments << "\n"
      << run.output.substr(0, 400);
}

TEST(JsonDepth, TheLimitIsExactAndNamesWhereItWasCrossed) {
  rapidjson::Document document;
  parse_json(document, nested(kMaxJsonDepth));
  EXPECT_FALSE(document.HasParseError());
  EXPECT_EQ(json_syntax_problem(nested(kMaxJsonDepth)), "");
  EXPECT_THROW(parse_json(document, nested(kMaxJsonDepth + 1)), JsonTooDeepError);
  // The object around the lists is the first level.
  EXPECT_EQ(json_syntax_problem("{\"a\":\n " + nested(kMaxJsonDepth) + "}"),
            "JSON nested deeper than 128 levels at line 2, column 129");
  // Objects count as lists do; brackets inside strings do not count.
  std::string objects;
  for (int i = 0; i <= kMaxJsonDepth; ++i) objects += "{\"k\":";
  objects += "0" + std::string(kMaxJsonDepth + 1, '}');
  EXPECT_NE(json_syntax_problem(objects), "");
  const std::string quoted_brackets = "[\"" + std::string(1000, '[') + "\\\"[[\"]";
  EXPECT_EQ(json_syntax_problem(quoted_brackets), "");
  EXPECT_EQ(json_syntax_problem(kDeep), "JSON nested deeper than 128 levels at line 1, column 129");
}

TEST(JsonDepth, AStateNestedTooDeepIsAMalformedState) {
  try {
    state_from_json<pig::PigState>("{\"state\":" + kDeep + "}");
    FAIL() << "a state of 400,000 nested lists was read";
  } catch (const FileFormatError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("malformed state: JSON nested deeper than 128", 0), 0u)
        << e.what();
  }
}

TEST(JsonDepth, EveryFileTheCommandLineReadsIsRefusedWithOneLine) {
  const std::string rules = deep_file("rules.json").string();
  // A record or state that starts as JSON does (a bare list is read as a binary file and refused
  // as truncated).
  const std::string deep_record =
      R"({"format":"sling-record","version":1,"history":)" + kDeep + "}";
  for (const std::string& arguments :
       {"match duel --rules " + rules + " --games 1", "match pig --rules " + rules + " --games 1",
        "match danelaw --rules " + rules + " --games 1",
        "render danelaw --map " + deep_file("map.json").string(),
        "replay " + deep_file("game.sav", deep_record).string(),
        "play --load " + deep_file("load.sav", deep_record).string(),
        "render danelaw --state " + deep_file("state.json", "{\"state\":" + kDeep + "}").string(),
        "match danelaw --danes planner:model=" + deep_file("model.json").string() +
            " --english easy --games 1"}) {
    expect_refused(run_sling(arguments), arguments);
  }
}

TEST(JsonDepth, ATournamentConfigurationNestedTooDeepIsRefusedAndLeftAsItWas) {
  const fs::path out = fs::temp_directory_path() / "sling-json-depth-tournament";
  fs::remove_all(out);
  fs::create_directories(out);
  const fs::path config = out / "config.json";
  std::ofstream(config, std::ios::binary) << kDeep;
  const std::string arguments = "tournament pig --games 1 --quiet --resume --out " + out.string();
  expect_refused(run_sling(arguments), arguments);
  std::ifstream in(config, std::ios::binary);
  const std::string kept((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(kept, kDeep) << "the configuration was changed";
}

}  // namespace
}  // namespace sling
