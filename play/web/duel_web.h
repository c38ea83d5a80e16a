#pragma once
// The duel on the page: the server's --solution file is the duel's exact solution.  (Picking a
// point on the board is the duel's nearest_destination, play/web/web_views.h.)

#include "engine/duel/duel.h"
#include "play/web/web_traits.h"

namespace sling::web {

template <>
struct WebTraits<duel::DuelGame> : DefaultWebTraits<duel::DuelGame> {
  static constexpr bool kTakesServerSolution = true;
};

}  // namespace sling::web
