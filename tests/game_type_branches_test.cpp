// Generic code never asks which game it is given: what a tool does differently per game comes from
// a trait the game specialises (GameRegistration in engine/, GameAgents in agents/, WebTraits in
// play/web/, Observation in python/), so that a new game registers in its own files and changes no
// generic template.  This test reads every .h and .cpp of the layers and fails on a comparison of a
// type with a concrete game type (`std::is_same_v<G, duel::DuelGame>` and the like).

#include <gtest/gtest.h>

#include <filesystem>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "engine/core/io.h"
#include "engine/games.h"
#include "tests/build_paths.h"

namespace sling {
namespace {

// A type comparison (is_same, is_same_v) that names a game class (`duel::DuelGame`, `PigGame`).
const std::regex kGameTypeComparison(R"(\bis_same(_v)?\s*<[^;]*\b\w*Game\s*>)");

std::vector<std::string> game_type_comparisons(const std::filesystem::path& file) {
  std::vector<std::string> found;
  std::istringstream lines(read_file(file.string()));
  std::string line;
  for (int number = 1; std::getline(lines, line); ++number) {
    if (std::regex_search(line, kGameTypeComparison))
      found.push_back(file.string() + ":" + std::to_string(number) + ": " + line);
  }
  return found;
}

TEST(GameTypeBranches, TheRegexFindsAComparisonWithAGameType) {
  EXPECT_TRUE(
      std::regex_search("if constexpr (std::is_same_v<G, duel::DuelGame>) {", kGameTypeComparison));
  EXPECT_TRUE(std::regex_search(
      "std::is_same_v<std::decay_t<decltype(game)>, danelaw::DanelawGame>", kGameTypeComparison));
  EXPECT_FALSE(std::regex_search("std::is_same_v<V, NoLeafValue>", kGameTypeComparison));
}

TEST(GameTypeBranches, NoGenericCodeComparesAGameType) {
  const std::filesystem::path root = SLING_SOURCE_DIR;
  std::vector<std::string> found;
  for (const char* layer :
       {"engine", "solvers", "search", "agents", "experiments", "play", "cli", "python"}) {
    for (const auto& entry : std::filesystem::recursive_directory_iterator(root / layer)) {
      const std::string extension = entry.path().extension().string();
      if (!entry.is_regular_file() || (extension != ".h" && extension != ".cpp")) continue;
      if (entry.path().string().find("/tests/") != std::string::npos) continue;
      for (std::string& hit : game_type_comparisons(entry.path())) found.push_back(hit);
    }
  }
  std::string report;
  for (const std::string& hit : found) report += "\n  " + hit;
  EXPECT_TRUE(found.empty()) << "a game's own behaviour belongs in a trait it specialises "
                                "(docs/architecture.md, \"Adding a game\"):"
                             << report;
}

}  // namespace
}  // namespace sling
