#include "engine/core/embedded.h"

#include <string>

#include "engine/core/errors.h"
#include "sling_embedded_data.h"

namespace sling {

std::string_view embedded_file(std::string_view name) {
  for (const auto& [file, contents] : embedded::kFiles) {
    if (!file.empty() && file == name) return contents;
  }
  throw FileFormatError("no embedded data file '" + std::string(name) + "'");
}

}  // namespace sling
