#pragma once
// Data files shipped inside the binary (the default danelaw map, example rules).

#include <string_view>

namespace sling {

// Returns the contents of the embedded file `name` (e.g. "england.json"); throws FileFormatError.
std::string_view embedded_file(std::string_view name);

}  // namespace sling
