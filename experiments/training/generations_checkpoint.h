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
  // Generation 0's agent against a reference that is not itself, for the curve's first point
  // (the pairs' winners as GenerationRecord::curve_winners; empty: not rated, or the reference is
  // generation 0's agent).  Optional in the file: runs written before it have none.
  std::vector<int> start_curve_winners;
};

std::string checkpoint_to_json(const GenerationCheckpoint& checkpoint);
GenerationCheckpoint checkpoint_from_json(std::string_view text, const std::string& origin);

}  // namespace sling::danelaw
