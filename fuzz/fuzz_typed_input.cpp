// libFuzzer target: what a person types at the play prompt, parsed as an action (parse_action) in
// positions reached by seeded random play.  The first bytes pick the game, the seed and the ply;
// the rest is the typed text.  A parsed action must be legal or rejected by apply_action.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "engine/core/game.h"
#include "engine/danelaw/danelaw.h"
#include "engine/duel/duel.h"
#include "engine/pig/pig.h"
#include "fuzz/fuzz_check.h"

namespace {

template <class G>
void typed(const G& game, std::uint64_t seed, int plies, std::string_view text) {
  auto state = game.initial_state();
  sling::Rng rng(seed, 0);
  for (int ply = 0; ply < plies && !game.is_terminal(state); ++ply) {
    if (game.current_player(state) == sling::kChancePlayer) {
      game.apply_chance(state, sling::sample_chance(game, state, rng));
    } else {
      game.apply_action(state, sling::sample_uniform_action(game, state, rng));
    }
  }
  if (game.is_terminal(state) || game.current_player(state) == sling::kChancePlayer) return;
  try {
    const sling::Action action = game.parse_action(state, text);
    auto next = state;
    game.apply_action(next, action);
    (void)game.action_to_string(state, action);
  } catch (const sling::SlingError& e) {
    sling::fuzz::check_message(e, text);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 3) return 0;
  // The prompt reads one line, so the typed text never holds a line break.
  std::string_view text(reinterpret_cast<const char*>(data) + 3, size - 3);
  text = text.substr(0, text.find('\n'));
  const std::uint64_t seed = data[1];
  const int plies = data[2];
  static const sling::duel::DuelGame duel;
  static const sling::pig::PigGame pig;
  static const sling::danelaw::DanelawGame danelaw;
  switch (data[0] % 3) {
    case 0:
      typed(duel, seed, plies, text);
      break;
    case 1:
      typed(pig, seed, plies, text);
      break;
    default:
      typed(danelaw, seed, plies, text);
      break;
  }
  return 0;
}
