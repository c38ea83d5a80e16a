// libFuzzer target: danelaw map files (HexMap::parse), including the derived keys of an export.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "engine/danelaw/map.h"
#include "fuzz/fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const sling::danelaw::HexMap map = sling::danelaw::HexMap::parse(text, "fuzz");
    (void)map.export_json();
  } catch (const sling::SlingError& e) {
    sling::fuzz::check_message(e, text);
  }
  return 0;
}
