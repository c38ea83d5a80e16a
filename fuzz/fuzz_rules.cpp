// libFuzzer target: rules files of every game (options_from_json over each game's defaults).  A
// rules file that loads must give a game whose initial state is legal and whose rules JSON loads
// back to the same rules.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "engine/danelaw/danelaw.h"
#include "engine/duel/duel.h"
#include "engine/pig/pig.h"
#include "fuzz/fuzz_check.h"

namespace {

template <class G>
void load(std::string_view text) {
  try {
    const G game = G::from_rules_json(text);
    (void)game.initial_state();
    if (G::from_rules_json(game.rules_json()).rules_json() != game.rules_json()) std::abort();
  } catch (const sling::SlingError& e) {
    sling::fuzz::check_message(e, text);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  // The first byte picks the game, so one corpus covers all three.
  const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  switch (data[0] % 3) {
    case 0:
      load<sling::duel::DuelGame>(text);
      break;
    case 1:
      load<sling::pig::PigGame>(text);
      break;
    default:
      load<sling::danelaw::DanelawGame>(text);
      break;
  }
  return 0;
}
