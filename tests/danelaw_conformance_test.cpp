// The shared conformance suite on danelaw.

#include "engine/danelaw/danelaw.h"
#include "tests/conformance.h"

namespace sling::testing {

// A random danelaw game is a few hundred plies, each checked in depth (JSON round trips, every
// action's text, which at the opening placement is some two hundred sea hexes); 25 playouts take
// about a second and a half in Release.
template <>
struct ConformanceTraits<danelaw::DanelawGame> {
  static constexpr int kPlayouts = 25;
  static constexpr int kMaxPlies = 100000;
};

INSTANTIATE_TYPED_TEST_SUITE_P(Danelaw, Conformance, ::testing::Types<danelaw::DanelawGame>);

// The seed's balance option: the Danes' extra ten armies change the pool and the reinforcements.
struct DanelawWithExtraDanes {
  using Game = danelaw::DanelawGame;
  static Game make() { return Game::from_rules_json(R"({"danes_extra": true})"); }
  static constexpr int kPlayouts = 10;
};
INSTANTIATE_TYPED_TEST_SUITE_P(DanelawVariants, Conformance,
                               ::testing::Types<DanelawWithExtraDanes>);

}  // namespace sling::testing
