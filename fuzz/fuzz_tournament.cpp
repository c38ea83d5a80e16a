// libFuzzer target: a tournament folder's files as `--resume` and `replay DIR --game N` read them:
// games.csv (checked against the schedule), config.json and one records.jsonl line.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "engine/core/record.h"
#include "experiments/tournament/tournament.h"
#include "fuzz/fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const sling::TournamentConfig config = [] {
    sling::TournamentConfig c;
    c.game = "pig";
    c.rules = sling::pig::PigGame().rules_json();
    // The tournament of corpus/fuzz_tournament/ (config.json, games.csv, record-line), so that
    // its rows check against the schedule all the way.
    c.agents = {"random", "heuristic"};
    c.pairs_per_pairing = 2;
    c.seed = 1;
    return c;
  }();
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    (void)sling::parse_games_csv(text, config, {"first", "second"}, "games.csv");
  } catch (const sling::SlingError& e) {
    sling::fuzz::check_message(e, text);
  }
  try {
    (void)sling::TournamentConfig::from_json(text, "config.json");
  } catch (const sling::SlingError& e) {
    sling::fuzz::check_message(e, text);
  }
  try {
    (void)sling::record_from_text(text.substr(0, text.find('\n')));
  } catch (const sling::SlingError& e) {
    sling::fuzz::check_message(e, text);
  }
  return 0;
}
