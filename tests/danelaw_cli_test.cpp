// The danelaw commands of the `sling` binary: path, map and render, and their one-line errors.

#include <unistd.h>

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "engine/core/state_io.h"
#include "engine/danelaw/danelaw.h"
#include "tests/run_sling.h"

namespace sling::danelaw {
namespace {

using testing_support::CommandRun;

CommandRun run(const std::string& arguments) {
  return testing_support::run_sling(arguments);
}
int lines(const std::string& text) {
  return testing_support::count_lines(text);
}

TEST(DanelawCli, PathPrintsCostAndHexes) {
  const CommandRun json =
      run("path danelaw --from Winchester --to Southampton --side english --json");
  ASSERT_EQ(json.status, 0) << json.output;
  const DanelawGame game;
  const std::string w = game.map().label(game.map().find_hex("Winchester"));
  const std::string s = game.map().label(game.map().find_hex("Southampton"));
  EXPECT_EQ(json.output, "{\"cost\": 1, \"path\": [\"" + w + "\", \"" + s + "\"]}\n");
  const CommandRun text = run("path danelaw --from " + w + " --to southampton --side english");
  EXPECT_EQ(text.status, 0);
  EXPECT_EQ(text.output.rfind("cost 1:", 0), 0u) << text.output;
}

TEST(DanelawCli, BadNamesAreOneLineErrors) {
  for (const char* args :
       {"path danelaw --from Atlantis --to London", "path danelaw --from York --to 9999",
        "path danelaw --from York --to London --side vikings",
        "path danelaw --from York --to London --map /no/such/map.json", "map duel"}) {
    const CommandRun r = run(args);
    EXPECT_NE(r.status, 0) << args;
    EXPECT_EQ(lines(r.output), 1) << args << ": " << r.output;
    EXPECT_EQ(r.output.rfind("sling: ", 0), 0u) << r.output;
  }
  const CommandRun r = run("path danelaw --from Atlantis --to London");
  EXPECT_NE(r.output.find("Atlantis"), std::string::npos);
  // The English cannot go to sea: no path is an error too.
  const DanelawGame game;
  int sea = 0;
  while (!game.map().hex(sea).is_sea()) ++sea;
  const CommandRun no_path =
      run("path danelaw --from York --to " + game.map().label(sea) + " --side english");
  EXPECT_NE(no_path.status, 0);
  EXPECT_NE(no_path.output.find("no path"), std::string::npos);
}

TEST(DanelawCli, MapExportsJsonAndText) {
  const CommandRun json = run("map danelaw --json");
  ASSERT_EQ(json.status, 0);
  EXPECT_NE(json.output.find("\"hexes\""), std::string::npos);
  EXPECT_NE(json.output.find("\"town\": \"Carlisle\""), std::string::npos);
  EXPECT_NE(json.output.find("\"rivers\""), std::string::npos);
  const CommandRun text = run("map danelaw");
  ASSERT_EQ(text.status, 0);
  EXPECT_NE(text.output.find("37 towns"), std::string::npos) << text.output;
}

TEST(DanelawCli, RenderWritesSvgWithAStateAndOtherMaps) {
  const DanelawGame game;
  State s = game.initial_state();
  const std::string state_path =
      ::testing::TempDir() + "danelaw_cli_state_" + std::to_string(::getpid()) + ".json";
  std::ofstream(state_path) << state_to_json(s);
  const std::string svg_path =
      ::testing::TempDir() + "danelaw_cli_map_" + std::to_string(::getpid()) + ".svg";
  std::remove(svg_path.c_str());
  const CommandRun r = run("render danelaw --out " + svg_path + " --state " + state_path);
  ASSERT_EQ(r.status, 0) << r.output;
  std::stringstream svg;
  svg << std::ifstream(svg_path).rdbuf();
  EXPECT_EQ(svg.str().rfind("<svg", 0), 0u);
  EXPECT_NE(svg.str().find(">Winchester</text>"), std::string::npos);
  EXPECT_NE(svg.str().find(">M</text>"), std::string::npos);  // militia from the state
  const CommandRun text = run("render danelaw --state " + state_path);
  ASSERT_EQ(text.status, 0);
  EXPECT_NE(text.output.find("M@"), std::string::npos);

  // A state that does not fit the map is a one-line error, not a crash.
  s.armies[0].hex = 5000;
  std::ofstream(state_path) << state_to_json(s);
  const CommandRun off = run("render danelaw --state " + state_path);
  EXPECT_NE(off.status, 0);
  EXPECT_EQ(lines(off.output), 1) << off.output;
  EXPECT_NE(off.output.find("off the map"), std::string::npos) << off.output;

  // --map loads another map; a broken one is a one-line error naming the problem.
  const std::string broken =
      ::testing::TempDir() + "danelaw_cli_broken_" + std::to_string(::getpid()) + ".json";
  std::ofstream(broken) << R"({"name": "x", "hex_km": 22, "hexes": [
      {"q": 0, "r": 0, "terrain": "lava", "sector": 0}], "towns": [], "rivers": []})";
  const CommandRun bad = run("render danelaw --map " + broken);
  EXPECT_NE(bad.status, 0);
  EXPECT_EQ(lines(bad.output), 1) << bad.output;
  EXPECT_NE(bad.output.find("unknown terrain 'lava'"), std::string::npos) << bad.output;
}

}  // namespace
}  // namespace sling::danelaw
