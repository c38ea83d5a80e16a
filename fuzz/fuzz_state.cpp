// libFuzzer target: saved danelaw states (`sling render --state`), JSON and binary, then the
// state check every loader runs.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "engine/core/state_io.h"
#include "engine/danelaw/danelaw.h"
#include "fuzz/fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const sling::danelaw::DanelawGame game;
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  for (const bool json : {true, false}) {
    try {
      const auto state = json ? sling::state_from_json<sling::danelaw::State>(bytes)
                              : sling::state_from_binary<sling::danelaw::State>(bytes);
      game.check_state(state);
    } catch (const sling::SlingError& e) {
      sling::fuzz::check_message(e, bytes);
    }
  }
  return 0;
}
