#pragma once
// Danelaw on the page: the game of a request is played on a built-in map or on a map file the page
// uploaded (never a path on the server), and a save continues on the map it names or on the
// uploaded file it was played on.

#include <string>
#include <vector>

#include "engine/danelaw/danelaw.h"
#include "play/web/web_traits.h"

namespace sling::web {

template <>
struct WebTraits<danelaw::DanelawGame> : DefaultWebTraits<danelaw::DanelawGame> {
  static danelaw::DanelawGame from_request(const std::string& rules,
                                           const rapidjson::Value& request, bool saved);
  static std::vector<std::string> built_in_maps();
};

}  // namespace sling::web
