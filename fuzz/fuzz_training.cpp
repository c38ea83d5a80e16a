// libFuzzer target: a training run's directory files as `sling train danelaw --generations`
// reads them when it continues a run: games.bin (played_games_from_bytes, then each game
// replayed on danelaw's default rules, as the run rebuilds its positions), run.json
// (checkpoint_from_json) and the models gen-K.json (ValueModel::from_json, every format version:
// linear, network, town terms; a model that loads is evaluated once).  A replay can be long: a
// history of legal actions replays in full.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "engine/core/fnv1a.h"
#include "engine/danelaw/danelaw.h"
#include "experiments/training/generations_checkpoint.h"
#include "experiments/training/played_games_file.h"
#include "fuzz/fuzz_check.h"
#include "solvers/danelaw/value_model.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const sling::danelaw::DanelawGame game;
  const std::string text(reinterpret_cast<const char*>(data), size);
  // As written, and resealed with the checksum of what it holds, so that the mutations reach the
  // lengths, flags and histories behind the checksum.
  std::string resealed = text.substr(0, text.size() < 8 ? 0 : text.size() - 8);
  const std::uint64_t hash = sling::fnv1a(resealed);
  resealed.append(reinterpret_cast<const char*>(&hash), sizeof hash);
  for (const std::string* bytes : {&text, static_cast<const std::string*>(&resealed)}) {
    try {
      sling::danelaw::TrainingData positions;
      positions.variants.push_back(game);
      for (const auto& played : sling::danelaw::played_games_from_bytes(*bytes, "games.bin")) {
        sling::danelaw::append_positions(positions, played);
      }
    } catch (const sling::SlingError& e) {
      sling::fuzz::check_message(e, *bytes);
    }
  }
  try {
    (void)sling::danelaw::checkpoint_from_json(text, "run.json");
  } catch (const sling::SlingError& e) {
    sling::fuzz::check_message(e, text);
  }
  try {
    const sling::danelaw::ValueModel model =
        sling::danelaw::ValueModel::from_json(text, "gen-1.json");
    (void)model.probability(game, game.initial_state());
  } catch (const sling::SlingError& e) {
    sling::fuzz::check_message(e, text);
  }
  return 0;
}
