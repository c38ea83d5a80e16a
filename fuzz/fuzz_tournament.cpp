// libFuzzer target: a tournament folder's files as `--resume` and `replay DIR --game N` read them:
// games.csv (checked against the schedule), config.json and one records.jsonl line.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "engine/core/record.h"
#include "experiments/tournament/tournament.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const sling::TournamentConfig config = [] {
    sling::TournamentConfig c;
    c.game = "pig";
    c.rules = sling::pig::PigGame().rules_json();
    c.agents = {"random", "heuristic", "hold:20"};
    c.pairs_per_pairing = 4;
    return c;
  }();
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    (void)sling::parse_games_csv(text, config, {"first", "second"}, "games.csv");
  } catch (const sling::SlingError&) {
  }
  try {
    (void)sling::TournamentConfig::from_json(text, "config.json");
  } catch (const sling::SlingError&) {
  }
  try {
    (void)sling::record_from_text(text.substr(0, text.find('\n')));
  } catch (const sling::SlingError&) {
  }
  return 0;
}
