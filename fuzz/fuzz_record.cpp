// libFuzzer target: game records (saves, replays, tournament logs) in JSON and binary, and the
// replay of whatever parses on its game.  Any input must end in a record or a FileFormatError /
// IllegalActionError: no crash, hang or unbounded allocation.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "engine/core/record.h"
#include "engine/danelaw/danelaw.h"
#include "engine/duel/duel.h"
#include "engine/pig/pig.h"
#include "fuzz/fuzz_check.h"

namespace {

template <class G>
void replay_on(const sling::GameRecord& record) {
  const G game = G::from_rules_json(record.rules);
  (void)sling::replay(game, record);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  try {
    const sling::GameRecord record = sling::record_from_text(bytes);
    if (record.history.size() > 100000) return 0;  // bound the replay's time, not its safety
    if (record.game == "duel") replay_on<sling::duel::DuelGame>(record);
    if (record.game == "pig") replay_on<sling::pig::PigGame>(record);
    if (record.game == "danelaw") replay_on<sling::danelaw::DanelawGame>(record);
  } catch (const sling::SlingError& e) {
    sling::fuzz::check_message(e, bytes);
  }
  return 0;
}
