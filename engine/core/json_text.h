#pragma once
// JSON text for reports written by hand (match and tournament summaries), where a cereal archive
// would impose its own layout.

#include <string>
#include <string_view>

namespace sling {

// `text` as a quoted JSON string, with quotes, backslashes and control characters escaped.
std::string json_string(std::string_view text);

}  // namespace sling
