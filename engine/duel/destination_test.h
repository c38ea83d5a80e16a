#pragma once
// The legality of a mover's destinations from one state, tested offset by offset: the duel's
// listing and its rollouts' sampler share it (engine/duel/duel.cpp, duel_sampling.cpp).  Internal
// to the duel's engine.

#include <cstdint>

#include "engine/core/game.h"
#include "engine/duel/duel.h"
#include "engine/duel/geometry.h"

namespace sling::duel::detail {

// The destinations of the mover of `s` (in kDestination), tested offset by offset within the disc
// of its allowance with both centres computed once: the test of destination_legal, less its
// allowance check (the disc of min(allowance, 12 cm) lies within the allowance).  Shared by the
// listing and the rollouts' sampler, which test up to hundreds of offsets a state.
class DestinationTest {
 public:
  DestinationTest(const DuelGeometry& geometry, const DuelState& s) : geometry_(geometry) {
    const Side mover = mover_of(s);
    const Side still = mover == kDavid ? kGoliath : kDavid;
    from_x_ = mover == kDavid ? s.david_x : s.goliath_x;
    from_y_ = mover == kDavid ? s.david_y : s.goliath_y;
    width_ = geometry.lattice_width(mover);
    height_ = geometry.lattice_height(mover);
    px_ = geometry.centre_x(mover, from_x_);
    py_ = geometry.centre_y(mover, from_y_);
    cx_ = geometry.centre_x(still, still == kDavid ? s.david_x : s.goliath_x);
    cy_ = geometry.centre_y(still, still == kDavid ? s.david_y : s.goliath_y);
    // A lattice step moves a centre by one pitch; Goliath's rows count down from his border.
    pitch_ = geometry.pitch_units();
    row_step_ = mover == kDavid ? pitch_ : -pitch_;
  }

  // The destination `o` leads to, or kInvalidAction when it is off the board or blocked.
  Action destination(LatticeOffset o) const {
    const int x = from_x_ + o.dx, y = from_y_ + o.dy;
    // One unsigned comparison a coordinate: a negative one wraps above any lattice size.
    if (static_cast<unsigned>(x) >= static_cast<unsigned>(width_) ||
        static_cast<unsigned>(y) >= static_cast<unsigned>(height_)) {
      return kInvalidAction;
    }
    if ((o.dx == 0 && o.dy == 0) ||
        geometry_.path_clear(px_, py_, px_ + o.dx * pitch_, py_ + o.dy * row_step_, cx_, cy_)) {
      return act::destination(x, y);
    }
    return kInvalidAction;
  }

 private:
  const DuelGeometry& geometry_;
  int from_x_ = 0, from_y_ = 0, width_ = 0, height_ = 0;
  std::int64_t px_ = 0, py_ = 0, cx_ = 0, cy_ = 0, pitch_ = 0, row_step_ = 0;
};

}  // namespace sling::duel::detail
