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

}  // namespace sling::testing
