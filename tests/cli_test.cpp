// The command line's conventions: one-line errors "sling: <what> (<file or option>): <why>" with
// exit status 2, unknown commands and games named with the valid ones, one --threads and --seed
// convention, help texts with defaults and examples, and the game registry they are built from.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "cli/games.h"
#include "engine/danelaw/danelaw.h"
#include "engine/duel/duel.h"
#include "engine/pig/pig.h"
#include "tests/run_sling.h"

namespace sling::cli {
namespace {

using testing_support::CommandRun;
using testing_support::count_lines;
using testing_support::run_sling;

std::string temp_path(const std::string& name) {
  return (std::filesystem::temp_directory_path() / name).string();
}

void write(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// A user error: exit status 2, one line, "sling: " first, and no library's words.
void expect_user_error(const CommandRun& r, const std::string& arguments) {
  EXPECT_EQ(r.status, 2) << arguments << "\n" << r.output;
  EXPECT_EQ(count_lines(r.output), 1) << arguments << "\n" << r.output;
  EXPECT_EQ(r.output.rfind("sling: ", 0), 0u) << arguments << "\n" << r.output;
  for (const char* leak : {"rapidjson", "cereal", "TBB", "NVP", "kUint", "IsObject"}) {
    EXPECT_FALSE(contains(r.output, leak)) << arguments << "\n" << r.output;
  }
}

TEST(CliErrors, UnknownCommandsAndGamesListTheValidOnes) {
  const CommandRun command = run_sling("frobnicate");
  expect_user_error(command, "frobnicate");
  EXPECT_TRUE(contains(command.output, "'frobnicate'")) << command.output;
  EXPECT_TRUE(contains(command.output, "play")) << command.output;
  const CommandRun solve = run_sling("solve chess");
  expect_user_error(solve, "solve chess");
  EXPECT_TRUE(contains(solve.output, "'chess'")) << solve.output;
  EXPECT_TRUE(contains(solve.output, "duel, pig")) << solve.output;
  const CommandRun game = run_sling("match chess --games 1");
  expect_user_error(game, "match chess");
  EXPECT_TRUE(contains(game.output, "duel, danelaw and pig")) << game.output;
}

TEST(CliErrors, VersionIsAFlagAndACommand) {
  const CommandRun flag = run_sling("--version");
  EXPECT_EQ(flag.status, 0);
  EXPECT_EQ(flag.output.rfind("sling ", 0), 0u) << flag.output;
  EXPECT_EQ(run_sling("version").output, flag.output);
}

TEST(CliErrors, SeedsOutsideTheRangeAreRefused) {
  for (const char* seed : {"-1", "18446744073709551616", "12abc", "1e5"}) {
    const std::string arguments =
        std::string("match pig --first random --second random --games 2 --seed ") + seed;
    const CommandRun r = run_sling(arguments);
    expect_user_error(r, arguments);
    EXPECT_TRUE(contains(r.output, "--seed")) << r.output;
  }
  const CommandRun top =
      run_sling("match pig --first random --second random --games 2 --seed 18446744073709551615");
  EXPECT_EQ(top.status, 0) << top.output;
  EXPECT_TRUE(contains(top.output, "seed 18446744073709551615")) << top.output;
}

TEST(CliErrors, OneThreadsConvention) {
  // Too many threads is a range error everywhere; more than the cores is served quietly.
  for (const char* command :
       {"match pig --first random --second random --games 2", "tournament pig --games 1",
        "solve duel --pitch 5 --out x.sol", "study god --out g"}) {
    const std::string arguments = std::string(command) + " --threads 1000";
    expect_user_error(run_sling(arguments), arguments);
  }
  const CommandRun many =
      run_sling("match pig --first random --second random --games 4 --threads 200");
  EXPECT_EQ(many.status, 0) << many.output;
  EXPECT_FALSE(contains(many.output, "TBB")) << many.output;
}

TEST(CliErrors, BrokenSavesNameTheFieldWithoutLibraryText) {
  const std::string save = temp_path("pig.sav");
  const std::string input = temp_path("pig-input.txt");
  write(input, "save " + save + "\nquit\n");
  const CommandRun played = run_sling("play pig --first human --second easy --seed 3 < " + input);
  ASSERT_TRUE(std::filesystem::exists(save)) << played.output;
  std::ifstream in(save);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string negative = temp_path("negative.sav");
  std::string changed = text;
  changed.replace(changed.find("\"seed\": 3"), 9, "\"seed\": -5");
  write(negative, changed);
  const CommandRun r1 = run_sling("play --load " + negative);
  expect_user_error(r1, "negative seed");
  EXPECT_TRUE(contains(r1.output, "'seed'")) << r1.output;
  EXPECT_TRUE(contains(r1.output, negative)) << r1.output;
  const std::string truncated = temp_path("truncated.sav");
  write(truncated, text.substr(0, text.size() / 2));
  const CommandRun r2 = run_sling("play --load " + truncated);
  expect_user_error(r2, "truncated");
  EXPECT_TRUE(contains(r2.output, "malformed JSON at line")) << r2.output;
  const std::string extra = temp_path("extra.sav");
  changed = text;
  changed.replace(changed.find("\"seed\""), 6, "\"sede\"");
  write(extra, changed);
  const CommandRun r3 = run_sling("replay " + extra);
  expect_user_error(r3, "unknown field");
  EXPECT_TRUE(contains(r3.output, "'sede'")) << r3.output;
}

TEST(CliErrors, OtherGamesSavesAndBadMapsAreNamed) {
  const std::string save = temp_path("duel.sav");
  const std::string input = temp_path("duel-input.txt");
  write(input, "save " + save + "\nquit\n");
  run_sling("play duel --david human --goliath easy --seed 1 < " + input);
  ASSERT_TRUE(std::filesystem::exists(save));
  const CommandRun render = run_sling("render danelaw --state " + save);
  expect_user_error(render, "render a duel save");
  EXPECT_TRUE(contains(render.output, "a game of duel")) << render.output;
  const std::string list = temp_path("list.json");
  write(list, "[1, 2]");
  const CommandRun map = run_sling("render danelaw --map " + list);
  expect_user_error(map, "map that is a list");
  EXPECT_TRUE(contains(map.output, "expected an object")) << map.output;
  const CommandRun empty = run_sling("replay " + std::filesystem::temp_directory_path().string());
  expect_user_error(empty, "replay an empty folder");
  EXPECT_TRUE(contains(empty.output, "records.jsonl")) << empty.output;
}

TEST(CliErrors, HelpShowsDefaultsAndExamples) {
  for (const char* command : {"play", "match", "tournament", "agents", "rules", "map", "render",
                              "path", "replay", "solve duel", "solve pig", "study god"}) {
    const CommandRun help = run_sling(std::string(command) + " --help");
    EXPECT_EQ(help.status, 0) << command;
    EXPECT_TRUE(contains(help.output, "Examples:")) << command << "\n" << help.output;
  }
  const CommandRun match = run_sling("match --help");
  EXPECT_TRUE(contains(match.output, "--threads INT:INT in [0 - 256]=0") ||
              contains(match.output, "=0"))
      << match.output;
}

TEST(GameRegistry, DeclarationsAgreeWithTheGames) {
  const auto& games = game_declarations();
  ASSERT_EQ(games.size(), 3u);
  auto check = [&](const auto& game, const GameDeclaration& declared) {
    EXPECT_EQ(game.info().name, declared.name);
    EXPECT_EQ(game.info().sides[0], declared.sides[0]);
    EXPECT_EQ(game.info().sides[1], declared.sides[1]);
  };
  check(duel::DuelGame{}, games[0]);
  check(danelaw::DanelawGame{}, games[1]);
  check(pig::PigGame{}, games[2]);
  EXPECT_EQ(game_list(), "duel, danelaw or pig");
  EXPECT_EQ(map_game_list(), "danelaw");
  EXPECT_EQ(all_side_names().size(), 6u);
  EXPECT_THROW(require_game("chess"), OptionError);
  EXPECT_EQ(&require_game("pig"), &games[2]);
}

// The command line shows exactly the registry's games (engine/games.h), in its order: one line
// each under "Games:" in `sling --help`, and the same names in its title.
TEST(GameRegistry, TheCommandLineShowsExactlyTheRegisteredGames) {
  const CommandRun help = run_sling("--help");
  ASSERT_EQ(help.status, 0) << help.output;
  const std::size_t games_at = help.output.find("\nGames:\n");
  ASSERT_NE(games_at, std::string::npos) << help.output;
  std::vector<std::string> shown;
  std::size_t at = games_at + std::string("\nGames:\n").size();
  while (at < help.output.size() && help.output.compare(at, 2, "  ") == 0) {
    const std::size_t end = help.output.find('\n', at);
    const std::string line = help.output.substr(at + 2, end - at - 2);
    shown.push_back(line.substr(0, line.find(' ')));
    at = end == std::string::npos ? help.output.size() : end + 1;
  }
  std::vector<std::string> registered;
  for_each_registered_game([&]<class G>(std::type_identity<G>) {
    registered.emplace_back(GameRegistration<G>::kDeclaration.name);
    EXPECT_TRUE(contains(help.output, std::string(GameRegistration<G>::kDeclaration.summary)));
  });
  EXPECT_EQ(shown, registered);
  EXPECT_TRUE(contains(help.output, "dice wargames (" + game_list("and") + ")")) << help.output;
  for (const std::string& name : registered) {
    EXPECT_EQ(
        with_registered_game(
            name, [&]<class G>(std::type_identity<G>) { return std::string(G().info().name); }),
        name);
  }
}

TEST(MapRoundTrip, ExportedMapLoadsBackWithTheSameContent) {
  const CommandRun exported = run_sling("map danelaw --json");
  ASSERT_EQ(exported.status, 0);
  const std::string file = temp_path("england-export.json");
  write(file, exported.output);
  const danelaw::HexMap original = danelaw::HexMap::load("england.json");
  const danelaw::HexMap loaded = danelaw::HexMap::load(file);
  EXPECT_EQ(loaded.content_hash(), original.content_hash());
  EXPECT_EQ(loaded.export_json(), original.export_json());
  const CommandRun path = run_sling("path danelaw --from York --to London --map " + file);
  EXPECT_EQ(path.status, 0) << path.output;
  // A derived key edited by hand is refused, not ignored.
  std::string edited = exported.output;
  edited.replace(edited.find("\"town\": \"York\""), 14, "\"town\": \"Jorvik\"");
  write(file, edited);
  const CommandRun refused = run_sling("map danelaw --map " + file);
  expect_user_error(refused, "edited town");
  EXPECT_TRUE(contains(refused.output, "'town'")) << refused.output;
}

TEST(MapRoundTrip, UnknownKeysAreRejectedByName) {
  std::string text = danelaw::HexMap::load("england.json").export_json();
  text.replace(text.find("\"hex_km\""), 8, "\"hex_kms\"");
  EXPECT_THROW(
      {
        try {
          danelaw::HexMap::parse(text, "typo");
        } catch (const RulesError& e) {
          EXPECT_TRUE(contains(e.what(), "unknown key 'hex_kms'")) << e.what();
          throw;
        }
      },
      RulesError);
  std::string hex_typo = danelaw::HexMap::load("england.json").export_json();
  hex_typo.replace(hex_typo.find("\"terrain\""), 9, "\"terain\"");
  try {
    danelaw::HexMap::parse(hex_typo, "typo");
    ADD_FAILURE() << "a misspelt hex key was accepted";
  } catch (const RulesError& e) {
    EXPECT_TRUE(contains(e.what(), "hexes[0]: unknown key 'terain'")) << e.what();
  }
}

}  // namespace
}  // namespace sling::cli
