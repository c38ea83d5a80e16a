// The shared conformance suite on danelaw.

#include "engine/danelaw/danelaw.h"
#include "tests/conformance.h"

namespace sling::testing {

// A random danelaw game is a few thousand plies, each checked in depth (JSON round trips, every
// action's text); 12 playouts keep the suite within a few seconds.
template <>
struct ConformanceTraits<danelaw::DanelawGame> {
  static constexpr int kPlayouts = 12;
  static constexpr int kMaxPlies = 100000;
};

INSTANTIATE_TYPED_TEST_SUITE_P(Danelaw, Conformance, ::testing::Types<danelaw::DanelawGame>);

}  // namespace sling::testing
