#pragma once
// A Pig tournament on two threads, rated on the plain scores and on the scores adjusted for the
// dice's luck (exact values), its files written afresh into `dir`: the tests of the luck
// adjustment and of Pig's presets play it.

#include <cstdint>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "engine/pig/pig.h"
#include "experiments/tournament/tournament.h"

namespace sling::testing_support {

inline TournamentReport pig_luck_tournament(const std::vector<std::string>& agents, int pairs,
                                            std::uint64_t seed, const std::filesystem::path& dir) {
  static const pig::PigGame game;
  std::filesystem::remove_all(dir);
  TournamentConfig config;
  config.game = "pig";
  config.rules = game.rules_json();
  config.agents = agents;
  config.pairs_per_pairing = pairs;
  config.seed = seed;
  TournamentOptions options;
  options.out_dir = dir.string();
  options.threads = 2;
  options.luck = true;
  std::ostringstream log;
  return run_tournament(game, config, options, log);
}

}  // namespace sling::testing_support
