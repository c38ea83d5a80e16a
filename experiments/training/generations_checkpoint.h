#pragma once
// The state of a `sling train danelaw --generations` run in its directory (run.json), beside the
// games (games.bin, played_games_file.h) and the models (gen-K.json): the settings it was started
// with, how many generations' self-play games are saved, and each finished generation's record.
// Written atomically after each step, so a kill leaves the last step's state; read back with
// every field checked (a damaged file is a one-line FileFormatError naming it).

#include <string>
#include <vector>

#include "experiments/training/danelaw_generations.h"

namespace sling::danelaw {

struct GenerationCheckpoint {
  std::string settings;  // every setting that decides the figures, one "key value" per line
  int self_played = 0;   // generations whose self-play games are in games.bin
  std::vector<GenerationRecord> generations;  // the finished ones, in order
};

std::string checkpoint_to_json(const GenerationCheckpoint& checkpoint);
GenerationCheckpoint checkpoint_from_json(std::string_view text, const std::string& origin);

}  // namespace sling::danelaw
